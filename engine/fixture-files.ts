/**
 * Finding and preparing QA fixture files on disk (the part of the fixture runner that reads
 * files): lists fixtures/rules/**.json, and prepares program data with the kind registry so a
 * fixture may omit fields that have defaults.
 */
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import { crossFieldIssues } from './cross-field';
import { FixtureFormatError, type DocumentValidator, type ProgramPreparer } from './fixtures';
import type { Registry } from './registry';

/** Every `.json` fixture under `target` (a folder or one file), sorted, as paths relative to `root`. */
export function listFixtureFiles(target: string, root: string): string[] {
  const out: string[] = [];
  const walk = (path: string): void => {
    if (statSync(path).isDirectory()) {
      for (const entry of readdirSync(path).sort()) walk(join(path, entry));
    } else if (path.endsWith('.json')) out.push(relative(root, path));
  };
  walk(target);
  return out;
}

/** Reads a fixture file; throws FixtureFormatError for invalid JSON. */
export function readFixture(path: string): unknown {
  try {
    return JSON.parse(readFileSync(path, 'utf8')) as unknown;
  } catch (e) {
    throw new FixtureFormatError('', `not valid JSON: ${(e as Error).message}`);
  }
}

/** Validates fixture program data against its kind and applies the schema's defaults. */
export function registryPreparer(registry: Registry): ProgramPreparer {
  return (kindId, data, path) => {
    const kind = registry.get(kindId);
    if (!kind) throw new FixtureFormatError(path, `unknown kind "${kindId}"`);
    const outcome = kind.validate(data);
    if (!outcome.ok) {
      const first = outcome.issues[0];
      throw new FixtureFormatError(`${path}${first?.path ?? ''}`, `the program breaks its schema: ${first?.message ?? 'invalid'}`);
    }
    return outcome.data;
  };
}

/** Validates a document against its kind: schema issues first, then cross-field issues. */
export function registryValidator(registry: Registry): DocumentValidator {
  return (kindId, data) => {
    const kind = registry.get(kindId);
    if (!kind) throw new FixtureFormatError('/facts/kind', `unknown kind "${kindId}"`);
    const outcome = kind.validate(data);
    return outcome.ok ? crossFieldIssues(kindId, outcome.data) : outcome.issues;
  };
}
