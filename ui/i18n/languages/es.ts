/** The es chrome catalog; its own chunk, fetched only when the admin is shown in es (../index.ts). */
import main from '../es.json';
import { assemble } from './assemble';

export default assemble(main, import.meta.glob<Record<string, string>>('../areas/*/es.json', { eager: true, import: 'default' }));
