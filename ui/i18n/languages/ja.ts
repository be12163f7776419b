/** The ja chrome catalog; its own chunk, fetched only when the admin is shown in ja (../index.ts). */
import main from '../ja.json';
import { assemble } from './assemble';

export default assemble(main, import.meta.glob<Record<string, string>>('../areas/*/ja.json', { eager: true, import: 'default' }));
