/**
 * QA rule fixtures: facts in, expected decisions out (DESIGN.md "QA"). A fixture is one JSON file
 * under fixtures/rules/<area>/<name>.json; fixtures/README.md teaches the format. This module runs
 * one fixture through the same engine the server uses and compares what it decided with what the
 * fixture expects. Pure: no files, no database.
 */
import { evaluateOrder, type OrderEvaluation } from './earning';
import { checkLimits, type LimitViolation } from './limits';
import { normalizeOrder } from './order';
import type { JsonObject, StoredDocument } from './types';

/** A program as a fixture writes it: its kind and data; ids and versions are filled in. */
export interface FixtureProgram {
  kind: string;
  id?: string;
  data: JsonObject;
}

/** The shop a fixture runs in. */
export interface FixtureShop {
  /** IANA timezone, default UTC. */
  timezone?: string;
  /** ISO 4217, default USD. */
  currency?: string;
}

/** What an order fixture expects of one program (matched by `program` = the program's title or id). */
export interface ExpectedDecision {
  program: string;
  outcome: 'award' | 'deny';
  points?: number;
  reason?: string | null;
}

/** `check: "order"`: an order against the shop's programs. */
export interface OrderFixture {
  check: 'order';
  spec: string;
  description: string;
  facts: { shop?: FixtureShop; programs: FixtureProgram[]; order: JsonObject; now?: string };
  expect: { totalPoints: number; orderSkipped?: string | null; decisions?: ExpectedDecision[] };
}

/** `check: "limit"`: a change (create or update) against the shop's existing programs. */
export interface LimitFixture {
  check: 'limit';
  spec: string;
  description: string;
  facts: { shop?: FixtureShop; programs: FixtureProgram[]; change: FixtureProgram & { id?: string }; now: string };
  expect: { violations: { code: string; message?: string }[] };
}

export type Fixture = OrderFixture | LimitFixture;

/** One compared value: what the fixture expects and what the engine decided. */
export interface Comparison {
  what: string;
  expected: unknown;
  actual: unknown;
  pass: boolean;
}

/** The result of running one fixture. `detail` is the engine's full answer, for `--explain`. */
export interface FixtureResult {
  pass: boolean;
  comparisons: Comparison[];
  detail: OrderEvaluation | LimitViolation[];
}

/** A fixture file that does not follow the format; `path` is a JSON Pointer into the file. */
export class FixtureFormatError extends Error {
  constructor(
    readonly path: string,
    message: string,
  ) {
    super(`${path || '/'}: ${message}`);
    this.name = 'FixtureFormatError';
  }
}

const BASE_TIME = Date.UTC(2026, 0, 1);

/**
 * Turns a fixture program's data into stored data (the CLI and tests pass the registry's
 * validate-and-apply-defaults). Throws FixtureFormatError when the data breaks its schema.
 */
export type ProgramPreparer = (kind: string, data: JsonObject, path: string) => JsonObject;

/** Options of runFixture. */
export interface RunOptions {
  prepare?: ProgramPreparer;
}

function toDocs(programs: readonly FixtureProgram[], prepare: ProgramPreparer | undefined, path: string): StoredDocument[] {
  return programs.map((p, i) => ({
    id: p.id ?? `program-${i + 1}`,
    kind: p.kind,
    schemaVersion: 1,
    version: 1,
    data: prepare ? prepare(p.kind, p.data, `${path}/${i}/data`) : p.data,
    createdAt: new Date(BASE_TIME + i * 1000).toISOString(),
    updatedAt: new Date(BASE_TIME + i * 1000).toISOString(),
  }));
}

function compare(what: string, expected: unknown, actual: unknown): Comparison {
  return { what, expected, actual, pass: JSON.stringify(expected) === JSON.stringify(actual) };
}

/** Checks the envelope every fixture needs; throws FixtureFormatError naming the missing part. */
export function assertFixtureShape(value: unknown): asserts value is Fixture {
  if (value === null || typeof value !== 'object' || Array.isArray(value)) throw new FixtureFormatError('', 'a fixture is a JSON object');
  const f = value as Record<string, unknown>;
  if (f.check !== 'order' && f.check !== 'limit') throw new FixtureFormatError('/check', 'must be "order" or "limit"');
  for (const key of ['spec', 'description'] as const) {
    if (typeof f[key] !== 'string' || f[key] === '') throw new FixtureFormatError(`/${key}`, 'is required: say which line of the spec this checks');
  }
  if (f.facts === null || typeof f.facts !== 'object') throw new FixtureFormatError('/facts', 'is required');
  if (f.expect === null || typeof f.expect !== 'object') throw new FixtureFormatError('/expect', 'is required');
  if (!Array.isArray((f.facts as Record<string, unknown>).programs)) throw new FixtureFormatError('/facts/programs', 'must be a list (it may be empty)');
}

/**
 * Runs one fixture. Throws FixtureFormatError for a malformed fixture; engine errors (an unknown
 * condition field, a bad order) propagate with their own message.
 */
export async function runFixture(fixture: unknown, options: RunOptions = {}): Promise<FixtureResult> {
  assertFixtureShape(fixture);
  return fixture.check === 'order' ? runOrder(fixture, options) : runLimit(fixture, options);
}

async function runOrder(f: OrderFixture, options: RunOptions): Promise<FixtureResult> {
  const docs = toDocs(f.facts.programs, options.prepare, '/facts/programs');
  const order = normalizeOrder(f.facts.order, f.facts.shop?.currency ?? 'USD');
  const evaluation = await evaluateOrder(docs, order, {
    timeZone: f.facts.shop?.timezone ?? 'UTC',
    ...(f.facts.now ? { at: new Date(f.facts.now) } : {}),
  });
  const comparisons: Comparison[] = [compare('totalPoints', f.expect.totalPoints, evaluation.totalPoints)];
  if (f.expect.orderSkipped !== undefined) comparisons.push(compare('orderSkipped', f.expect.orderSkipped, evaluation.orderSkipped));
  for (const [i, expected] of (f.expect.decisions ?? []).entries()) {
    const actual = evaluation.decisions.find((d) => d.programTitle === expected.program || d.programId === expected.program);
    if (!actual) {
      comparisons.push({ what: `decisions/${i} (${expected.program})`, expected: expected.outcome, actual: 'no such program', pass: false });
      continue;
    }
    comparisons.push(compare(`${expected.program}: outcome`, expected.outcome, actual.outcome));
    if (expected.points !== undefined) comparisons.push(compare(`${expected.program}: points`, expected.points, actual.points));
    if (expected.reason !== undefined) comparisons.push(compare(`${expected.program}: reason`, expected.reason, actual.reason));
  }
  return { pass: comparisons.every((c) => c.pass), comparisons, detail: evaluation };
}

async function runLimit(f: LimitFixture, options: RunOptions): Promise<FixtureResult> {
  const docs = toDocs(f.facts.programs, options.prepare, '/facts/programs');
  const change = options.prepare ? options.prepare(f.facts.change.kind, f.facts.change.data, '/facts/change/data') : f.facts.change.data;
  const violations = await checkLimits(
    { kind: f.facts.change.kind, id: f.facts.change.id ?? null, data: change },
    docs,
    new Date(f.facts.now),
    f.facts.shop?.timezone ?? 'UTC',
  );
  const comparisons = [compare('violations', f.expect.violations.map((v) => v.code), violations.map((v) => v.code))];
  for (const v of f.expect.violations) {
    if (v.message === undefined) continue;
    const actual = violations.find((a) => a.code === v.code);
    comparisons.push(compare(`${v.code}: message`, v.message, actual?.message ?? null));
  }
  return { pass: comparisons.every((c) => c.pass), comparisons, detail: violations };
}
