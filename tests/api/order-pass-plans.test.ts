/**
 * The lookups that follow every order read in index order (migration 0036_order_pass_sorted_indexes):
 * a temporary b-tree for their ORDER BY cost 40–130 µs a query inside the processing thread's group
 * transaction, against 10–15 µs read from the index (issue 14 "Speed"). And the group-commit
 * connection keeps its savepoints' statement journals in memory.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { CompiledQuery, sql } from 'kysely';
import { afterAll, describe, expect, it } from 'vitest';
import { openDatabase, type Db } from '../../server/db/database';
import { PENDING_STEPS } from '../../server/services/milestone-rewards';
import { PARKED } from '../../server/services/refunds';

const dir = mkdtempSync(join(tmpdir(), 'order-pass-plans-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

async function plan(db: Db, query: { sql: string; parameters: readonly unknown[] }): Promise<string[]> {
  const rows = await db.executeQuery<{ detail: string }>(CompiledQuery.raw(`explain query plan ${query.sql}`, [...query.parameters]));
  return rows.rows.map((r) => r.detail);
}

describe('the per-order lookups on SQLite', () => {
  it("read a customer's pending milestone rewards and an order's parked reversals in index order", async () => {
    const db = await openDatabase(join(dir, 'plans.sqlite'), { checkpointer: false });
    try {
      const steps = await plan(db, PENDING_STEPS.compile(db, 'customer', { shop: 's', customer: 'c', limit: 100 }));
      expect(steps.join('\n')).toContain('USING INDEX milestone_steps_by_outcome');
      expect(steps.join('\n')).not.toContain('TEMP B-TREE');
      const parked = await plan(db, PARKED.compile(db, 'one', { shop: 's', order: 'o' }));
      expect(parked.join('\n')).toContain('USING INDEX webhook_receipts_parked');
      expect(parked.join('\n')).not.toContain('TEMP B-TREE');
    } finally {
      await db.destroy();
    }
  });

  it('keep statement journals in memory on the group-commit connection only', async () => {
    const group = await openDatabase(join(dir, 'group.sqlite'), { checkpointer: false, spinOnBusy: true, groupCommit: true });
    const serving = await openDatabase(join(dir, 'serving.sqlite'), { checkpointer: false });
    try {
      const store = async (db: Db) => Number((await sql<{ temp_store: number }>`pragma temp_store`.execute(db)).rows[0]!.temp_store);
      // 2 = MEMORY; 0 = SQLite's default (a file)
      expect(await store(group)).toBe(2);
      expect(await store(serving)).toBe(0);
    } finally {
      await group.destroy();
      await serving.destroy();
    }
  });
});
