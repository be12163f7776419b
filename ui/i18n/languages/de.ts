/** The de chrome catalog; its own chunk, fetched only when the admin is shown in de (../index.ts). */
import main from '../de.json';
import { assemble } from './assemble';

export default assemble(main, import.meta.glob<Record<string, string>>('../areas/*/de.json', { eager: true, import: 'default' }));
