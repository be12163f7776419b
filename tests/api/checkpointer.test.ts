/**
 * The write-ahead log stays short under sustained writes (issue 11's redeem p99; server/db/checkpointer.ts):
 * the serving connection checkpoints at SERVING_CHECKPOINT_PAGES and the log starts over, instead of
 * growing to the 80 MB safety net and copying it inside one request's commit.
 */
import { mkdtempSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { sql } from 'kysely';
import { describe, expect, it } from 'vitest';
import { SAFETY_NET_PAGES, SERVING_CHECKPOINT_PAGES } from '../../server/db/checkpointer';
import { openDatabase } from '../../server/db/database';

const PAGE = 4096;

describe.skipIf(Boolean(process.env.TEST_DATABASE_URL))('SQLite checkpoints', () => {
  it('keeps the log near SERVING_CHECKPOINT_PAGES while 2.5 times that is written', async () => {
    const path = join(mkdtempSync(join(tmpdir(), 'checkpoint-')), 'db.sqlite');
    const db = await openDatabase(path);
    try {
      await sql`create table filler (id integer primary key, v text not null)`.execute(db);
      const row = 'x'.repeat(PAGE - 100); // about one page a row
      const rows = Math.ceil(SERVING_CHECKPOINT_PAGES * 2.5);
      for (let i = 0; i < rows; i += 20) {
        await db.transaction().execute(async (tx) => {
          for (let k = 0; k < 20; k++) await sql`insert into filler (v) values (${row})`.execute(tx);
        });
      }
      // The log file keeps the largest size it reached: had the log not started over, that would be
      // the whole 2.5 × SERVING_CHECKPOINT_PAGES (the safety net, SAFETY_NET_PAGES, is further still).
      expect(SAFETY_NET_PAGES).toBeGreaterThan(rows);
      const logPages = statSync(`${path}-wal`).size / PAGE;
      expect(logPages).toBeLessThan(SERVING_CHECKPOINT_PAGES * 1.5);
      expect(Number((await sql<{ n: number }>`select count(*) as n from filler`.execute(db)).rows[0]!.n)).toBe(Math.ceil(rows / 20) * 20);
    } finally {
      await db.destroy();
    }
  });
});
