/**
 * `npm run fixtures [path …] [--explain]`: runs QA rule fixtures (fixtures/rules by default) and
 * prints a table of fixture, expected, actual and pass/FAIL. `--explain` prints every program's
 * decision with each condition and the fact value it saw. Exits 1 on any mismatch or malformed
 * fixture, 0 when all pass.
 */
import { existsSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { runFixture, type FixtureResult, type Comparison } from '../engine/fixtures';
import { listFixtureFiles, readFixture, registryPreparer, registryValidator } from '../engine/fixture-files';
import { loadRegistry } from '../engine/registry';
import type { OrderEvaluation } from '../engine/earning';

const root = join(import.meta.dirname, '..');
const args = process.argv.slice(2);
const explain = args.includes('--explain');
const targets = args.filter((a) => !a.startsWith('--'));
const paths = (targets.length > 0 ? targets : [join(root, 'fixtures', 'rules')]).map((t) => resolve(t));

const missing = paths.filter((p) => !existsSync(p));
if (missing.length > 0) {
  console.error(`no such fixture file or folder: ${missing.join(', ')}`);
  process.exit(2);
}

const registry = loadRegistry(join(root, 'schemas'));
const options = { prepare: registryPreparer(registry), validate: registryValidator(registry) };
const files = paths.flatMap((p) => listFixtureFiles(p, root));

const short = (value: unknown): string => (typeof value === 'string' ? value : JSON.stringify(value));
const headline = (cs: Comparison[], pick: 'expected' | 'actual'): string => {
  const failing = cs.filter((c) => !c.pass);
  const shown = failing.length > 0 ? failing : cs.slice(0, 1);
  return shown.map((c) => `${c.what}=${short(c[pick])}`).join('; ');
};

function printExplanation(result: FixtureResult): void {
  const detail = result.detail as Partial<OrderEvaluation> | null;
  if (!detail || typeof detail !== 'object' || !Array.isArray(detail.decisions) || !('orderSkipped' in detail)) {
    for (const line of JSON.stringify(result.detail, null, 2).split('\n')) console.log(`    ${line}`);
    return;
  }
  const evaluation = detail as OrderEvaluation;
  if (evaluation.orderSkipped) console.log(`    order skipped: ${evaluation.orderSkipped}`);
  for (const d of evaluation.decisions) {
    console.log(`    ${d.outcome === 'award' ? '+' : '-'} ${d.programTitle}: ${d.outcome} ${d.points} pts${d.reason ? ` (${d.reason})` : ''} — ${d.message}`);
    if (d.working) console.log(`        working: earnBy ${d.working.earnBy}, base ${d.working.base}, exact ${d.working.exact}, ${d.working.roundingMethod} → ${d.working.points}`);
    for (const check of d.conditionChecks) {
      console.log(`        ${check.lineId === null ? 'order' : `line ${check.lineId}`}: ${check.passed ? 'passed' : 'failed'}`);
      for (const c of check.conditions) {
        console.log(`          ${c.result ? '✓' : '✗'} ${c.field} ${c.operator} ${JSON.stringify(c.value)} (saw ${JSON.stringify(c.factValue ?? null)})`);
      }
    }
  }
}

const rows: [string, string, string, string][] = [];
let failures = 0;
for (const file of files) {
  let result: FixtureResult;
  try {
    result = await runFixture(readFixture(join(root, file)), options);
  } catch (e) {
    failures += 1;
    rows.push([file, '(valid fixture)', `error: ${(e as Error).message}`, 'FAIL']);
    continue;
  }
  if (!result.pass) failures += 1;
  rows.push([file, headline(result.comparisons, 'expected'), headline(result.comparisons, 'actual'), result.pass ? 'pass' : 'FAIL']);
  if (explain || !result.pass) {
    const [f, e, a, p] = rows[rows.length - 1]!;
    console.log(`${p}  ${f}\n    expected ${e}\n    actual   ${a}`);
    printExplanation(result);
  }
}

const widths = [0, 1, 2].map((i) => Math.min(70, Math.max(...rows.map((r) => r[i]!.length), ['fixture', 'expected', 'actual'][i]!.length)));
const cell = (text: string, width: number): string => (text.length > width ? `${text.slice(0, width - 1)}…` : text.padEnd(width));
console.log(`\n${cell('fixture', widths[0]!)}  ${cell('expected', widths[1]!)}  ${cell('actual', widths[2]!)}  result`);
for (const r of rows) console.log(`${cell(r[0], widths[0]!)}  ${cell(r[1], widths[1]!)}  ${cell(r[2], widths[2]!)}  ${r[3]}`);
console.log(`\nfixtures: ${rows.length - failures} passed, ${failures} failed`);
process.exit(failures === 0 ? 0 : 1);
