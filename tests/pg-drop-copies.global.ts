/**
 * vitest global setup, PostgreSQL runs only (TEST_DATABASE_URL set): drops the template copies
 * test files are done with (tests/support/pg-copies.ts), in the background while the suite runs,
 * from this (the main) process. A test file's worker ends with its file, and a drop waits on the
 * server for about 130–580 ms (measured with and without three others beside it), so the file
 * only names its copies — one line each in the file provided as `pgDropList` — and this process
 * drops them four at a time. The teardown waits until every named copy is gone.
 */
import { appendFileSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Client } from 'pg';
import type { TestProject } from 'vitest/node';

declare module 'vitest' {
  export interface ProvidedContext {
    /** Where test files list the PostgreSQL copies they are done with ('' without PostgreSQL). */
    pgDropList: string;
  }
}

/** Connections dropping at once. */
const DROPPERS = 4;
/** How often the list is read for new names (ms). */
const POLL_MS = 1000;

export default async function setup(project: TestProject): Promise<(() => Promise<void>) | void> {
  const url = process.env.TEST_DATABASE_URL;
  if (!url) {
    project.provide('pgDropList', '');
    return;
  }
  const dir = mkdtempSync(join(tmpdir(), 'pg-drop-'));
  const list = join(dir, 'copies.txt');
  appendFileSync(list, '');
  project.provide('pgDropList', list);

  const { default: pg } = await import('pg');
  const clients: Client[] = [];
  for (let i = 0; i < DROPPERS; i++) {
    const client = new pg.Client({ connectionString: url });
    await client.connect();
    clients.push(client);
  }
  let seen = 0;
  /** Copies a drop failed for, with the reason: tried again on the next pass. */
  let failed = new Map<string, string>();
  /** Drops the names added to the list since the last pass, and those that failed on it. */
  const pass = async (): Promise<void> => {
    const names = readFileSync(list, 'utf8').split('\n').filter((n) => /^t_[0-9a-f]{32}$/.test(n));
    const todo = [...failed.keys(), ...names.slice(seen)];
    seen = names.length;
    failed = new Map();
    let next = 0;
    await Promise.all(
      clients.map(async (client) => {
        while (next < todo.length) {
          const name = todo[next++]!;
          // Fails now and then while autovacuum works in the copy: its worker is the superuser's,
          // which `force` may not end for us.
          await client.query(`drop database if exists ${name} with (force)`).catch((e: unknown) => failed.set(name, (e as Error).message));
        }
      }),
    );
  };
  let running = Promise.resolve();
  let stopped = false;
  const tick = (): void => {
    running = pass().finally(() => {
      if (!stopped) timer = setTimeout(tick, POLL_MS);
    });
  };
  let timer = setTimeout(tick, POLL_MS);

  return async () => {
    stopped = true;
    clearTimeout(timer);
    await running;
    await pass();
    for (let attempt = 0; attempt < 3 && failed.size > 0; attempt++) {
      await new Promise((resolve) => setTimeout(resolve, POLL_MS));
      await pass();
    }
    await Promise.all(clients.map((c) => c.end()));
    rmSync(dir, { recursive: true, force: true });
    // Left for scripts/pg-test-template.ts to drop at the next run; not a test failure.
    const [first] = failed;
    if (first) console.warn(`${failed.size} PostgreSQL test copies were not dropped, e.g. ${first[0]}: ${first[1]}`);
  };
}
