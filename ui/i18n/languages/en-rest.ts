/**
 * The English texts the app's entry does not carry, fetched after the first render (ui/i18n
 * `loadAllEnglish`). In the built admin, the dev server and vitest this module's content is replaced
 * by scripts/english-split.ts; run by anything else it is empty, since en-landing.ts then holds the
 * whole catalog.
 */
const texts: Record<string, string> = {};
export default texts;
