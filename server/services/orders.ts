/**
 * Order webhooks become points: normalise the order, evaluate the shop's place-order programs,
 * then in one transaction record the delivery (unique per shop, topic and order id), create the
 * customer on first sight, and append one ledger entry per awarding program with its explanation.
 * A repeated delivery finds its receipt and changes nothing.
 */
import { evaluateOrder, type OrderEvaluation } from '../../engine/earning';
import { normalizeOrder, OrderShapeError } from '../../engine/order';
import type { AppDeps } from '../deps';
import { ApiError } from '../errors';
import { listDocuments } from '../store/documents';
import { appendEntries, upsertCustomer } from '../store/ledger';
import { findShop } from '../store/shops';

export const ORDERS_CREATE = 'orders/create';

/** What one delivery did. `duplicate` is true when the order had been ingested before. */
export interface IngestResult {
  orderId: string;
  duplicate: boolean;
  pointsAwarded: number;
  evaluation: OrderEvaluation;
}

/**
 * Ingests an `orders/create` body for a shop. Throws ApiError 400 `invalid_order` (with the field
 * path) when the body is not an order, 404 `unknown_shop` for a shop that never installed the app.
 */
export async function ingestOrder(deps: AppDeps, shopId: string, body: unknown): Promise<IngestResult> {
  const shop = await findShop(deps.db, shopId);
  if (!shop) throw new ApiError(404, 'unknown_shop', `The shop ${shopId} has not installed the app`);
  if (body === null || typeof body !== 'object' || Array.isArray(body)) throw new ApiError(400, 'invalid_order', 'The webhook body must be an order object');
  let order;
  try {
    order = normalizeOrder(body as Record<string, unknown>, shop.currency);
  } catch (e) {
    if (e instanceof OrderShapeError) throw new ApiError(400, 'invalid_order', e.message, [{ path: e.path, message: e.message }]);
    throw e;
  }
  const previous = await deps.db
    .selectFrom('webhook_receipts')
    .select('outcome')
    .where('shop_id', '=', shopId)
    .where('topic', '=', ORDERS_CREATE)
    .where('resource_id', '=', order.id)
    .executeTakeFirst();
  if (previous) return { orderId: order.id, duplicate: true, pointsAwarded: 0, evaluation: JSON.parse(previous.outcome) as OrderEvaluation };

  const programs = await listDocuments(deps.db, shopId, ['earning.place_order']);
  const evaluation = await evaluateOrder(programs, order, { timeZone: shop.iana_timezone });
  const now = (deps.now ?? (() => new Date()))().toISOString();
  const customer = order.customer;

  return deps.db.transaction().execute(async (tx) => {
    const receipt = await tx
      .insertInto('webhook_receipts')
      .values({ shop_id: shopId, topic: ORDERS_CREATE, resource_id: order.id, received_at: now, outcome: JSON.stringify(evaluation) })
      .onConflict((oc) => oc.columns(['shop_id', 'topic', 'resource_id']).doNothing())
      .executeTakeFirst();
    if (Number(receipt.numInsertedOrUpdatedRows ?? 0n) === 0) return { orderId: order.id, duplicate: true, pointsAwarded: 0, evaluation };
    if (customer) {
      await upsertCustomer(tx, shopId, customer, now);
      await appendEntries(
        tx,
        evaluation.decisions
          .filter((d) => d.outcome === 'award')
          .map((d) => ({
            id: crypto.randomUUID(),
            shop_id: shopId,
            customer_id: customer.id,
            type: 'earn_point',
            points: d.points,
            program_id: d.programId,
            program_kind: d.kind,
            program_version: d.programVersion,
            source_type: 'order',
            source_id: order.id,
            reverses_id: null,
            explanation: JSON.stringify({ orderId: order.id, orderName: order.name, decision: d }),
            created_at: now,
          })),
      );
    }
    return { orderId: order.id, duplicate: false, pointsAwarded: evaluation.totalPoints, evaluation };
  });
}

/** The stored evaluation of an ingested order (why it earned what it earned), or undefined. */
export async function findOrderEvaluation(deps: AppDeps, shopId: string, orderId: string): Promise<OrderEvaluation | undefined> {
  const row = await deps.db
    .selectFrom('webhook_receipts')
    .select('outcome')
    .where('shop_id', '=', shopId)
    .where('topic', '=', ORDERS_CREATE)
    .where('resource_id', '=', orderId)
    .executeTakeFirst();
  return row ? (JSON.parse(row.outcome) as OrderEvaluation) : undefined;
}
