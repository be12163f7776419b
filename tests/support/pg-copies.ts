/**
 * PostgreSQL test databases (the API suite's second run, TEST_DATABASE_URL set): each test gets a
 * copy of the migrated template TEST_DATABASE_TEMPLATE (loyalty_template, made by
 * scripts/pg-test-template.ts), and every copy a test file made is dropped once the file ends
 * (tests/setup.ts hands them to tests/pg-drop-copies.global.ts). Kept apart from
 * tests/support/app.ts so that the setup file can hand them over without loading the server.
 *
 * Why dropped during the run: a copy is about 9 MB, a run makes about 1,300, and PostgreSQL's
 * autovacuum launcher visits every database once a minute; with 830 left behind it kept half a
 * core busy (the postmaster and its workers: 15.4 s of CPU in 30 s on the 2-core machine, 0.2 s
 * once they were dropped), through the rest of the suite and the browser tests after it.
 */
import { appendFileSync } from 'node:fs';
import type { Client } from 'pg';

/** The template copy made ahead for this worker's next test (a database name). */
let nextCopy: Promise<string> | undefined;
/** This worker's connection for `create database` (one, kept: a connection costs as much as a copy). */
let adminClient: Promise<Client> | undefined;
/** Every copy this test file made, handed out or not. */
const made: string[] = [];

/**
 * The name of a new copy of the template on the server `url` names. One copy is made ahead, so
 * the next test's database is written while this test runs.
 */
export async function takeTemplateCopy(url: string): Promise<string> {
  const next = nextCopy ?? copyTemplate(url);
  nextCopy = copyTemplate(url);
  // A copy that failed is reported by the test that takes it, not as an unhandled rejection.
  nextCopy.catch(() => undefined);
  return next;
}

/**
 * Hands every copy this test file made to the global setup (tests/pg-drop-copies.global.ts),
 * which drops them in the background, `with (force)`: connections the file's apps left open are
 * ended (their pools discard them: server/db/database.ts `onIdleConnectionError`). Waits for a
 * copy still being made. A no-op when the file made none.
 */
export async function releaseTemplateCopies(dropList: string): Promise<void> {
  if (!adminClient) return;
  await nextCopy?.catch(() => undefined);
  nextCopy = undefined;
  await (await adminClient).end();
  adminClient = undefined;
  const names = made.splice(0);
  if (dropList && names.length > 0) appendFileSync(dropList, names.map((n) => `${n}\n`).join(''));
}

async function copyTemplate(url: string): Promise<string> {
  adminClient ??= (async () => {
    const { default: pg } = await import('pg');
    const client = new pg.Client({ connectionString: url });
    await client.connect();
    // It must not keep the worker alive after its tests.
    (client as unknown as { connection: { stream: { unref(): void } } }).connection.stream.unref();
    return client;
  })();
  const admin = await adminClient;
  const template = process.env.TEST_DATABASE_TEMPLATE ?? 'loyalty_template';
  const name = `t_${crypto.randomUUID().replace(/-/g, '')}`;
  await admin.query(`create database ${name} template ${template}`);
  made.push(name);
  return name;
}
