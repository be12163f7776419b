/**
 * Refund and cancellation webhooks take points back (spec 001 §3 autoRemovePoints): reversals are
 * computed by the engine from the line allocations stored with each award (engine/refunds.ts) and
 * appended as `minus_point` ledger rows pointing at the award they reverse. Deliveries are
 * deduplicated like orders; a refund for an order that earned nothing records that and stops. A
 * refund or cancellation that arrives before its order is parked and applied when the order does.
 */
import { cancellationRefund, computeReversals, type AwardRecord, type RefundInput, type ReversalRecord } from '../../engine/refunds';
import { idString } from '../../engine/order';
import type { ProgramDecision } from '../../engine/earning';
import type { AppDeps } from '../deps';
import { ApiError } from '../errors';
import { appendEntries } from '../store/ledger';
import { ORDERS_CREATE, shopOrThrow } from './orders';
import type { Db } from '../db/database';
import { CompiledOnce } from '../db/compiled';
import { cancelOrderReferral } from './referrals';

export const REFUNDS_CREATE = 'refunds/create';
export const ORDERS_CANCELLED = 'orders/cancelled';

/** What a refund or cancellation delivery did. */
export interface ReversalResult {
  orderId: string;
  duplicate: boolean;
  /** Points taken back (positive whole points). */
  pointsTakenBack: number;
  /** True when the order has not arrived yet: the reversal waits and is applied with the order. */
  parked?: boolean;
}

const obj = (v: unknown): Record<string, unknown> => (v !== null && typeof v === 'object' && !Array.isArray(v) ? (v as Record<string, unknown>) : {});

/**
 * The refund a `refunds/create` body describes (`id`, `order_id`,
 * `refund_line_items[{ line_item_id, quantity }]`). Throws ApiError 400 `invalid_refund` with the
 * field path when ids are missing.
 */
export function parseRefund(body: unknown): { orderId: string; refund: RefundInput } {
  const b = obj(body);
  const refundId = idString(b.id);
  const orderId = idString(b.order_id);
  if (!refundId) throw new ApiError(400, 'invalid_refund', 'The refund has no id', [{ path: '/id', message: 'This field is required' }]);
  if (!orderId) throw new ApiError(400, 'invalid_refund', 'The refund has no order_id', [{ path: '/order_id', message: 'This field is required' }]);
  const lines = (Array.isArray(b.refund_line_items) ? b.refund_line_items : []).map((item, i) => {
    const lineId = idString(obj(item).line_item_id);
    if (!lineId) throw new ApiError(400, 'invalid_refund', 'A refund line has no line_item_id', [{ path: `/refund_line_items/${i}/line_item_id`, message: 'This field is required' }]);
    return { lineId, quantity: Math.max(0, Math.min(1_000_000, Math.trunc(Number(obj(item).quantity ?? 0)) || 0)) };
  });
  return { orderId, refund: { id: refundId, lines } };
}

/** The order an `orders/cancelled` body cancels. Throws ApiError 400 `invalid_order` without an id. */
export function parseCancellation(body: unknown): { orderId: string } {
  const orderId = idString(obj(body).id);
  if (!orderId) throw new ApiError(400, 'invalid_order', 'The order has no id', [{ path: '/id', message: 'This field is required' }]);
  return { orderId };
}

/** Applies a `refunds/create` body (see parseRefund). */
export async function ingestRefund(deps: AppDeps, shopId: string, body: unknown): Promise<ReversalResult> {
  const { orderId, refund } = parseRefund(body);
  return reverse(deps, shopId, REFUNDS_CREATE, refund.id, orderId, refund);
}

/** Applies an `orders/cancelled` body: every line of the order is refunded in full. */
export async function ingestCancellation(deps: AppDeps, shopId: string, body: unknown): Promise<ReversalResult> {
  const { orderId } = parseCancellation(body);
  return reverse(deps, shopId, ORDERS_CANCELLED, orderId, orderId, null);
}

/** Receipt outcome of a reversal waiting for its order: enough to apply it later, exactly as it would have been. */
interface ParkedReversal {
  parked: true;
  topic: string;
  orderId: string;
  /** The refund's lines; null for a cancellation (every line, in full). */
  refund: RefundInput | null;
}

async function reverse(deps: AppDeps, shopId: string, topic: string, resourceId: string, orderId: string, refund: RefundInput | null): Promise<ReversalResult> {
  await shopOrThrow(deps.db, shopId);
  const now = (deps.now ?? (() => new Date()))().toISOString();
  return deps.db.transaction().execute(async (tx) => {
    const receipt = await tx
      .insertInto('webhook_receipts')
      .values({ shop_id: shopId, topic, resource_id: resourceId, received_at: now, outcome: '{}', order_id: orderId, parked: 0 })
      .onConflict((oc) => oc.columns(['shop_id', 'topic', 'resource_id']).doNothing())
      .executeTakeFirst();
    if (Number(receipt.numInsertedOrUpdatedRows ?? 0n) === 0) return { orderId, duplicate: true, pointsTakenBack: 0 };
    const order = await tx.selectFrom('webhook_receipts').select('resource_id').where('shop_id', '=', shopId).where('topic', '=', ORDERS_CREATE).where('resource_id', '=', orderId).executeTakeFirst();
    if (!order) {
      // Webhook order is not guaranteed: keep the reversal until its order arrives (ingestOrder applies it).
      const parked: ParkedReversal = { parked: true, topic, orderId, refund };
      await tx.updateTable('webhook_receipts').set({ outcome: JSON.stringify(parked), parked: 1 }).where('shop_id', '=', shopId).where('topic', '=', topic).where('resource_id', '=', resourceId).execute();
      return { orderId, duplicate: false, pointsTakenBack: 0, parked: true };
    }
    const pointsTakenBack = await applyReversal(tx, shopId, topic, resourceId, orderId, refund, now);
    return { orderId, duplicate: false, pointsTakenBack };
  });
}

/**
 * Appends the reversals one refund (or, with `refund` null, a cancellation) causes for an order's
 * awards, inside the caller's transaction. Returns the points taken back (positive whole points).
 */
async function applyReversal(tx: Db, shopId: string, topic: string, resourceId: string, orderId: string, refund: RefundInput | null, now: string): Promise<number> {
  // A cancelled order's referral is canceled and its point rewards taken back (server/services/referrals.ts).
  if (refund === null) await cancelOrderReferral(tx, shopId, orderId, now);
  const rows = await tx.selectFrom('ledger_entries').selectAll().where('shop_id', '=', shopId).where('source_type', '=', 'order').where('source_id', '=', orderId).execute();
  const awards: AwardRecord[] = rows
    .filter((r) => r.points > 0)
    .map((r) => {
      const decision = (JSON.parse(r.explanation) as { decision?: ProgramDecision }).decision;
      return { entryId: r.id, programId: r.program_id ?? '', points: r.points, autoRemovePoints: decision?.autoRemovePoints ?? true, lineAllocations: decision?.lineAllocations ?? [] };
    });
  if (awards.length === 0) return 0;
  const prior = await tx.selectFrom('ledger_entries').select(['reverses_id', 'explanation']).where('shop_id', '=', shopId).where('reverses_id', 'in', awards.map((a) => a.entryId)).execute();
  const previous: ReversalRecord[] = prior.map((p) => ({ reversesId: p.reverses_id ?? '', lines: (JSON.parse(p.explanation) as { lines?: ReversalRecord['lines'] }).lines ?? [] }));
  const input = refund ?? cancellationRefund(awards, orderId);
  const reversals = computeReversals(awards, previous, input);
  const customerId = rows[0]?.customer_id ?? '';
  await appendEntries(
    tx,
    reversals.map((r) => ({
      id: crypto.randomUUID(),
      shop_id: shopId,
      customer_id: customerId,
      type: 'minus_point',
      points: -r.points,
      program_id: r.programId,
      program_kind: 'earning.place_order',
      // The version of the program whose award this takes back (issue 15: every entry names its version).
      program_version: rows.find((row) => row.id === r.reversesId)?.program_version ?? null,
      source_type: topic === REFUNDS_CREATE ? 'refund' : 'cancellation',
      source_id: resourceId,
      reverses_id: r.reversesId,
      explanation: JSON.stringify({ orderId, refundId: input.id, lines: r.lines }),
      created_at: now,
      available_at: null,
    })),
  );
  return reversals.reduce((n, r) => n + r.points, 0);
}

/** Every order asks for its parked reversals (almost always none): compiled once (server/db/compiled.ts). */
export const PARKED = new CompiledOnce<'shop' | 'order', { topic: string; resource_id: string; outcome: string; received_at: string }>((db, p) =>
  db.selectFrom('webhook_receipts').select(['topic', 'resource_id', 'outcome', 'received_at']).where('shop_id', '=', p.shop).where('order_id', '=', p.order).where('parked', '=', 1).orderBy('received_at'),
);

/**
 * Applies, inside the order's own transaction, every refund and cancellation of `orderId` that
 * arrived before the order, in the order they arrived, and marks them applied. The ledger then
 * equals the one an in-order delivery would have written. Returns the points taken back.
 */
export async function applyParkedReversals(tx: Db, shopId: string, orderId: string, now: string): Promise<number> {
  const parked = await PARKED.rows(tx, 'one', { shop: shopId, order: orderId });
  let taken = 0;
  for (const row of parked) {
    const waiting = JSON.parse(row.outcome) as ParkedReversal;
    const points = await applyReversal(tx, shopId, row.topic, row.resource_id, orderId, waiting.refund, now);
    taken += points;
    await tx
      .updateTable('webhook_receipts')
      .set({ parked: 0, outcome: JSON.stringify({ appliedAt: now, pointsTakenBack: points }) })
      .where('shop_id', '=', shopId)
      .where('topic', '=', row.topic)
      .where('resource_id', '=', row.resource_id)
      .execute();
  }
  return taken;
}
