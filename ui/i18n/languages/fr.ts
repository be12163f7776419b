/** The fr chrome catalog; its own chunk, fetched only when the admin is shown in fr (../index.ts). */
import main from '../fr.json';
import { assemble } from './assemble';

export default assemble(main, import.meta.glob<Record<string, string>>('../areas/*/fr.json', { eager: true, import: 'default' }));
