/**
 * Order webhooks become points: normalise the order, evaluate the shop's place-order programs
 * with the customer's profile and history and the shop's monthly order allowance, then in one
 * transaction record the delivery (unique per shop, topic and order id), create the customer on
 * first sight, and append one ledger entry per awarding program with its explanation (pending
 * until the waiting period ends when the shop uses pending points). A repeated delivery finds its
 * receipt and changes nothing.
 */
import { orderAllowance } from '../../engine/allowance';
import { evaluateOrder, type OrderEvaluation } from '../../engine/earning';
import type { CustomerProfile, PastAward } from '../../engine/eligibility';
import { normalizeOrder, OrderShapeError, type OrderFacts } from '../../engine/order';
import { availableAt } from '../../engine/pending';
import { localDate } from '../../engine/store-time';
import { applyTierMultiplier } from '../../engine/tiers';
import type { AppDeps } from '../deps';
import { CompiledOnce } from '../db/compiled';
import { groupReadKeys, readOncePerGroup, type Db } from '../db/database';
import { ApiError } from '../errors';
import { listDocuments } from '../store/documents';
import { appendEntries, upsertCustomer } from '../store/ledger';
import { markCouponsRedeemed } from './redemption';
import { findShop } from '../store/shops';
import { shopContext, type ShopContext } from './shop-context';
import { applyParkedReversals } from './refunds';
import { recordTierOrder, tierMultiplierFor } from './tiers';
import { sandboxFilter, shopSettings } from './settings';
import { recordOrderFacts } from './simulate';
import { awardMilestones } from './milestones';
import { attributeReferral } from './referrals';

export const ORDERS_CREATE = 'orders/create';

/** What one delivery did. `duplicate` is true when the order had been ingested before. */
export interface IngestResult {
  orderId: string;
  /** The order's customer (platform id), or null for a guest checkout without one. */
  customerId: string | null;
  duplicate: boolean;
  pointsAwarded: number;
  evaluation: OrderEvaluation;
}

// The statements every order runs, compiled once (server/db/compiled.ts: Kysely's builder cost more than SQLite on these).
const ORDERS_THIS_MONTH = new CompiledOnce<'shop' | 'month', { orders: number }>((db, p) => db.selectFrom('order_allowance_usage').select('orders').where('shop_id', '=', p.shop).where('month', '=', p.month));
const CUSTOMER_TYPE = new CompiledOnce<'shop' | 'id', { type: string; tier_id: string | null }>((db, p) => db.selectFrom('customers').select(['type', 'tier_id']).where('shop_id', '=', p.shop).where('id', '=', p.id));
const PLACE_ORDER_AWARDS = new CompiledOnce<'shop' | 'customer', { program_id: string | null; points: number; created_at: string }>((db, p) =>
  db.selectFrom('ledger_entries').select(['program_id', 'points', 'created_at']).where('shop_id', '=', p.shop).where('customer_id', '=', p.customer).where('program_kind', '=', 'earning.place_order').where('points', '>', 0),
);
const RECEIPT_OUTCOME = new CompiledOnce<'shop' | 'topic' | 'id', { outcome: string }>((db, p) =>
  db.selectFrom('webhook_receipts').select('outcome').where('shop_id', '=', p.shop).where('topic', '=', p.topic).where('resource_id', '=', p.id),
);
const INSERT_RECEIPT = new CompiledOnce<'shop' | 'topic' | 'id' | 'at' | 'outcome' | 'month'>((db, p) =>
  db
    .insertInto('webhook_receipts')
    .values({ shop_id: p.shop, topic: p.topic, resource_id: p.id, received_at: p.at, outcome: p.outcome, counted_month: p.month })
    .onConflict((oc) => oc.columns(['shop_id', 'topic', 'resource_id']).doNothing()),
);
const COUNT_ALLOWANCE = new CompiledOnce<'shop' | 'month'>((db, p) =>
  db
    .insertInto('order_allowance_usage')
    .values({ shop_id: p.shop, month: p.month, orders: 1 })
    .onConflict((oc) => oc.columns(['shop_id', 'month']).doUpdateSet((eb) => ({ orders: eb('order_allowance_usage.orders', '+', 1) }))),
);

/** The shop's context, or ApiError 404 `unknown_shop` for a shop that never installed the app. */
export async function shopOrThrow(db: Db, shopId: string): Promise<ShopContext> {
  const shop = await findShop(db, shopId);
  if (!shop) throw new ApiError(404, 'unknown_shop', `The shop ${shopId} has not installed the app`);
  return shopContext(shop);
}

/** Orders this store-local month that the loyalty program processed (not skipped), before this one: one counter row. */
async function ordersThisMonth(db: Db, shopId: string, month: string): Promise<number> {
  const [row] = await ORDERS_THIS_MONTH.rows(db, 'one', { shop: shopId, month });
  return Number(row?.orders ?? 0);
}

/** The customer's loyalty profile and past place-order awards. New customers are members. */
async function customerFacts(db: Db, shopId: string, customerId: string): Promise<{ profile: CustomerProfile; history: PastAward[] }> {
  const [row] = await CUSTOMER_TYPE.rows(db, 'one', { shop: shopId, id: customerId });
  const type = row?.type === 'guest' || row?.type === 'left' ? row.type : 'member';
  const entries = await PLACE_ORDER_AWARDS.rows(db, 'one', { shop: shopId, customer: customerId });
  return {
    profile: { id: customerId, type, tierId: row?.tier_id ?? null },
    history: entries.map((e) => ({ programId: e.program_id ?? '', points: e.points, at: e.created_at })),
  };
}

/**
 * The facts of an `orders/create` body (engine/order.ts normalizeOrder), checked against the
 * shop's currency when given. Throws ApiError 400 `invalid_order` with the field path when the
 * body is not an order.
 */
export function parseOrder(body: unknown, shopCurrency?: string): OrderFacts {
  if (body === null || typeof body !== 'object' || Array.isArray(body)) throw new ApiError(400, 'invalid_order', 'The webhook body must be an order object');
  try {
    return normalizeOrder(body as Record<string, unknown>, shopCurrency);
  } catch (e) {
    if (e instanceof OrderShapeError) throw new ApiError(400, 'invalid_order', e.message, [{ path: e.path, message: e.message }]);
    throw e;
  }
}

/** How `ingestOrder` runs. */
export interface IngestOptions {
  /**
   * Called inside the transaction that writes a new order's receipt and ledger entries, with what
   * the call will return, so the caller's own bookkeeping (the webhook queue marking its delivery
   * done) commits with them. Not called for a duplicate, which writes nothing.
   */
  inTransaction?: (tx: Db, result: IngestResult) => Promise<void>;
}

/**
 * Ingests an `orders/create` body for a shop. Throws ApiError 400 `invalid_order` (with the field
 * path) when the body is not an order, 404 `unknown_shop` for a shop that never installed the app.
 */
export async function ingestOrder(deps: AppDeps, shopId: string, body: unknown, options: IngestOptions = {}): Promise<IngestResult> {
  // The shop's configuration is read once per group of deliveries on the processing thread (readOncePerGroup).
  const shop = await readOncePerGroup(deps.db, groupReadKeys.shop(shopId), () => shopOrThrow(deps.db, shopId));
  const order = parseOrder(body, shop.currency);
  const [previous] = await RECEIPT_OUTCOME.rows(deps.db, 'one', { shop: shopId, topic: ORDERS_CREATE, id: order.id });
  if (previous) return { orderId: order.id, customerId: order.customer?.id ?? null, duplicate: true, pointsAwarded: 0, evaluation: JSON.parse(previous.outcome) as OrderEvaluation };

  const now = (deps.now ?? (() => new Date()))();
  const customer = order.customer;
  const facts = customer ? await customerFacts(deps.db, shopId, customer.id) : null;
  // The store-local month (YYYY-MM) the order counts in for the plan's monthly allowance.
  const month = localDate(now, shop.timeZone).slice(0, 7);
  const allowance = orderAllowance(shop.plan, await ordersThisMonth(deps.db, shopId, month));
  const programs = await readOncePerGroup(deps.db, groupReadKeys.documents(shopId, 'earning.place_order'), () => listDocuments(deps.db, shopId, ['earning.place_order']));
  const programsEvaluation = await evaluateOrder(programs, order, {
    timeZone: shop.timeZone,
    ...(facts ? { customer: facts.profile, history: facts.history } : {}),
    allowance: { disabled: allowance.state === 'reached', message: allowance.message ?? '' },
  });
  // The VIP tier held when ordering multiplies the awards (a `points_multiplier` perk), stated in
  // each decision's message and `tierMultiplier` (server/services/tiers.ts, engine/tiers.ts).
  const multiplier = facts?.profile.tierId ? await readOncePerGroup(deps.db, groupReadKeys.tierMultiplier(shopId, facts.profile.tierId), () => tierMultiplierFor(deps.db, shopId, facts.profile.tierId)) : null;
  const multiplied = multiplier ? applyTierMultiplier(programsEvaluation, multiplier) : programsEvaluation;
  // Sandbox mode (spec 002 §4): only test-list customers earn (server/services/settings.ts).
  const evaluation = sandboxFilter(multiplied, await readOncePerGroup(deps.db, groupReadKeys.settings(shopId), () => shopSettings(deps.db, shopId)), customer);
  const iso = now.toISOString();
  const pending = shop.pendingPoints.enabled;
  const until = availableAt(now, shop.pendingPoints).toISOString();

  return deps.db.transaction().execute(async (tx) => {
    const receipt = await INSERT_RECEIPT.run(tx, 'one', {
      shop: shopId,
      topic: ORDERS_CREATE,
      id: order.id,
      at: iso,
      outcome: JSON.stringify(evaluation),
      month: evaluation.orderSkipped === null ? month : null,
    });
    if (Number(receipt.numAffectedRows ?? 0n) === 0) return { orderId: order.id, customerId: customer?.id ?? null, duplicate: true, pointsAwarded: 0, evaluation };
    // The order's facts for previews (issue 15: replaying a draft program over past orders).
    await recordOrderFacts(tx, shopId, order, facts?.profile ?? null, evaluation.totalPoints, iso);
    if (evaluation.orderSkipped === null) {
      // The allowance counter moves in the same transaction as the receipt, so it counts each order once.
      await COUNT_ALLOWANCE.run(tx, 'one', { shop: shopId, month });
    }
    if (customer) {
      await upsertCustomer(tx, shopId, customer, iso);
      await appendEntries(
        tx,
        evaluation.decisions
          .filter((d) => d.outcome === 'award')
          .map((d) => ({
            id: crypto.randomUUID(),
            shop_id: shopId,
            customer_id: customer.id,
            type: pending ? 'pending_earn_point' : 'earn_point',
            points: d.points,
            program_id: d.programId,
            program_kind: d.kind,
            program_version: d.programVersion,
            source_type: 'order',
            source_id: order.id,
            reverses_id: null,
            // The award as the entry's explanation; the condition checks behind it stay in the
            // order's evaluation (its receipt, GET /api/orders/:id/evaluation), not copied per entry.
            explanation: JSON.stringify({ orderId: order.id, orderName: order.name, decision: { ...d, conditionChecks: [] } }),
            created_at: iso,
            available_at: pending ? until : null,
          })),
      );
    }
    // Referrals: a friend's first order through a referral code rewards both (server/services/referrals.ts).
    if (customer) await attributeReferral(tx, deps, shopId, body, order, iso);
    // Coupons bought with points and used on this order can no longer be revoked (server/services/redemption.ts).
    await markCouponsRedeemed(tx, shopId, order.discountCodes, iso);
    if (customer) {
      // VIP tiers: the order's tier points, amount spent (its lines after line discounts, tax taken
      // out, without shipping and tax) and the order itself, then the customer's assessment — before
      // any parked reversal below takes points back (server/services/tiers.ts).
      await recordTierOrder(
        tx,
        shopId,
        customer.id,
        {
          tierPoints: evaluation.totalPoints,
          amountSpentMinor: order.lines.reduce((n, l) => n + l.amountMinor, 0),
          counted: evaluation.orderSkipped === null || evaluation.orderSkipped === 'order_limit_reached',
        },
        now,
        deps.db,
      );
      // Milestones the order reaches (orders, amount spent, earned points), in this transaction.
      await awardMilestones(tx, deps, shopId, customer.id, iso);
    }
    // Refunds and cancellations that came first take their points back now, in this transaction.
    await applyParkedReversals(tx, shopId, order.id, iso);
    const result: IngestResult = { orderId: order.id, customerId: customer?.id ?? null, duplicate: false, pointsAwarded: evaluation.totalPoints, evaluation };
    await options.inTransaction?.(tx, result);
    return result;
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
