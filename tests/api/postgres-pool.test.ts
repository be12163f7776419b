/**
 * PostgreSQL only: a pooled connection the server ends while it is idle (a restart, an
 * administrator, a network drop) is reported and replaced; it must not end the process.
 * node-postgres emits such a failure as the pool's `error` event, which, without a listener, is
 * thrown out of the event loop (server/db/database.ts `onIdleConnectionError`).
 */
import { sql } from 'kysely';
import pg from 'pg';
import { describe, expect, it } from 'vitest';
import { openDatabase } from '../../server/db/database';
import { freshDatabaseLocation } from '../support/app';

describe.runIf(Boolean(process.env.TEST_DATABASE_URL))('PostgreSQL pool', () => {
  it('reports an idle connection the server ended, and the next query gets a new one', async () => {
    const location = await freshDatabaseLocation();
    const reported: string[] = [];
    const db = await openDatabase(location, { max: 2, onIdleConnectionError: (message) => reported.push(message) });
    try {
      const pid = (await sql<{ pid: number }>`select pg_backend_pid() as pid`.execute(db)).rows[0]!.pid;
      const admin = new pg.Client({ connectionString: process.env.TEST_DATABASE_URL });
      await admin.connect();
      try {
        expect((await admin.query('select pg_terminate_backend($1) as ended', [pid])).rows[0]).toEqual({ ended: true });
      } finally {
        await admin.end();
      }
      await expect.poll(() => reported.length, { timeout: 5000 }).toBe(1);
      expect(reported[0]).toMatch(/terminat/i);
      const after = (await sql<{ pid: number }>`select pg_backend_pid() as pid`.execute(db)).rows[0]!.pid;
      expect(after).not.toBe(pid);
    } finally {
      await db.destroy();
    }
  });
});
