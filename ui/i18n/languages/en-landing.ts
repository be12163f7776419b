/**
 * The English texts the app's entry carries. In the built admin, the dev server and vitest this
 * module's content is replaced by scripts/english-split.ts with the texts the entry and the landing
 * screens name; run by anything else (tsx scripts such as `schemas:check`) it is the whole English
 * catalog, so every text is there.
 */
import { english } from './en';

const texts: Record<string, string> = english;
export default texts;
