/**
 * Shared pieces of the fixture checks: the fixture types, the format error, and the helpers every
 * check uses to build documents and compare answers. Imported by engine/fixtures.ts and by each
 * check module (no cycle).
 */
import type { JsonObject, StoredDocument, FieldIssue } from '../types';

/** A program as a fixture writes it: its kind and data; ids and versions are filled in. */
export interface FixtureProgram {
  kind: string;
  id?: string;
  data: JsonObject;
}

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
  detail: unknown;
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

/**
 * Turns a fixture program's data into stored data (the CLI and tests pass the registry's
 * validate-and-apply-defaults). Throws FixtureFormatError when the data breaks its schema.
 */
export type ProgramPreparer = (kind: string, data: JsonObject, path: string) => JsonObject;

/** Validates a document of a kind: schema issues, then cross-field issues (for `check: "validate"`). */
export type DocumentValidator = (kind: string, data: unknown) => FieldIssue[];

/** Hooks a check may need from outside the pure engine. */
export interface RunOptions {
  prepare?: ProgramPreparer;
  validate?: DocumentValidator;
}

/** What a check module implements. `run` compares the engine's answer with `fixture.expect`. */
export interface FixtureCheck {
  run(fixture: { facts: Record<string, unknown>; expect: Record<string, unknown> }, options: RunOptions): Promise<FixtureResult>;
}

const BASE_TIME = Date.UTC(2026, 0, 1);

/** Stored documents for fixture programs: ids `program-1`… unless given, created a second apart. */
export function toDocs(programs: readonly FixtureProgram[], options: RunOptions, path: string): StoredDocument[] {
  if (!Array.isArray(programs)) throw new FixtureFormatError(path, 'must be a list of { kind, data }');
  return programs.map((p, i) => ({
    id: p.id ?? `program-${i + 1}`,
    kind: p.kind,
    schemaVersion: 1,
    version: 1,
    data: options.prepare ? options.prepare(p.kind, p.data, `${path}/${i}/data`) : p.data,
    createdAt: new Date(BASE_TIME + i * 1000).toISOString(),
    updatedAt: new Date(BASE_TIME + i * 1000).toISOString(),
  }));
}

/** Compares by JSON value (key order matters only for objects the fixture spells out). */
export function compare(what: string, expected: unknown, actual: unknown): Comparison {
  return { what, expected, actual, pass: JSON.stringify(expected) === JSON.stringify(actual) };
}

/** A result from comparisons. */
export function resultOf(comparisons: Comparison[], detail: unknown): FixtureResult {
  return { pass: comparisons.length > 0 && comparisons.every((c) => c.pass), comparisons, detail };
}


/** What a fixture expects of one program's decision; only the keys it names are compared. */
export interface ExpectedDecision {
  program: string;
  outcome: string;
  points?: number;
  status?: string | null;
  reason?: string | null;
}

/** The decision fields every check can compare. */
interface DecisionLike {
  programId: string;
  programTitle: string;
  outcome: string;
  points: number;
  reason: string | null;
  status?: string | null;
}

/** Compares expected decisions (found by program title or id) with the engine's. */
export function compareDecisions(expected: readonly ExpectedDecision[], decisions: readonly DecisionLike[]): Comparison[] {
  const out: Comparison[] = [];
  for (const [i, e] of expected.entries()) {
    const actual = decisions.find((d) => d.programTitle === e.program || d.programId === e.program);
    if (!actual) {
      out.push({ what: `decisions/${i} (${e.program})`, expected: e.outcome, actual: 'no such program', pass: false });
      continue;
    }
    out.push(compare(`${e.program}: outcome`, e.outcome, actual.outcome));
    for (const key of ['points', 'status', 'reason'] as const) {
      if (e[key] !== undefined) out.push(compare(`${e.program}: ${key}`, e[key], actual[key] ?? null));
    }
  }
  return out;
}
