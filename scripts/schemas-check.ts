/**
 * `npm run schemas:check`: lints every template under schemas/ (engine/schema-lint.ts) against
 * the widgets and fields the UI registers, printing `file at /pointer: message` per problem.
 * Exits 1 when anything is wrong.
 *
 * `npm run schemas:check -- --missing fr` prints instead the English labels that have no French
 * translation yet, as a JSON object to fill in and merge into schemas/_i18n/fr.json.
 */
import { join } from 'node:path';
import { TRANSLATED_LANGUAGES, untranslatedTexts } from '../engine/i18n';
import { lintSchemas } from '../engine/schema-lint';
import * as form from '../ui/form/widgets';

const root = join(import.meta.dirname, '..');
const args = process.argv.slice(2);
const missingAt = args.indexOf('--missing');
if (missingAt >= 0) {
  const language = args[missingAt + 1];
  if (!TRANSLATED_LANGUAGES.some((l) => l === language)) {
    console.error(`schemas:check --missing needs one of ${TRANSLATED_LANGUAGES.join(', ')}`);
    process.exit(2);
  }
  args.splice(missingAt, 2);
  const texts = untranslatedTexts(args[0] ?? join(root, 'schemas'), language as (typeof TRANSLATED_LANGUAGES)[number]);
  console.log(JSON.stringify(Object.fromEntries(texts.map((text) => [text, ''])), null, 2));
  process.exit(0);
}
const dir = args[0] ?? join(root, 'schemas');
const fields = (form as { fieldNames?: readonly string[] }).fieldNames ?? [];
const issues = lintSchemas(dir, { widgets: form.widgetNames, fields });
for (const i of issues) console.log(`schemas/${i.file}${i.path ? ` at ${i.path}` : ''}: ${i.message}`);
console.log(issues.length === 0 ? 'schemas: all templates pass' : `schemas: ${issues.length} problem${issues.length === 1 ? '' : 's'}`);
process.exit(issues.length === 0 ? 0 : 1);
