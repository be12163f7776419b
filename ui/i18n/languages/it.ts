/** The it chrome catalog; its own chunk, fetched only when the admin is shown in it (../index.ts). */
import main from '../it.json';
import { assemble } from './assemble';

export default assemble(main, import.meta.glob<Record<string, string>>('../areas/*/it.json', { eager: true, import: 'default' }));
