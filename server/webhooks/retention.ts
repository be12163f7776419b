/**
 * Retention of webhook bodies (issue 14 "Operations"; the spec is silent on how long they are kept).
 * A delivery's body is the platform's whole payload — for an order, the shopper's name, e-mail,
 * phones and addresses — and about 17 KB an order. Once a delivery is processed (`done`) nothing
 * reads its body again: the ledger, the receipt's evaluation and the order's replay facts keep
 * what the app needs. Bodies of `done` deliveries are therefore deleted a retention period after
 * they finished (WEBHOOK_BODY_RETENTION_DAYS, 30 by default; 0 keeps them). Queued and dead
 * deliveries keep theirs (a dead one can still be retried). The delivery rows stay, so the
 * deliveries view still lists them; a customers/redact also no longer has old bodies to search.
 */
import type { Db } from '../db/database';

/** Days a processed delivery's body is kept (WEBHOOK_BODY_RETENTION_DAYS; 0 = forever). Default 30. */
export function bodyRetentionDays(env: NodeJS.ProcessEnv = process.env): number {
  const raw = env.WEBHOOK_BODY_RETENTION_DAYS?.trim();
  if (!raw) return 30;
  const days = Number(raw);
  return Number.isFinite(days) && days >= 0 ? days : 30;
}

/**
 * Deletes the bodies of deliveries that finished as `done` before `before` (an ISO 8601 instant),
 * `batch` rows per transaction (500 by default), until none is left or `maxBatches` ran. Each batch
 * is its own short transaction, with a turn of the event loop between batches, so a first pass over
 * a large backlog never holds the write lock for long. Answers how many bodies were deleted.
 */
export async function pruneDeliveryBodies(db: Db, before: string, options: { batch?: number; maxBatches?: number } = {}): Promise<number> {
  const batch = Math.max(1, Math.trunc(options.batch ?? 500));
  const maxBatches = Math.max(1, Math.trunc(options.maxBatches ?? 1000));
  let deleted = 0;
  for (let i = 0; i < maxBatches; i++) {
    const n = await db.transaction().execute(async (tx) => {
      // The bodies table holds only the bodies not pruned yet, oldest first: the scan stops at `batch` matches.
      const ids = await tx
        .selectFrom('webhook_delivery_bodies as b')
        .innerJoin('webhook_deliveries as d', 'd.id', 'b.delivery_id')
        .select('b.delivery_id')
        .where('d.status', '=', 'done')
        .where('d.finished_at', '<', before)
        .limit(batch)
        .execute();
      if (ids.length === 0) return 0;
      const result = await tx
        .deleteFrom('webhook_delivery_bodies')
        .where(
          'delivery_id',
          'in',
          ids.map((r) => r.delivery_id),
        )
        .executeTakeFirst();
      return Number(result.numDeletedRows ?? 0n);
    });
    deleted += n;
    if (n < batch) break;
    await new Promise((resolve) => setImmediate(resolve));
  }
  return deleted;
}
