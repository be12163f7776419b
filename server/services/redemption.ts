/**
 * Redemption (issue 11): a shopper spends points on a redeem reward and gets a coupon; the shopper
 * (within the shop's self-revoke limits) or an admin revokes it and the points come back.
 * Spec 001 §3 reward types, §8 storefront messages; spec 002 §3 reward rule and coupon history,
 * §4 "A coupon or redemption can be revoked and points refunded", §5 redeem rules, §6 "Customers
 * can revoke their own coupons if enabled".
 *
 * Money and balance are decided in one database transaction: the coupon row and the `spend_point`
 * ledger entry commit together, after the customer's row is locked by a guarded update (so 20
 * concurrent redemptions of a balance that pays for one give exactly one coupon, on SQLite and on
 * PostgreSQL). The platform discount is created before that transaction and deleted again when it
 * fails, so no code lives on the platform without its record and no points leave without a coupon.
 */
import { sql } from 'kysely';
import { checkRedeem, type RedeemViolation } from '../../engine/redeem';
import { startOfLocalDay, windowPosition } from '../../engine/store-time';
import type { JsonObject, StoredDocument } from '../../engine/types';
import { CompiledOnce } from '../db/compiled';
import type { Db } from '../db/database';
import type { CouponsTable } from '../db/tables';
import type { AppDeps } from '../deps';
import { ApiError, notFound } from '../errors';
import { idempotent, requestHash } from '../idempotency';
import { LocalDiscounts, type DiscountSpec, type DiscountValue, type PlatformDiscounts } from '../platform/discounts';
import { findDocument } from '../store/documents';
import { appendEntries, pendingPoints } from '../store/ledger';
import { shopSettings } from './settings';

/** What a shopper asks for: the reward (document id), points to spend (flexible rewards), the gift variant (free_gift). */
export interface RedeemInput {
  rewardId: string;
  /** Whole points; absent = the reward's minimum or its fixed cost. */
  points?: number;
  /** free_gift: the chosen product variant; absent = the reward's only variant. */
  variantId?: string;
}

/** A coupon as the storefront shows it (docs/storefront-api.md `GET /proxy/coupons`). */
export interface CouponView {
  id: string;
  code: string;
  rewardId: string;
  title: string;
  /** Whole points. */
  pointsSpent: number;
  createdAt: string;
  expiresAt: string | null;
  status: 'available' | 'redeemed' | 'revoked';
  /** Whether the shopper may revoke it now (self-revoke on, within the time limit, still available). */
  revocable: boolean;
}

/** A coupon as the admin sees it (customer profile's Coupons card). */
export interface AdminCouponView extends Omit<CouponView, 'revocable'> {
  rewardKind: string;
  platformId: string | null;
  usedAt: string | null;
  revokedAt: string | null;
  revokedBy: string | null;
  note: string | null;
  /** Admins may revoke any coupon still available. */
  revocable: boolean;
}

/** The answer of a redemption or a revoke: the coupon and the customer's available balance after (whole points). */
export interface CouponResult {
  coupon: CouponView;
  points: number;
}

/** Coupon self-revoke settings (spec 002 §3 Revoke settings; SHELL's `settings.shop` order.couponRevoke). */
export interface CouponRevokeSettings {
  enabled: boolean;
  /** Seconds after redemption during which the shopper may revoke. */
  timeLimitSeconds: number;
  /** Self-revokes allowed per timeframe. */
  limit: number;
  timeframe: 'day' | 'week' | 'month' | 'year';
}

/** Longest admin note (characters). */
export const REVOKE_NOTE_MAX = 500;

/** HTTP status of a refused redemption, by the engine's violation code (422 otherwise). */
const VIOLATION_STATUS: Record<string, 404 | 409 | 422> = {
  reward_program_blank: 404,
  customer_uses_exhausted: 409,
  reward_uses_exhausted: 409,
  out_of_stock: 409,
};

const OUT_OF_STOCK: RedeemViolation = { code: 'out_of_stock', message: 'Product is out of stock. Please select another product' };
const UNAVAILABLE: RedeemViolation = { code: 'reward_inactive', message: 'This reward is not available' };
const INSUFFICIENT: RedeemViolation = { code: 'insufficient_balance', message: 'Current balance is insufficient' };
const CUSTOMER_EXHAUSTED: RedeemViolation = { code: 'customer_uses_exhausted', message: 'You have run out of redemption' };
const REWARD_EXHAUSTED: RedeemViolation = { code: 'reward_uses_exhausted', message: 'We have run out of reward coupons' };

/** Throws the first violation as the ApiError the shopper sees; every violation goes in `details`. */
function refuse(violations: RedeemViolation[]): never {
  const first = violations[0]!;
  throw new ApiError(VIOLATION_STATUS[first.code] ?? 422, first.code, first.message, violations.map((v) => ({ path: v.code === 'variant_required' ? '/variantId' : v.code.startsWith('redeem_amount') || v.code === 'insufficient_balance' ? '/points' : '/rewardId', message: v.message })));
}

const nowOf = (deps: AppDeps): Date => (deps.now ?? (() => new Date()))();

let demoDiscounts: LocalDiscounts | undefined;
/**
 * The discount adapter of `deps`: `deps.platformDiscounts`, else in demo mode one shared local
 * adapter. Throws ApiError 503 `platform_unavailable` when a production server was built without one.
 */
export function discountsOf(deps: AppDeps): PlatformDiscounts {
  if (deps.platformDiscounts) return deps.platformDiscounts;
  if (deps.auth.demo) return (demoDiscounts ??= new LocalDiscounts());
  throw new ApiError(503, 'platform_unavailable', 'Discount codes cannot be created right now');
}

/**
 * The shop's coupon self-revoke settings: SHELL's `shopSettings(db, shopId).order.couponRevoke`
 * (the `settings.shop` document with its defaults: off, 1 day, 1 revoke per month).
 */
export async function couponRevokeSettings(db: Db, shopId: string): Promise<CouponRevokeSettings> {
  return (await shopSettings(db, shopId)).order.couponRevoke;
}

/** "1 day", "36 hours", "90 minutes", "45 seconds": the `{{time_limit}}` of the spec's message. */
export function formatDuration(seconds: number): string {
  const unit = (n: number, word: string): string => `${n} ${word}${n === 1 ? '' : 's'}`;
  if (seconds % 86_400 === 0) return unit(seconds / 86_400, 'day');
  if (seconds % 3_600 === 0) return unit(seconds / 3_600, 'hour');
  if (seconds % 60 === 0) return unit(seconds / 60, 'minute');
  return unit(seconds, 'second');
}

/** The instant a coupon created at `createdAt` expires (spec 001 §3 coupon expiry), or null for permanent. */
export function couponExpiry(coupon: { couponExpiry?: unknown; expiryDate?: unknown; expiryDays?: unknown }, createdAt: Date, timeZone: string): string | null {
  const addDays = (days: number): string => new Date(createdAt.getTime() + days * 86_400_000).toISOString();
  const addMonths = (months: number): string => {
    const d = new Date(createdAt.getTime());
    d.setUTCMonth(d.getUTCMonth() + months);
    return d.toISOString();
  };
  switch (coupon.couponExpiry) {
    case '14D':
      return addDays(14);
    case '1M':
      return addMonths(1);
    case '3M':
      return addMonths(3);
    case '6M':
      return addMonths(6);
    case '1Y':
      return addMonths(12);
    case '2Y':
      return addMonths(24);
    case 'custom':
      return typeof coupon.expiryDays === 'number' && coupon.expiryDays > 0 ? addDays(coupon.expiryDays) : null;
    case 'specific': {
      if (typeof coupon.expiryDate !== 'string' || !/^\d{4}-\d{2}-\d{2}$/.test(coupon.expiryDate)) return null;
      // The end of that store-local day: the next day's first instant.
      const next = new Date(Date.parse(`${coupon.expiryDate}T00:00:00Z`) + 86_400_000).toISOString().slice(0, 10);
      return startOfLocalDay(next, timeZone);
    }
    default:
      return null;
  }
}

/** Reward settings read from a redeem document's data. */
interface Reward {
  title?: string;
  status?: boolean;
  redeemPoint?: number;
  minimumPoints?: number;
  maximumPoints?: number;
  maximumUses?: number;
  customerAvailability?: string;
  availableTiers?: string[];
  startDate?: string;
  endDate?: string;
  coupon?: { couponExpiry?: string; expiryDate?: string; expiryDays?: number; prefix?: string; minimumPurchase?: number };
  combinations?: { orderDiscounts: boolean; productDiscounts: boolean; shippingDiscounts: boolean };
  appliesTo?: string;
  productIds?: string[];
  collectionIds?: string[];
  discountAmount?: number;
  discountPercent?: number;
  maximumShippingAmount?: number;
  shippingCountries?: string;
  countryCodes?: string[];
  buyQuantity?: number;
  buyProductIds?: string[];
  buyCollectionIds?: string[];
  getQuantity?: number;
  getProductIds?: string[];
  getCollectionId?: string;
  getDiscountPercent?: number;
  variantIds?: string[];
  giftQuantity?: number;
  voucherCodes?: string[];
}

/**
 * What the coupon takes off for `points` spent: amount and percentage rewards scale with the
 * multiples of the points cost spent (flexible redemption; a percentage never beyond 100).
 */
function discountValue(kind: string, reward: Reward, points: number, variantId: string | null): DiscountValue {
  const multiple = reward.redeemPoint && reward.redeemPoint > 0 ? points / reward.redeemPoint : 1;
  switch (kind) {
    case 'redeem.amount_discount':
    case 'redeem.pos_amount_discount':
      return { type: 'amount', amount: Math.round((reward.discountAmount ?? 0) * multiple * 100) / 100 };
    case 'redeem.percentage_discount':
    case 'redeem.pos_percentage_discount':
      return { type: 'percentage', percent: Math.min(100, (reward.discountPercent ?? 0) * multiple) };
    case 'redeem.free_shipping':
      return {
        type: 'free_shipping',
        ...(reward.maximumShippingAmount ? { maximumShippingAmount: reward.maximumShippingAmount } : {}),
        ...(reward.shippingCountries === 'specific' ? { countryCodes: reward.countryCodes ?? [] } : {}),
      };
    case 'redeem.buy_x_get_y':
      return {
        type: 'buy_x_get_y',
        buyQuantity: reward.buyQuantity ?? 1,
        buyProductIds: reward.buyProductIds ?? [],
        buyCollectionIds: reward.buyCollectionIds ?? [],
        getQuantity: reward.getQuantity ?? 1,
        getProductIds: reward.getProductIds ?? [],
        getCollectionIds: reward.getCollectionId ? [reward.getCollectionId] : [],
        getPercent: reward.getDiscountPercent ?? 100,
      };
    case 'redeem.free_gift':
      return { type: 'free_gift', variantIds: variantId ? [variantId] : [], quantity: reward.giftQuantity ?? 1 };
    default:
      throw new ApiError(422, 'reward_inactive', 'This reward is not available');
  }
}

/** Available balance (stored balance less points not yet available) of a customer; whole points. */
async function availableBalance(db: Db, shopId: string, customerId: string, balance: number, now: string): Promise<number> {
  return balance - ((await pendingPoints(db, shopId, [customerId], now)).get(customerId) ?? 0);
}

// Every redemption's statements, compiled once (server/db/compiled.ts: Kysely's builder cost more than SQLite on them).
const SHOP_TIME_ZONE = new CompiledOnce<'shop', { iana_timezone: string }>((db, p) => db.selectFrom('shops').select(['iana_timezone']).where('id', '=', p.shop));
const REDEEMER = new CompiledOnce<'shop' | 'customer', { type: string; points_balance: number; tier_id: string | null }>((db, p) =>
  db.selectFrom('customers').select(['type', 'points_balance', 'tier_id']).where('shop_id', '=', p.shop).where('id', '=', p.customer),
);
/** Locks the customer's row when the balance covers `points`, answering the balance it locked (no row: not enough). */
const LOCK_BALANCE = new CompiledOnce<'shop' | 'customer' | 'points' | 'now', { points_balance: number }>((db, p) =>
  db.updateTable('customers').set({ updated_at: p.now }).where('shop_id', '=', p.shop).where('id', '=', p.customer).where('points_balance', '>=', p.points).returning('points_balance'),
);
const INSERT_COUPON = new CompiledOnce<keyof CouponsTable>((db, p) =>
  db.insertInto('coupons').values({
    id: p.id,
    shop_id: p.shop_id,
    customer_id: p.customer_id,
    program_id: p.program_id,
    program_kind: p.program_kind,
    program_version: p.program_version,
    title: p.title,
    points_spent: p.points_spent,
    code: p.code,
    platform_id: p.platform_id,
    expires_at: p.expires_at,
    created_at: p.created_at,
    status: p.status,
    used_at: p.used_at,
    revoked_at: p.revoked_at,
    revoked_by: p.revoked_by,
    note: p.note,
  }),
);

/**
 * Coupons that count as uses of a reward (not revoked), by one customer or by everyone, counted up
 * to `cap` (the limit they are compared with: the answer is min(uses, cap), so a popular reward's
 * count reads at most `cap` index entries, not its whole history). `cap` undefined: no limit is
 * set, nothing is read, 0.
 */
async function usesOf(db: Db, shopId: string, programId: string, cap: number | undefined, customerId?: string): Promise<number> {
  if (cap === undefined) return 0;
  let uses = db.selectFrom('coupons').select(sql<number>`1`.as('one')).where('shop_id', '=', shopId).where('program_id', '=', programId).where('status', '!=', 'revoked');
  if (customerId !== undefined) uses = uses.where('customer_id', '=', customerId);
  const row = await db
    .selectFrom(uses.limit(Math.max(0, Math.trunc(cap))).as('u'))
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .executeTakeFirst();
  return Number(row?.n ?? 0);
}

/** A custom voucher reward's next code nobody has been given yet, or null when the pool is used up. */
async function nextVoucher(db: Db, shopId: string, reward: Reward): Promise<string | null> {
  const pool = reward.voucherCodes ?? [];
  if (pool.length === 0) return null;
  const issued = new Set((await db.selectFrom('coupons').select('code').where('shop_id', '=', shopId).where('code', 'in', pool).execute()).map((r) => r.code));
  return pool.find((code) => !issued.has(code)) ?? null;
}

/** The storefront shape of a coupon row; `revoke` decides `revocable`. */
function couponView(row: CouponsTable, revocable: boolean): CouponView {
  return {
    id: row.id,
    code: row.code,
    rewardId: row.program_id,
    title: row.title,
    pointsSpent: row.points_spent,
    createdAt: row.created_at,
    expiresAt: row.expires_at,
    status: row.status as CouponView['status'],
    revocable,
  };
}

/** Whether a shopper may revoke `row` at `now` under `settings` (the count limit is checked on revoke). */
function selfRevocable(row: CouponsTable, settings: CouponRevokeSettings, now: Date): boolean {
  return settings.enabled && row.status === 'available' && now.getTime() - Date.parse(row.created_at) <= settings.timeLimitSeconds * 1000;
}

/**
 * Redeems a reward for a shopper (spec 002 §5 redeem rules, spec 001 §8 messages) and answers the
 * coupon and the available balance after. With an `idempotencyKey`, a repeat of the same request
 * answers the first one's result; the same key with a different request is refused.
 *
 * Checks, each with the spec's message: the reward exists and is an active redeem reward in its
 * date window; the customer is a member the reward is available to (registered, VIP tier only with
 * its tiers); points > 0, a multiple of the points cost, within minimum and maximum; "Current
 * balance is insufficient"; "You have run out of redemption" (per customer limit); "We have run out
 * of reward coupons" (total limit, or a custom voucher pool used up); "Product is out of stock.
 * Please select another product" (free gift variant with no stock on the platform).
 * @throws ApiError 404 `reward_program_blank`, 409 for limits and stock, 422 for the others;
 *   502/401 from the platform adapter; 422 `idempotency_key_reused`, 409 `idempotency_key_in_progress`
 */
export async function redeem(deps: AppDeps, shopId: string, customerId: string, input: RedeemInput, idempotencyKey?: string): Promise<CouponResult> {
  if (!idempotencyKey) return redeemOnce(deps, shopId, customerId, input);
  return idempotent(
    deps.db,
    { shopId, scope: `customer:${customerId}`, key: idempotencyKey, hash: requestHash('redeem', input), now: nowOf(deps).toISOString() },
    () => redeemOnce(deps, shopId, customerId, input),
  );
}

async function redeemOnce(deps: AppDeps, shopId: string, customerId: string, input: RedeemInput): Promise<CouponResult> {
  const db = deps.db;
  const at = nowOf(deps);
  const now = at.toISOString();
  const [shop] = await SHOP_TIME_ZONE.rows(db, 'one', { shop: shopId });
  const timeZone = shop?.iana_timezone ?? 'UTC';
  const found = await findDocument(db, shopId, input.rewardId);
  const program: StoredDocument | null = found && found.kind.startsWith('redeem.') ? found : null;
  const [customer] = await REDEEMER.rows(db, 'one', { shop: shopId, customer: customerId });
  const balance = customer ? await availableBalance(db, shopId, customerId, customer.points_balance, now) : 0;
  if (!program) refuse(checkRedeem({ program: null, points: 0, balance }));
  const reward = program.data as Reward;
  const points = input.points ?? reward.minimumPoints ?? reward.redeemPoint ?? 0;
  const variants = reward.variantIds ?? [];
  const variantId = input.variantId ?? (variants.length === 1 ? variants[0]! : null);

  // Availability beyond the engine's checks: date window, who may redeem.
  if (windowPosition(at, timeZone, reward.startDate ?? null, reward.endDate ?? null) !== 'within') refuse([UNAVAILABLE]);
  const availability = reward.customerAvailability ?? 'all';
  if (availability === 'vip_tier_only' && (!customer?.tier_id || ((reward.availableTiers ?? []).length > 0 && !(reward.availableTiers ?? []).includes(customer.tier_id)))) refuse([UNAVAILABLE]);
  // "Specific customers" has no customer list in the reward template yet: nobody qualifies.
  if (availability === 'specific') refuse([UNAVAILABLE]);
  if (program.kind === 'redeem.free_gift' && variantId && variants.length > 0 && !variants.includes(variantId)) {
    throw new ApiError(422, 'variant_invalid', 'Variant is required', [{ path: '/variantId', message: 'Choose one of the reward\u2019s variants' }]);
  }
  const violations = checkRedeem({
    program,
    points,
    balance,
    customerType: (customer?.type ?? 'member') as 'member' | 'guest' | 'left',
    variantId,
    customerRedemptions: await usesOf(db, shopId, program.id, (reward as { maximumUsesPerCustomer?: number }).maximumUsesPerCustomer, customerId),
    totalRedemptions: await usesOf(db, shopId, program.id, reward.maximumUses),
  });
  if (violations.length > 0) refuse(violations);

  const platform = discountsOf(deps);
  const voucher = program.kind === 'redeem.custom_voucher';
  if (voucher && (await nextVoucher(db, shopId, reward)) === null) refuse([REWARD_EXHAUSTED]);
  if (program.kind === 'redeem.free_gift' && variantId && platform.inventory) {
    const stock = await platform.inventory(shopId, variantId);
    if (stock !== null && stock <= 0) refuse([OUT_OF_STOCK]);
  }

  const couponId = crypto.randomUUID();
  const expiresAt = couponExpiry(reward.coupon ?? {}, at, timeZone);
  const title = reward.title ?? program.kind;
  let created: { platformId: string; code: string } | null = null;
  if (!voucher) {
    const spec: DiscountSpec = {
      reference: couponId,
      title,
      value: discountValue(program.kind, reward, points, variantId),
      ...(reward.coupon?.prefix ? { prefix: reward.coupon.prefix } : {}),
      customerId,
      startsAt: now,
      endsAt: expiresAt,
      ...(reward.coupon?.minimumPurchase ? { minimumPurchase: reward.coupon.minimumPurchase } : {}),
      ...(reward.appliesTo === 'specific_products' ? { appliesTo: { productIds: reward.productIds ?? [] } } : reward.appliesTo === 'specific_collections' ? { appliesTo: { collectionIds: reward.collectionIds ?? [] } } : {}),
      ...(reward.combinations ? { combinesWith: reward.combinations } : {}),
    };
    created = await platform.createDiscount(shopId, spec);
  }

  // The available balance after the debit, as the transaction saw it (the answer's `points`).
  let left = 0;
  try {
    const row = await db.transaction().execute(async (tx) => {
      // A total limit or a voucher pool is shared by every customer: lock the reward's row first
      // (a no-op update; PostgreSQL holds the row lock to the commit, SQLite the write lock), then
      // the customer's, always in this order.
      if (reward.maximumUses !== undefined || voucher) {
        await tx.updateTable('documents').set((eb) => ({ version: eb.ref('version') })).where('shop_id', '=', shopId).where('id', '=', program.id).execute();
        if (reward.maximumUses !== undefined && (await usesOf(tx, shopId, program.id, reward.maximumUses)) >= reward.maximumUses) refuse([REWARD_EXHAUSTED]);
      }
      // The guarded update locks the customer's row and re-reads the balance after any concurrent
      // redemption committed: only one of many concurrent requests finds enough points.
      const [fresh] = (await LOCK_BALANCE.run(tx, 'one', { shop: shopId, customer: customerId, points, now })).rows;
      if (!fresh) refuse([INSUFFICIENT]);
      const available = await availableBalance(tx, shopId, customerId, fresh.points_balance, now);
      if (available < points) refuse([INSUFFICIENT]);
      const perCustomer = (reward as { maximumUsesPerCustomer?: number }).maximumUsesPerCustomer;
      if (perCustomer !== undefined && (await usesOf(tx, shopId, program.id, perCustomer, customerId)) >= perCustomer) refuse([CUSTOMER_EXHAUSTED]);
      let code = created?.code ?? null;
      if (voucher) {
        code = await nextVoucher(tx, shopId, reward);
        if (code === null) refuse([REWARD_EXHAUSTED]);
      }
      const coupon: NewCoupon = {
        id: couponId,
        shop_id: shopId,
        customer_id: customerId,
        program_id: program.id,
        program_kind: program.kind,
        program_version: program.version,
        title,
        points_spent: points,
        code: code!,
        platform_id: created?.platformId ?? null,
        expires_at: expiresAt,
        created_at: now,
      };
      const stored = await recordCoupon(tx, coupon);
      left = available - points;
      await appendEntries(tx, [
        {
          id: crypto.randomUUID(),
          shop_id: shopId,
          customer_id: customerId,
          type: 'spend_point',
          points: -points,
          program_id: program.id,
          program_kind: program.kind,
          program_version: program.version,
          source_type: 'redemption',
          source_id: couponId,
          reverses_id: null,
          explanation: JSON.stringify({ reward: { id: program.id, kind: program.kind, version: program.version, title }, points, code: coupon.code, expiresAt } satisfies JsonObject),
          created_at: now,
          available_at: null,
        },
      ]);
      return stored;
    });
    const settings = await couponRevokeSettings(db, shopId);
    return { coupon: couponView(row, selfRevocable(row, settings, at)), points: left };
  } catch (e) {
    // Compensation: the transaction did not commit, so the platform's discount must go too.
    if (created) {
      try {
        await platform.deleteDiscount(shopId, created.platformId);
      } catch (cleanup) {
        deps.logger?.error({ err: cleanup, shopId, platformId: created.platformId }, 'redemption: could not delete the platform discount of a failed redemption');
      }
    }
    throw e;
  }
}

/** The available balance of a customer now (whole points; 0 for an unknown customer). */
async function balanceOf(db: Db, shopId: string, customerId: string, now: string): Promise<number> {
  const row = await db.selectFrom('customers').select('points_balance').where('shop_id', '=', shopId).where('id', '=', customerId).executeTakeFirst();
  return row ? availableBalance(db, shopId, customerId, row.points_balance, now) : 0;
}

/** The start of the self-revoke count window ending at `now` (a rolling day, week, month or year). */
function windowStart(now: Date, timeframe: CouponRevokeSettings['timeframe']): string {
  const d = new Date(now.getTime());
  if (timeframe === 'day') d.setUTCDate(d.getUTCDate() - 1);
  else if (timeframe === 'week') d.setUTCDate(d.getUTCDate() - 7);
  else if (timeframe === 'month') d.setUTCMonth(d.getUTCMonth() - 1);
  else d.setUTCFullYear(d.getUTCFullYear() - 1);
  return d.toISOString();
}

/** Who revokes: the shopper themself (limits apply) or an admin (a note is required). */
export type Revoker = { by: 'customer'; customerId: string } | { by: 'admin'; actor: string; note: string };

/**
 * Revokes a coupon and refunds its points (spec 002 §4, not undoable): the platform discount is
 * deleted first (so a revoked coupon can never still be used), then, in one transaction, the
 * coupon turns `revoked` and a `refund_point` entry (source_type `revoke`, reversing the
 * `spend_point`) gives the points back.
 * A shopper may revoke only their own available coupon, when the shop allows self-revoke, within
 * its time limit ("This coupon can only be revoked within {{time_limit}} after redemption") and
 * count limit ("You can only revoke {{limit}} times per {{timeframe}}"). An admin needs a note.
 * @throws ApiError 404 `not_found`, 403 `revoke_disabled`, 409 `coupon_not_revocable`,
 *   422 `revoke_time_limit` / `revoke_limit` / `validation_failed` (note), 502 from the platform
 */
export async function revokeCoupon(deps: AppDeps, shopId: string, couponId: string, who: Revoker): Promise<CouponResult> {
  const db = deps.db;
  const at = nowOf(deps);
  const now = at.toISOString();
  let q = db.selectFrom('coupons').selectAll().where('shop_id', '=', shopId).where('id', '=', couponId);
  if (who.by === 'customer') q = q.where('customer_id', '=', who.customerId);
  const coupon = await q.executeTakeFirst();
  if (!coupon) throw notFound('not_found', 'This coupon does not exist');
  if (who.by === 'admin' && who.note.trim().length === 0) throw new ApiError(422, 'validation_failed', 'Revoking a coupon needs an admin note', [{ path: '/note', message: 'This field is required' }]);
  if (coupon.status !== 'available') throw new ApiError(409, 'coupon_not_revocable', coupon.status === 'revoked' ? 'This coupon was already revoked' : 'This coupon was already used');
  const settings = await couponRevokeSettings(db, shopId);
  const limitMessage = `You can only revoke ${settings.limit} times per ${settings.timeframe}`;
  const selfRevokes = async (d: Db): Promise<number> =>
    Number(
      (
        await d
          .selectFrom('coupons')
          .select((eb) => eb.fn.countAll<number>().as('n'))
          .where('shop_id', '=', shopId)
          .where('revoked_by', '=', `customer:${coupon.customer_id}`)
          .where('revoked_at', '>', windowStart(at, settings.timeframe))
          .executeTakeFirst()
      )?.n ?? 0,
    );
  if (who.by === 'customer') {
    if (!settings.enabled) throw new ApiError(403, 'revoke_disabled', 'Coupons cannot be revoked in this shop');
    if (at.getTime() - Date.parse(coupon.created_at) > settings.timeLimitSeconds * 1000) {
      throw new ApiError(422, 'revoke_time_limit', `This coupon can only be revoked within ${formatDuration(settings.timeLimitSeconds)} after redemption`);
    }
    if ((await selfRevokes(db)) >= settings.limit) throw new ApiError(422, 'revoke_limit', limitMessage);
  }
  if (coupon.platform_id) await discountsOf(deps).deleteDiscount(shopId, coupon.platform_id);
  const revokedBy = who.by === 'customer' ? `customer:${who.customerId}` : who.actor;
  const row = await db.transaction().execute(async (tx) => {
    // Lock the customer's row first (as redemptions do), so concurrent self-revokes count each other.
    await tx.updateTable('customers').set({ updated_at: now }).where('shop_id', '=', shopId).where('id', '=', coupon.customer_id).execute();
    if (who.by === 'customer' && (await selfRevokes(tx)) >= settings.limit) throw new ApiError(422, 'revoke_limit', limitMessage);
    const changed = await tx
      .updateTable('coupons')
      .set({ status: 'revoked', revoked_at: now, revoked_by: revokedBy, note: who.by === 'admin' ? who.note.trim() : null })
      .where('shop_id', '=', shopId)
      .where('id', '=', couponId)
      .where('status', '=', 'available')
      .executeTakeFirst();
    if (Number(changed.numUpdatedRows) !== 1) throw new ApiError(409, 'coupon_not_revocable', 'This coupon was already revoked');
    const spend = await tx.selectFrom('ledger_entries').select('id').where('shop_id', '=', shopId).where('source_type', '=', 'redemption').where('source_id', '=', couponId).where('type', '=', 'spend_point').executeTakeFirst();
    await appendEntries(tx, [
      {
        id: crypto.randomUUID(),
        shop_id: shopId,
        customer_id: coupon.customer_id,
        type: 'refund_point',
        points: coupon.points_spent,
        program_id: coupon.program_id,
        program_kind: coupon.program_kind,
        program_version: coupon.program_version,
        source_type: 'revoke',
        source_id: couponId,
        reverses_id: spend?.id ?? null,
        explanation: JSON.stringify({ code: coupon.code, revokedBy, ...(who.by === 'admin' ? { adminNote: who.note.trim() } : {}) }),
        created_at: now,
        available_at: null,
      },
    ]);
    return tx.selectFrom('coupons').selectAll().where('shop_id', '=', shopId).where('id', '=', couponId).executeTakeFirstOrThrow();
  });
  return { coupon: couponView(row, false), points: await balanceOf(db, shopId, coupon.customer_id, now) };
}

/** A shopper's coupons, newest first (at most `limit`, 100), with `revocable` for the storefront. */
export async function listShopperCoupons(deps: AppDeps, shopId: string, customerId: string, limit = 100): Promise<CouponView[]> {
  const at = nowOf(deps);
  const settings = await couponRevokeSettings(deps.db, shopId);
  const rows = await deps.db.selectFrom('coupons').selectAll().where('shop_id', '=', shopId).where('customer_id', '=', customerId).orderBy('created_at', 'desc').orderBy('id', 'desc').limit(limit).execute();
  return rows.map((r) => couponView(r, selfRevocable(r, settings, at)));
}

/** A customer's coupon history for the admin, newest first (at most `limit`, 250). Throws 404 for an unknown customer. */
export async function listCustomerCoupons(deps: AppDeps, shopId: string, customerId: string, limit = 250): Promise<AdminCouponView[]> {
  const customer = await deps.db.selectFrom('customers').select('id').where('shop_id', '=', shopId).where('id', '=', customerId).executeTakeFirst();
  if (!customer) throw notFound('not_found', 'This customer does not exist');
  const rows = await deps.db.selectFrom('coupons').selectAll().where('shop_id', '=', shopId).where('customer_id', '=', customerId).orderBy('created_at', 'desc').orderBy('id', 'desc').limit(limit).execute();
  return rows.map((r) => ({
    ...couponView(r, r.status === 'available'),
    rewardKind: r.program_kind,
    platformId: r.platform_id,
    usedAt: r.used_at,
    revokedAt: r.revoked_at,
    revokedBy: r.revoked_by,
    note: r.note,
  }));
}

/** A new coupon's own columns; `recordCoupon` fills the lifecycle ones (available, never used or revoked). */
export type NewCoupon = Pick<CouponsTable, 'id' | 'shop_id' | 'customer_id' | 'program_id' | 'program_kind' | 'program_version' | 'title' | 'points_spent' | 'code' | 'platform_id' | 'expires_at' | 'created_at'>;

/**
 * Records a coupon the shopper holds (`coupons`, listed by GET /proxy/coupons and the profile's
 * Coupons card), `available` and never used or revoked, in the caller's transaction; answers the
 * stored row. One insert for redemptions, referral rewards and milestone rewards alike.
 */
export async function recordCoupon(tx: Db, coupon: NewCoupon): Promise<CouponsTable> {
  const row: CouponsTable = { ...coupon, status: 'available', used_at: null, revoked_at: null, revoked_by: null, note: null };
  await INSERT_COUPON.run(tx, 'one', row);
  return row;
}

/**
 * Marks coupons used on an order (status `redeemed`, spec 002 §3 "used") by their codes; answers
 * how many changed. ingestOrder calls it with the order's `discount_codes`, in its transaction.
 */
export async function markCouponsRedeemed(db: Db, shopId: string, codes: readonly string[], at: string): Promise<number> {
  // The platform matches codes case-insensitively; ours are stored as issued (upper case unless a
  // merchant's prefix or voucher says otherwise): look up both spellings, by the (shop, code) index.
  const spellings = [...new Set(codes.flatMap((c) => [c, c.toUpperCase()]))].slice(0, 200);
  if (spellings.length === 0) return 0;
  const values: Record<string, unknown> = { shop: shopId, at };
  spellings.forEach((code, i) => (values[`code${i}`] = code));
  const result = await MARK_COUPONS_REDEEMED.run(db, String(spellings.length), values);
  return Number(result.numAffectedRows ?? 0n);
}

/** markCouponsRedeemed's update for `key` spellings (an order's codes), compiled once per count (server/db/compiled.ts). */
const MARK_COUPONS_REDEEMED = new CompiledOnce<string>((db, p, key) =>
  db
    .updateTable('coupons')
    .set({ status: 'redeemed', used_at: p.at! })
    .where('shop_id', '=', p.shop!)
    .where('code', 'in', Array.from({ length: Number(key) }, (_, i) => p[`code${i}`]!))
    .where('status', '=', 'available'),
);
