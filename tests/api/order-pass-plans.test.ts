/**
 * The lookups that follow every order read in index order (migration 0036_order_pass_sorted_indexes):
 * a temporary b-tree for their ORDER BY cost 40–130 µs a query inside the processing thread's group
 * transaction, against 10–15 µs read from the index (issue 14 "Speed"). The group-commit
 * connection keeps its savepoints' statement journals in memory. Every processed order writes each
 * index of its receipt, so the receipts carry only indexes a lookup reads (0037), and the serving
 * thread's duplicate check before journaling a webhook is one read of the unique index.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { CompiledQuery, sql } from 'kysely';
import { afterAll, describe, expect, it } from 'vitest';
import { openDatabase, type Db } from '../../server/db/database';
import { PENDING_STEPS } from '../../server/services/milestone-rewards';
import { PARKED } from '../../server/services/refunds';
import { storedDeliveryId } from '../../server/webhooks/queue';

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

  it('index the receipts only for the lookups that read them (no counted_month index since 0037)', async () => {
    const db = await openDatabase(join(dir, 'receipts.sqlite'), { checkpointer: false });
    try {
      const { rows } = await sql<{ name: string }>`select name from sqlite_master where type = 'index' and tbl_name = 'webhook_receipts' order by name`.execute(db);
      expect(rows.map((r) => r.name)).toEqual(['sqlite_autoindex_webhook_receipts_1', 'webhook_receipts_parked']);
    } finally {
      await db.destroy();
    }
  });

  it("find a shop's stored webhook id through the unique index", async () => {
    const db = await openDatabase(join(dir, 'deliveries.sqlite'), { checkpointer: false });
    try {
      const at = new Date().toISOString();
      await db
        .insertInto('webhook_deliveries')
        .values({ id: 'd1', shop_id: 's.myshopify.com', topic: 'orders/create', webhook_id: 'w1', order_key: 'o1', seq: '1', received_at: at, status: 'queued', attempts: 0, available_at: at, locked_until: null, last_error: null, result: null, finished_at: null })
        .execute();
      expect(await storedDeliveryId(db, 's.myshopify.com', 'w1')).toBe('d1');
      expect(await storedDeliveryId(db, 's.myshopify.com', 'w2')).toBeNull();
      expect(await storedDeliveryId(db, 'other.myshopify.com', 'w1')).toBeNull();
      const lookup = await plan(db, CompiledQuery.raw(`select "id" from "webhook_deliveries" where "shop_id" = ? and "webhook_id" = ?`, ['s', 'w']));
      expect(lookup.join('\n')).toContain('USING INDEX sqlite_autoindex_webhook_deliveries_2');
    } finally {
      await db.destroy();
    }
  });
});
