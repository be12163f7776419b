/**
 * QA rule fixtures: facts in, expected decisions out (DESIGN.md "QA"). A fixture is one JSON file
 * under fixtures/rules/<area>/<name>.json with `check`, `spec`, `description`, `facts` and
 * `expect`; fixtures/README.md teaches the format. This hub checks the envelope and dispatches to
 * one module per check under fixture-checks/. Pure: no files, no database.
 */
import { CHECKS } from './fixture-checks/index';
import { FixtureFormatError, type FixtureResult, type RunOptions } from './fixture-checks/support';

export * from './fixture-checks/support';

/** The check names fixtures may use. */
export const CHECK_NAMES: readonly string[] = Object.keys(CHECKS);

/** Checks the envelope every fixture needs; throws FixtureFormatError naming the missing part. */
export function assertFixtureShape(value: unknown): asserts value is { check: string; spec: string; description: string; facts: Record<string, unknown>; expect: Record<string, unknown> } {
  if (value === null || typeof value !== 'object' || Array.isArray(value)) throw new FixtureFormatError('', 'a fixture is a JSON object');
  const f = value as Record<string, unknown>;
  if (typeof f.check !== 'string' || !(f.check in CHECKS)) throw new FixtureFormatError('/check', `must be one of ${CHECK_NAMES.join(', ')}`);
  for (const key of ['spec', 'description'] as const) {
    if (typeof f[key] !== 'string' || f[key] === '') throw new FixtureFormatError(`/${key}`, 'is required: say which line of the spec this checks');
  }
  for (const key of ['facts', 'expect'] as const) {
    if (f[key] === null || typeof f[key] !== 'object' || Array.isArray(f[key])) throw new FixtureFormatError(`/${key}`, 'is required (an object)');
  }
}

/**
 * Runs one fixture. Throws FixtureFormatError for a malformed fixture; engine errors (an unknown
 * condition field, a bad order) propagate with their own message.
 */
export async function runFixture(fixture: unknown, options: RunOptions = {}): Promise<FixtureResult> {
  assertFixtureShape(fixture);
  const check = CHECKS[fixture.check];
  if (!check) throw new FixtureFormatError('/check', `unknown check "${fixture.check}"`);
  return check.run(fixture, options);
}
