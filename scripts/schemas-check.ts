/**
 * `npm run schemas:check`: lints every template under schemas/ (engine/schema-lint.ts) against
 * the widgets and fields the UI registers, printing `file at /pointer: message` per problem.
 * Exits 1 when anything is wrong.
 */
import { join } from 'node:path';
import { lintSchemas } from '../engine/schema-lint';
import * as form from '../ui/form/widgets';

const root = join(import.meta.dirname, '..');
const dir = process.argv[2] ?? join(root, 'schemas');
const fields = (form as { fieldNames?: readonly string[] }).fieldNames ?? [];
const issues = lintSchemas(dir, { widgets: form.widgetNames, fields });
for (const i of issues) console.log(`schemas/${i.file}${i.path ? ` at ${i.path}` : ''}: ${i.message}`);
console.log(issues.length === 0 ? 'schemas: all templates pass' : `schemas: ${issues.length} problem${issues.length === 1 ? '' : 's'}`);
process.exit(issues.length === 0 ? 0 : 1);
