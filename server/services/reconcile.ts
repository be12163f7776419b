/**
 * Reconciliation (issue 14): re-fetches a shop's recent orders through the platform adapter and
 * queues, as deliveries of their own, what no delivery brought: an order never awarded, a refund
 * never taken back, a cancellation never applied. Each goes through the same queue and processors
 * as a webhook (per-order ordering, retries, receipts), under the webhook id
 * `reconcile:<topic>:<resource id>`, so running it twice, or alongside the platform's own
 * redelivery, awards nothing twice.
 */
import { idString } from '../../engine/order';
import type { AppDeps } from '../deps';
import { ApiError } from '../errors';
import type { PlatformOrders } from '../platform/orders';
import type { WebhookQueue } from '../webhooks/queue';
import { webhookTopic } from '../webhooks/topics';

/** What a reconciliation found and did. */
export interface ReconcileResult {
  /** The start of the window looked at (ISO 8601). */
  since: string;
  /** Orders the platform listed. */
  checked: number;
  /** Events without a receipt or a queued delivery, by topic (`orders/create`, `refunds/create`, `orders/cancelled`). */
  missing: Record<string, number>;
  /** Deliveries queued now (0 on a second run over the same window). */
  queued: number;
  /** Orders the platform listed that cannot be processed (no id), skipped. */
  skipped: number;
  /** True when the window held more orders than one run takes: run again. */
  truncated: boolean;
}

/** One event the platform knows about: the topic, the resource its receipt is keyed by, and the body a webhook would carry. */
interface PlatformEvent {
  topic: 'orders/create' | 'refunds/create' | 'orders/cancelled';
  resourceId: string;
  orderId: string;
  body: Record<string, unknown>;
}

/** The events one platform order implies, in the order they happened: the order, its refunds, its cancellation. */
function eventsOf(order: Record<string, unknown>): PlatformEvent[] | null {
  const orderId = idString(order.id);
  if (!orderId) return null;
  const events: PlatformEvent[] = [{ topic: 'orders/create', resourceId: orderId, orderId, body: order }];
  const refunds = Array.isArray(order.refunds) ? order.refunds : [];
  for (const refund of refunds) {
    if (!refund || typeof refund !== 'object') continue;
    const r = refund as Record<string, unknown>;
    const refundId = idString(r.id);
    if (refundId) events.push({ topic: 'refunds/create', resourceId: refundId, orderId, body: { ...r, order_id: r.order_id ?? order.id } });
  }
  if (order.cancelled_at) events.push({ topic: 'orders/cancelled', resourceId: orderId, orderId, body: order });
  return events;
}

/**
 * Reconciles `shopId`'s orders created since `options.since` (ISO 8601) with what the ledger has,
 * queueing what is missing. At most `options.limit` orders per run. Throws the adapter's ApiError
 * (502 `platform_unavailable`, 401 `platform_unauthorized`) before anything is queued.
 */
export async function reconcileOrders(
  deps: AppDeps,
  queue: WebhookQueue,
  platform: PlatformOrders,
  shopId: string,
  options: { since: string; limit: number; sessionToken?: string },
): Promise<ReconcileResult> {
  const { orders, truncated } = await platform.recentOrders(shopId, { createdAtMin: options.since, limit: options.limit, ...(options.sessionToken ? { sessionToken: options.sessionToken } : {}) });
  const events: PlatformEvent[] = [];
  let skipped = 0;
  for (const order of orders) {
    const implied = eventsOf(order);
    if (implied) events.push(...implied);
    else skipped++;
  }
  const result: ReconcileResult = { since: options.since, checked: orders.length, missing: { 'orders/create': 0, 'refunds/create': 0, 'orders/cancelled': 0 }, queued: 0, skipped, truncated };
  if (events.length === 0) return result;
  const key = (topic: string, id: string): string => `${topic} ${id}`;
  const handled = new Set<string>();
  const orderIds = [...new Set(events.map((e) => e.orderId))];
  // In chunks: both databases bound the number of parameters of one statement.
  for (let i = 0; i < orderIds.length; i += 500) {
    const chunk = orderIds.slice(i, i + 500);
    const receipts = await deps.db.selectFrom('webhook_receipts').select(['topic', 'resource_id']).where('shop_id', '=', shopId).where('order_id', 'in', chunk).execute();
    for (const r of receipts) handled.add(key(r.topic, r.resource_id));
    const created = await deps.db.selectFrom('webhook_receipts').select(['topic', 'resource_id']).where('shop_id', '=', shopId).where('topic', '=', 'orders/create').where('resource_id', 'in', chunk).execute();
    for (const r of created) handled.add(key(r.topic, r.resource_id));
    // A delivery still waiting in the queue will be processed: not missing.
    const waiting = await deps.db.selectFrom('webhook_deliveries').select(['topic', 'order_key']).where('shop_id', '=', shopId).where('status', '=', 'queued').where('order_key', 'in', chunk).execute();
    for (const d of waiting) if (d.topic !== 'refunds/create') handled.add(key(d.topic, d.order_key));
  }
  for (const event of events) {
    if (handled.has(key(event.topic, event.resourceId))) continue;
    result.missing[event.topic] = (result.missing[event.topic] ?? 0) + 1;
    const topic = webhookTopic(event.topic);
    if (!topic) continue;
    let orderKey: string;
    try {
      orderKey = topic.prepare(event.body).orderKey;
    } catch (e) {
      if (e instanceof ApiError && e.status === 400) {
        result.skipped++;
        continue;
      }
      throw e;
    }
    const body = JSON.stringify(event.body);
    const stored = await queue.enqueue({ shopId, topic: event.topic, webhookId: `reconcile:${event.topic}:${event.resourceId}`, orderKey, body, parsed: event.body });
    if (!stored.duplicate) result.queued++;
  }
  if (result.queued > 0) queue.kick();
  return result;
}
