/**
 * Retention of processed webhook bodies (server/webhooks/retention.ts): a `done` delivery's body is
 * deleted once it finished more than the retention period ago; queued and dead deliveries keep
 * theirs (a dead one may be retried), and every delivery row stays. On SQLite and PostgreSQL.
 */
import { describe, expect, it } from 'vitest';
import type { Db } from '../../server/db/database';
import { bodyRetentionDays, pruneDeliveryBodies } from '../../server/webhooks/retention';
import { openTestDatabase, SHOP } from '../support/app';

const DAY = 86_400_000;
const NOW = Date.parse('2026-11-28T12:00:00.000Z');
const iso = (ms: number) => new Date(ms).toISOString();

async function delivery(db: Db, id: string, status: 'queued' | 'done' | 'dead', finishedDaysAgo: number | null): Promise<void> {
  const received = iso(NOW - (finishedDaysAgo ?? 0) * DAY - 1000);
  await db
    .insertInto('webhook_deliveries')
    .values({ id, shop_id: SHOP, topic: 'orders/create', webhook_id: `w-${id}`, order_key: id, seq: `${received}-${id}`, received_at: received, status, attempts: 1, available_at: received, locked_until: null, last_error: null, result: null, finished_at: finishedDaysAgo === null ? null : iso(NOW - finishedDaysAgo * DAY) })
    .execute();
  await db.insertInto('webhook_delivery_bodies').values({ delivery_id: id, body: JSON.stringify({ id, email: `${id}@example.com` }) }).execute();
}

const bodies = async (db: Db) => (await db.selectFrom('webhook_delivery_bodies').select('delivery_id').orderBy('delivery_id').execute()).map((r) => r.delivery_id);

describe('processed webhook bodies past their retention', () => {
  it('are deleted, in batches, and only those of done deliveries that finished before the cutoff', async () => {
    const db = await openTestDatabase();
    try {
      for (let i = 0; i < 7; i++) await delivery(db, `old-done-${i}`, 'done', 40 + i);
      await delivery(db, 'recent-done', 'done', 10);
      await delivery(db, 'old-dead', 'dead', 40);
      await delivery(db, 'queued', 'queued', null);

      const deleted = await pruneDeliveryBodies(db, iso(NOW - 30 * DAY), { batch: 3 });
      expect(deleted).toBe(7);
      expect(await bodies(db)).toEqual(['old-dead', 'queued', 'recent-done']);
      // The delivery rows stay for the deliveries view.
      const rows = await db.selectFrom('webhook_deliveries').select(({ fn }) => fn.countAll<number>().as('n')).executeTakeFirstOrThrow();
      expect(Number(rows.n)).toBe(10);
      // A second pass finds nothing more.
      expect(await pruneDeliveryBodies(db, iso(NOW - 30 * DAY))).toBe(0);
    } finally {
      await db.destroy();
    }
  });

  it('stop after maxBatches batches and take the rest on the next pass', async () => {
    const db = await openTestDatabase();
    try {
      for (let i = 0; i < 5; i++) await delivery(db, `d-${i}`, 'done', 60);
      expect(await pruneDeliveryBodies(db, iso(NOW - 30 * DAY), { batch: 2, maxBatches: 1 })).toBe(2);
      expect((await bodies(db)).length).toBe(3);
      expect(await pruneDeliveryBodies(db, iso(NOW - 30 * DAY), { batch: 2 })).toBe(3);
      expect(await bodies(db)).toEqual([]);
    } finally {
      await db.destroy();
    }
  });

  it('last WEBHOOK_BODY_RETENTION_DAYS days, 30 when unset or not a number, 0 = forever', () => {
    expect(bodyRetentionDays({})).toBe(30);
    expect(bodyRetentionDays({ WEBHOOK_BODY_RETENTION_DAYS: '7' })).toBe(7);
    expect(bodyRetentionDays({ WEBHOOK_BODY_RETENTION_DAYS: '0' })).toBe(0);
    expect(bodyRetentionDays({ WEBHOOK_BODY_RETENTION_DAYS: 'soon' })).toBe(30);
    expect(bodyRetentionDays({ WEBHOOK_BODY_RETENTION_DAYS: '-3' })).toBe(30);
  });
});
