/** The id chrome catalog; its own chunk, fetched only when the admin is shown in id (../index.ts). */
import main from '../id.json';
import { assemble } from './assemble';

export default assemble(main, import.meta.glob<Record<string, string>>('../areas/*/id.json', { eager: true, import: 'default' }));
