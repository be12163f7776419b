/**
 * `npm test`: the one gate (STYLE.md habit 1). Runs typecheck, lint, unit + API + component tests
 * (vitest), the API suite again on PostgreSQL when TEST_DATABASE_URL is set, the UI build and the
 * browser tests (Playwright in Debian's Chromium), then prints
 * `tests: N passed, N failed` as its last line: vitest and Playwright test counts, plus one each
 * for typecheck, lint, schema lint and build. Exits non-zero when anything failed. The summary line is also
 * written to test-results/summary.txt for .ci/run.
 */
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

const root = join(import.meta.dirname, '..');
const results = join(root, 'test-results');
rmSync(results, { recursive: true, force: true });
mkdirSync(results, { recursive: true });

let passed = 0;
let failed = 0;
const failures: string[] = [];

/** Each step's wall-clock time (seconds), printed before the summary: where a slow run spent it. */
const timings: { name: string; seconds: number }[] = [];
const startedAt = performance.now();

function run(name: string, cmd: string, args: string[], env: Record<string, string> = {}): boolean {
  console.log(`\n▶ ${name}: ${cmd} ${args.join(' ')}`);
  const started = performance.now();
  const result = spawnSync(cmd, args, { cwd: root, stdio: 'inherit', env: { ...process.env, ...env } });
  timings.push({ name, seconds: (performance.now() - started) / 1000 });
  return result.status === 0;
}

function gate(name: string, cmd: string, args: string[]): void {
  if (run(name, cmd, args)) passed += 1;
  else {
    failed += 1;
    failures.push(name);
  }
}

function counted(name: string, cmd: string, args: string[], reportFile: string, env: Record<string, string>, read: (report: unknown) => { passed: number; failed: number }): void {
  const ok = run(name, cmd, args, env);
  if (!existsSync(reportFile)) {
    failed += 1;
    failures.push(`${name} (no report)`);
    return;
  }
  const counts = read(JSON.parse(readFileSync(reportFile, 'utf8')));
  passed += counts.passed;
  failed += counts.failed;
  if (!ok && counts.failed === 0) {
    failed += 1;
    failures.push(`${name} (exited non-zero)`);
  } else if (counts.failed > 0) failures.push(name);
}

const npx = 'npx';
gate('typecheck', npx, ['tsc', '--noEmit', '-p', '.']);
gate('lint', npx, ['eslint', '.', '--max-warnings=0']);
gate('schema lint', npx, ['tsx', 'scripts/schemas-check.ts']);

const vitestReport = join(results, 'vitest.json');
const vitestCounts = (r: unknown) => {
  const report = r as { numPassedTests: number; numFailedTests: number };
  return { passed: report.numPassedTests, failed: report.numFailedTests };
};
// The first run is on SQLite whatever the environment says.
counted('unit, API and component tests', npx, ['vitest', 'run', '--reporter=default', '--reporter=json', `--outputFile.json=${vitestReport}`], vitestReport, { TEST_DATABASE_URL: '' }, vitestCounts);

// The API suite again on PostgreSQL when TEST_DATABASE_URL names a server (.ci/run starts one and
// sets REQUIRE_POSTGRES=1, so a missing server fails the gate instead of skipping it).
const postgresUrl = process.env.TEST_DATABASE_URL ?? '';
if (postgresUrl) {
  gate('PostgreSQL test template', npx, ['tsx', 'scripts/pg-test-template.ts']);
  const pgReport = join(results, 'vitest-postgres.json');
  counted('API tests on PostgreSQL', npx, ['vitest', 'run', 'tests/api', '--reporter=default', '--reporter=json', `--outputFile.json=${pgReport}`], pgReport, { TEST_DATABASE_URL: postgresUrl }, vitestCounts);
} else if (process.env.REQUIRE_POSTGRES === '1') {
  failed += 1;
  failures.push('API tests on PostgreSQL (TEST_DATABASE_URL is not set)');
} else {
  console.log('\n▶ API tests on PostgreSQL: skipped (set TEST_DATABASE_URL=postgres://… to run them)');
}

gate('UI build', npx, ['vite', 'build', '--logLevel', 'warn']);
gate('storefront widget build', npx, ['vite', 'build', '-c', 'vite.widget.config.ts', '--logLevel', 'warn']);

const e2eReport = join(results, 'playwright.json');
counted('browser tests', npx, ['playwright', 'test', '--reporter=list,json'], e2eReport, { PLAYWRIGHT_JSON_OUTPUT_NAME: e2eReport }, (r) => {
  const stats = (r as { stats: { expected: number; unexpected: number; flaky: number } }).stats;
  return { passed: stats.expected + stats.flaky, failed: stats.unexpected };
});

console.log('\nsteps (wall-clock seconds):');
for (const { name, seconds } of timings) console.log(`  ${seconds.toFixed(0).padStart(5)}  ${name}`);
console.log(`  ${((performance.now() - startedAt) / 1000).toFixed(0).padStart(5)}  all`);
if (failures.length > 0) console.log(`\nfailed: ${failures.join(', ')}`);
const summary = `tests: ${passed} passed, ${failed} failed`;
writeFileSync(join(results, 'summary.txt'), `${summary}\n`);
console.log(summary);
process.exit(failed === 0 ? 0 : 1);
