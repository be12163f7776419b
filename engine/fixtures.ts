/**
 * QA rule fixtures: facts in, expected decisions out (DESIGN.md "QA"). A fixture is one JSON file
 * under fixtures/rules/<area>/<name>.json with `check`, `spec`, `description`, `facts` and
 * `expect`; fixtures/README.md teaches the format. This hub checks the envelope and dispatches to
 * one module per check under fixture-checks/. Pure: no files, no database.
 */
import { Ajv, type ErrorObject } from 'ajv';
import fixtureFormat from '../fixtures/fixture-format.schema.json';
import { CHECKS } from './fixture-checks/index';
import { FixtureFormatError, type FixtureResult, type RunOptions } from './fixture-checks/support';

export * from './fixture-checks/support';

/** The check names fixtures may use. */
export const CHECK_NAMES: readonly string[] = Object.keys(CHECKS);

const validateFormat = new Ajv({ strict: true, allowUnionTypes: true, allErrors: false }).compile(fixtureFormat);

/** The error ajv reports most precisely: a key inside facts or expect before the if/then wrapper. */
function formatError(errors: readonly ErrorObject[]): FixtureFormatError {
  const error = errors.find((e) => e.keyword !== 'if') ?? errors[0];
  if (!error) return new FixtureFormatError('', 'does not follow the fixture format');
  const params = error.params as { additionalProperty?: string; missingProperty?: string };
  if (error.keyword === 'additionalProperties' && params.additionalProperty !== undefined) {
    return new FixtureFormatError(`${error.instancePath}/${params.additionalProperty}`, `unknown key "${params.additionalProperty}" (misspelt? fixtures/fixture-format.schema.json lists the keys)`);
  }
  if (error.keyword === 'required' && params.missingProperty !== undefined) {
    return new FixtureFormatError(`${error.instancePath}/${params.missingProperty}`, 'is required');
  }
  return new FixtureFormatError(error.instancePath, error.message ?? 'is not valid');
}

/**
 * Checks a fixture against fixtures/fixture-format.schema.json: the envelope, then every key of
 * `facts` and `expect` for its check, so a misspelt key (`orderSkiped`, `timezon`) or a missing
 * expectation fails instead of passing unchecked. Throws FixtureFormatError with a JSON Pointer.
 */
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
  if (!validateFormat(value)) throw formatError(validateFormat.errors ?? []);
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
