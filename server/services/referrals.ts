/**
 * Referrals at run time (issue 11; spec 002 §2 Referral whitelist, §3 Referral settings and
 * Activity referral, §8 "Failed to create referral link", §9 referral link limits; spec 000 §8
 * the referral link limit banner; spec 001 §8 "You have reached the referral limit").
 *
 * - A customer's referral link: one per customer with a stable code (`referral_links`), on the
 *   shop's domain as `https://<domain>/?ref=<code>`, or on the program's redirect URL with the same
 *   `ref` parameter. A new link counts against the plan's referral link limit
 *   (engine/allowance.ts `referralLinkAllowance`); an existing link is always answered.
 * - Attribution channel (the one realistic on the platform): the storefront widget keeps the `ref`
 *   code of the landing URL and writes it into the cart attributes as `_loyalty_referral_code`
 *   (underscore attributes are hidden at checkout); the platform copies cart attributes onto the
 *   order as `note_attributes`. The order's `landing_site` (`/?ref=<code>`, the first page of the
 *   buyer's session) is read as a fallback when the attribute is missing. Discount codes are not
 *   used: a friend's coupon is a reward, not the referral's key.
 * - The friend's first order through a code makes one referral per friend (`referrals`), either
 *   `completed` (both rewards issued) or `canceled` with the reason: anti-cheat (same customer,
 *   same e-mail, same device id, same shipping address — always — and the program's switches: same
 *   browser IP, same e-mail domain, existing customer), the advocate not eligible, or the
 *   advocate's per-customer referral limit. A whitelisted advocate or friend skips anti-cheat
 *   (never the self-referral check). A test or cancelled order makes no referral; the friend's
 *   order cancelled later cancels a completed referral (`order_cancelled`) and takes its points
 *   back. `pending` is part of the status vocabulary but not produced: a referral is decided when
 *   the friend's order arrives.
 * - Rewards (`referral.friend_reward`, `referral.customer_reward`): points are a ledger entry
 *   (`source_type` `referral`, `source_id` the referral id); a discount reward is decided in the
 *   order's transaction and made on the platform right after it commits, through the discount
 *   adapter (`AppDeps.platformDiscounts`, server/platform/discounts.ts), by
 *   server/services/referral-rewards.ts, which a periodic sweep retries while the platform fails;
 *   without an adapter the reward is recorded as not issued (`discounts_unavailable`).
 */
import { createHash } from 'node:crypto';
import { referralLinkAllowance } from '../../engine/allowance';
import { sql } from 'kysely';
import type { OrderFacts } from '../../engine/order';
import type { JsonObject, StoredDocument } from '../../engine/types';
import type { AppDeps } from '../deps';
import { groupReadKeys, readOncePerGroup, type Db } from '../db/database';
import type { LedgerEntriesTable, ShopsTable } from '../db/tables';
import { ApiError } from '../errors';
import { listDocuments } from '../store/documents';
import { appendEntries } from '../store/ledger';
import { findShop, shopSettings } from '../store/shops';
import { awardMilestones } from './milestones';

/** The cart attribute (order `note_attributes`) that carries the referral code. */
export const REFERRAL_ATTRIBUTE = '_loyalty_referral_code';
/** The cart attribute that carries the widget's device id (a random id kept in the browser). */
export const DEVICE_ATTRIBUTE = '_loyalty_device_id';

export const REFERRAL_KINDS = ['referral.program', 'referral.friend_reward', 'referral.customer_reward'] as const;

/** A referral's status (spec 002 §3 Activity referral). */
export type ReferralStatus = 'pending' | 'completed' | 'canceled';

/** Why a referral was canceled. */
export type CancelReason =
  | 'self_referral'
  | 'same_email'
  | 'same_device'
  | 'same_shipping_address'
  | 'same_ip'
  | 'same_email_domain'
  | 'existing_customer'
  | 'advocate_not_eligible'
  | 'referral_limit'
  | 'order_cancelled';

/** A reward as issued (stored as the referral's `friend_reward` / `advocate_reward`). */
export interface IssuedReward {
  /** `points`, `percentage_discount`, `amount_discount`, or `none` when no reward is configured. */
  type: string;
  /** Whole points, the percentage, or the amount in the shop currency (major units), by type. */
  value: number;
  issued: boolean;
  /** The discount code for a discount reward. */
  code?: string;
  /** The discount's platform id. */
  platformId?: string;
  /**
   * A discount reward decided with the order but whose code is made after the order's transaction
   * (server/services/referral-rewards.ts): what to create. Absent once issued or given up.
   */
  pending?: PendingDiscount;
  /** Why nothing was issued: `reward_inactive`, `discounts_unavailable`, `order_cancelled`, or the cancel reason. */
  reason?: string;
}

/** A referral discount to make on the platform, fixed when the referral was decided. */
export interface PendingDiscount {
  /** The coupon row's id, also the discount's `reference` on the platform. */
  couponId: string;
  customerId: string;
  /** The reward document (`referral.friend_reward` / `referral.customer_reward`) and its version then. */
  programId: string;
  programKind: string;
  programVersion: number;
  title: string;
  value: { type: 'percentage'; percent: number } | { type: 'amount'; amount: number };
  prefix: string;
  /** Ends of validity as ISO instants (`endsAt` null = permanent). */
  startsAt: string;
  endsAt: string | null;
  /** Minimum purchase in the shop currency (major units), 0 for none. */
  minimumPurchase: number;
}

/** A customer's link as answered to the storefront and the admin. */
export interface ReferralLink {
  code: string;
  url: string;
  createdAt: string;
}

/** A referral as the admin sees it. */
export interface ReferralView {
  id: string;
  advocateId: string;
  code: string;
  friendCustomerId: string;
  friendEmail: string;
  orderId: string;
  status: ReferralStatus;
  reason: string | null;
  friendReward: IssuedReward;
  advocateReward: IssuedReward;
  createdAt: string;
}

const obj = (v: unknown): Record<string, unknown> => (v !== null && typeof v === 'object' && !Array.isArray(v) ? (v as Record<string, unknown>) : {});
const str = (v: unknown): string => (typeof v === 'string' ? v : typeof v === 'number' || typeof v === 'bigint' ? String(v) : '');
const nowOf = (deps: Pick<AppDeps, 'now'>): Date => (deps.now ?? (() => new Date()))();

/** When a coupon of the reward's settings stops working (ISO instant), or null for a permanent one. */
export function couponEndsAt(coupon: Record<string, unknown>, from: Date): string | null {
  const end = new Date(from.getTime());
  const months = (n: number): string => (end.setUTCMonth(end.getUTCMonth() + n), end.toISOString());
  switch (coupon.couponExpiry) {
    case '14D':
      return new Date(from.getTime() + 14 * 86_400_000).toISOString();
    case '1M':
      return months(1);
    case '3M':
      return months(3);
    case '6M':
      return months(6);
    case '1Y':
      return months(12);
    case '2Y':
      return months(24);
    case 'custom':
      return typeof coupon.expiryDays === 'number' ? new Date(from.getTime() + coupon.expiryDays * 86_400_000).toISOString() : null;
    case 'specific':
      return typeof coupon.expiryDate === 'string' && /^\d{4}-\d{2}-\d{2}$/.test(coupon.expiryDate) ? `${coupon.expiryDate}T23:59:59.000Z` : null;
    default:
      return null;
  }
}

/** Normalises a code as typed or carried: trimmed, upper case, letters and digits only (at most 32). */
export function normalizeCode(raw: string): string {
  return raw
    .trim()
    .toUpperCase()
    .replace(/[^A-Z0-9]/g, '')
    .slice(0, 32);
}

const CODE_ALPHABET = 'ABCDEFGHJKLMNPQRSTUVWXYZ23456789';

/** A fresh random code: 8 characters without look-alikes (0/O, 1/I). */
function newCode(): string {
  const bytes = crypto.getRandomValues(new Uint8Array(8));
  return [...bytes].map((b) => CODE_ALPHABET[b % CODE_ALPHABET.length]).join('');
}

/** The shop's referral documents (singletons; the oldest wins if there are several). */
async function referralDocs(db: Db, shopId: string): Promise<{ program?: StoredDocument; friend?: StoredDocument; advocate?: StoredDocument }> {
  const docs = await listDocuments(db, shopId, REFERRAL_KINDS);
  return {
    program: docs.find((d) => d.kind === 'referral.program'),
    friend: docs.find((d) => d.kind === 'referral.friend_reward'),
    advocate: docs.find((d) => d.kind === 'referral.customer_reward'),
  };
}

/** The link's URL: the program's redirect URL or the shop's storefront domain, with `ref=<code>`. */
export function referralUrl(shop: Pick<ShopsTable, 'id' | 'settings'>, program: JsonObject | undefined, code: string): string {
  const redirect = typeof program?.redirectUrl === 'string' && program.redirectUrl.trim() !== '' ? program.redirectUrl.trim() : null;
  const domain = shopSettings(shop).domain;
  const base = redirect ?? `https://${typeof domain === 'string' && domain.trim() !== '' ? domain.trim() : shop.id}/`;
  try {
    const url = new URL(base);
    url.searchParams.set('ref', code);
    return url.toString();
  } catch {
    return `https://${shop.id}/?ref=${code}`;
  }
}

/** SHA-256 hex of a fingerprint value within one shop (the value itself is never stored). */
function fingerprintHash(shopId: string, kind: string, value: string): string {
  return createHash('sha256').update(`${shopId}\u0000${kind}\u0000${value}`).digest('hex');
}

/** Records a device id seen for a customer (the widget's `device_id`; anti-cheat compares it). */
export async function recordDevice(db: Db, shopId: string, customerId: string, deviceId: string, at: string): Promise<void> {
  const value = deviceId.trim().slice(0, 200);
  if (!value) return;
  await db
    .insertInto('customer_fingerprints')
    .values({ shop_id: shopId, customer_id: customerId, kind: 'device', value_hash: fingerprintHash(shopId, 'device', value), seen_at: at })
    .onConflict((oc) => oc.doNothing())
    .execute();
}

/** Whether the customer may refer under the program's `customerEligibility` (spec 002 §4: a left customer may not). */
function mayRefer(program: JsonObject, customer: { type: string; tier_id: string | null } | undefined): boolean {
  const type = customer?.type ?? 'member';
  if (type === 'left') return false;
  switch (program.customerEligibility) {
    case 'everyone':
      return true;
    case 'vip_members':
    case 'specific_tiers':
      return type === 'member' && (customer?.tier_id ?? null) !== null;
    default:
      return type === 'member';
  }
}

const linkFailed = (status: 404 | 409 | 500, path: string, message: string): ApiError =>
  new ApiError(status, 'referral_link_failed', 'Failed to create referral link', [{ path, message }]);

/**
 * The customer's referral link, created on first request (spec 002 §3 Customer.referral link).
 * `customerId` is the platform customer id; with `createCustomer` (the storefront) a customer the
 * app has not seen yet (a signed-in shopper who never ordered) gets a customer row with empty
 * personal fields, filled by their first order; without it (the admin) an unknown customer is a
 * 404 `referral_link_failed`. Returns `null` when the shop has no active referral program.
 * @throws ApiError 409 `referral_limit` "You have reached the referral limit" when a new link would
 *   pass the plan's referral link limit (spec 002 §9; links that exist keep working); 409
 *   `referral_link_failed` "Failed to create referral link" when the customer may not refer
 *   (left the program, or outside the program's eligibility), 500 with the same message when the
 *   database fails; 404 `unknown_shop`.
 */
export async function referralLink(deps: AppDeps, shopId: string, customerId: string, options: { deviceId?: string; createCustomer?: boolean } = {}): Promise<ReferralLink | null> {
  const shop = await findShop(deps.db, shopId);
  if (!shop) throw new ApiError(404, 'unknown_shop', `The shop ${shopId} has not installed the app`);
  const { program } = await referralDocs(deps.db, shopId);
  if (!program || program.data.status !== true) return null;
  const iso = nowOf(deps).toISOString();
  try {
    if (options.deviceId) await recordDevice(deps.db, shopId, customerId, options.deviceId, iso);
    const existing = await deps.db.selectFrom('referral_links').selectAll().where('shop_id', '=', shopId).where('customer_id', '=', customerId).executeTakeFirst();
    if (existing) return { code: existing.code, url: referralUrl(shop, program.data, existing.code), createdAt: existing.created_at };
    const customer = await deps.db.selectFrom('customers').select(['type', 'tier_id']).where('shop_id', '=', shopId).where('id', '=', customerId).executeTakeFirst();
    if (!customer && options.createCustomer !== true) throw linkFailed(404, '/customerId', 'No customer with this id');
    if (!mayRefer(program.data, customer)) throw linkFailed(409, '/customerId', 'This customer may not refer friends under the referral program');
    return await deps.db.transaction().execute(async (tx) => {
      const count = await tx.selectFrom('referral_links').select((eb) => eb.fn.countAll<string | number>().as('n')).where('shop_id', '=', shopId).executeTakeFirstOrThrow();
      const allowance = referralLinkAllowance(shop.plan, Number(count.n), shopSettings(shop).unlockUnlimitedOrderReferrals === true);
      if (allowance.state === 'reached') throw new ApiError(409, 'referral_limit', 'You have reached the referral limit', [{ path: '', message: `${allowance.used} of ${allowance.limit ?? 0} referral links on the current plan` }]);
      await tx
        .insertInto('customers')
        .values({ shop_id: shopId, id: customerId, email: '', first_name: '', last_name: '', created_at: iso, updated_at: iso })
        .onConflict((oc) => oc.columns(['shop_id', 'id']).doNothing())
        .execute();
      for (let attempt = 0; attempt < 6; attempt++) {
        await tx
          .insertInto('referral_links')
          .values({ shop_id: shopId, customer_id: customerId, code: newCode(), created_at: iso })
          .onConflict((oc) => oc.doNothing())
          .execute();
        const row = await tx.selectFrom('referral_links').selectAll().where('shop_id', '=', shopId).where('customer_id', '=', customerId).executeTakeFirst();
        if (row) return { code: row.code, url: referralUrl(shop, program.data, row.code), createdAt: row.created_at };
      }
      throw linkFailed(500, '/code', 'No free referral code was found');
    });
  } catch (e) {
    if (e instanceof ApiError) throw e;
    deps.logger?.error({ err: e, shopId, customerId }, 'referral link failed');
    throw linkFailed(500, '', 'The referral link could not be stored');
  }
}

/** The customer's existing link, or null (never creates one). */
export async function findReferralLink(db: Db, shopId: string, customerId: string): Promise<ReferralLink | null> {
  const [shop, row, docs] = await Promise.all([
    findShop(db, shopId),
    db.selectFrom('referral_links').selectAll().where('shop_id', '=', shopId).where('customer_id', '=', customerId).executeTakeFirst(),
    referralDocs(db, shopId),
  ]);
  if (!shop || !row) return null;
  return { code: row.code, url: referralUrl(shop, docs.program?.data, row.code), createdAt: row.created_at };
}

/** The shopper's link URL for the storefront (`GET /proxy/customer` referralUrl): null without a link or while the program is off. */
export async function activeReferralUrl(db: Db, shopId: string, customerId: string): Promise<string | null> {
  const row = await db.selectFrom('referral_links').select('code').where('shop_id', '=', shopId).where('customer_id', '=', customerId).executeTakeFirst();
  if (!row) return null;
  const [shop, docs] = await Promise.all([findShop(db, shopId), referralDocs(db, shopId)]);
  return shop && docs.program?.data.status === true ? referralUrl(shop, docs.program.data, row.code) : null;
}

/** The order's note attribute `name`, or ''. */
function noteAttribute(raw: Record<string, unknown>, name: string): string {
  for (const a of Array.isArray(raw.note_attributes) ? raw.note_attributes : []) {
    const attr = obj(a);
    if (str(attr.name) === name) return str(attr.value);
  }
  return '';
}

/** The referral code an order carries: its `_loyalty_referral_code` note attribute, else `ref` of its landing site. */
export function orderReferralCode(raw: Record<string, unknown>): string {
  const attribute = normalizeCode(noteAttribute(raw, REFERRAL_ATTRIBUTE));
  if (attribute) return attribute;
  const landing = str(raw.landing_site);
  if (!landing) return '';
  try {
    return normalizeCode(new URL(landing, 'https://landing.invalid').searchParams.get('ref') ?? '');
  } catch {
    return '';
  }
}

/** A shipping address reduced to what identifies a place: street, zip, country, lower case, single spaces. */
function addressKey(v: unknown): string {
  const a = obj(v);
  const parts = [a.address1, a.address2, a.zip, a.country_code ?? a.country].map((p) => str(p).toLowerCase().replace(/\s+/g, ' ').trim());
  return parts[0] || parts[2] ? parts.join('|') : '';
}

/** The order's fingerprints (kind → normalised value): device id, browser IP, shipping address. */
function orderFingerprints(raw: Record<string, unknown>): { kind: 'device' | 'ip' | 'address'; value: string }[] {
  const client = obj(raw.client_details);
  const prints: { kind: 'device' | 'ip' | 'address'; value: string }[] = [];
  const device = noteAttribute(raw, DEVICE_ATTRIBUTE).trim().slice(0, 200);
  if (device) prints.push({ kind: 'device', value: device });
  const ip = (str(raw.browser_ip) || str(client.browser_ip)).trim();
  if (ip) prints.push({ kind: 'ip', value: ip });
  const address = addressKey(raw.shipping_address);
  if (address) prints.push({ kind: 'address', value: address });
  return prints;
}

/**
 * The reward of a referral document: points as a ledger entry in `tx`; a discount is only decided
 * here (`pending`, what to create) and made on the platform after the order's transaction by
 * `issueReferralRewards` (server/services/referral-rewards.ts), so no platform call holds the database.
 */
async function issueReward(
  tx: Db,
  deps: AppDeps,
  shopId: string,
  doc: StoredDocument | undefined,
  customerId: string,
  referralId: string,
  role: 'friend' | 'advocate',
  orderId: string,
  at: string,
): Promise<IssuedReward> {
  if (!doc || doc.data.status !== true) return { type: 'none', value: 0, issued: false, reason: 'reward_inactive' };
  const type = str(doc.data.rewardType);
  const value = typeof doc.data.value === 'number' ? doc.data.value : 0;
  if (type === 'points') {
    const points = Math.floor(value);
    if (points <= 0) return { type, value: 0, issued: false, reason: 'reward_inactive' };
    const entry: LedgerEntriesTable = {
      id: crypto.randomUUID(),
      shop_id: shopId,
      customer_id: customerId,
      type: 'earn_point',
      points,
      program_id: doc.id,
      program_kind: doc.kind,
      program_version: doc.version,
      source_type: 'referral',
      source_id: referralId,
      reverses_id: null,
      explanation: JSON.stringify({ referralId, role, orderId, message: role === 'friend' ? `${points} points for a first order through a referral link` : `${points} points for referring a friend whose first order arrived` }),
      created_at: at,
      available_at: null,
    };
    await appendEntries(tx, [entry]);
    return { type, value: points, issued: true };
  }
  if (!deps.platformDiscounts) return { type, value, issued: false, reason: 'discounts_unavailable' };
  const coupon = obj(doc.data.coupon);
  const pending: PendingDiscount = {
    couponId: crypto.randomUUID(),
    customerId,
    programId: doc.id,
    programKind: doc.kind,
    programVersion: doc.version,
    title: role === 'friend' ? 'Referral reward for the friend' : 'Referral reward',
    value: type === 'percentage_discount' ? { type: 'percentage', percent: Math.min(100, value) } : { type: 'amount', amount: value },
    prefix: str(coupon.prefix),
    startsAt: at,
    endsAt: couponEndsAt(coupon, new Date(at)),
    minimumPurchase: typeof coupon.minimumPurchase === 'number' ? coupon.minimumPurchase : 0,
  };
  return { type, value, issued: false, pending };
}

/** The advocate's referral limit from the program (spec 002 §3 per-customer limit), or null for none. */
function perCustomerLimit(program: JsonObject, tierId: string | null): number | null {
  const limit = obj(program.perCustomerLimit);
  if (limit.mode === 'per_tier') {
    const tiers = Array.isArray(limit.tierLimits) ? limit.tierLimits.map(obj) : [];
    const mine = tiers.find((t) => tierId !== null && str(t.tierId) === tierId);
    return typeof mine?.limit === 'number' ? mine.limit : null;
  }
  return typeof limit.limit === 'number' ? limit.limit : null;
}

const emailDomain = (email: string): string => email.slice(email.lastIndexOf('@') + 1).toLowerCase();

/**
 * Order ingestion's referral step (called once inside `ingestOrder`'s transaction, after the
 * customer row is written and before the order's VIP tier stats are recorded). With an active
 * referral program it records the order's hashed fingerprints for its customer and, when the order
 * carries a referral code (REFERRAL_ATTRIBUTE, else `landing_site`'s `ref`) of another customer and
 * the friend has no referral yet, makes the friend's referral: canceled with its reason, or
 * completed with the friend's and the advocate's rewards. Safe to repeat: one referral per friend
 * (unique), and `ingestOrder` skips a duplicate order before this runs.
 */
export async function attributeReferral(tx: Db, deps: AppDeps, shopId: string, body: unknown, order: OrderFacts, at: string): Promise<void> {
  const friend = order.customer;
  if (!friend) return;
  const docs = await readOncePerGroup(deps.db, groupReadKeys.referralDocuments(shopId), () => referralDocs(tx, shopId));
  if (!docs.program || docs.program.data.status !== true) return;
  const raw = obj(body);
  const prints = orderFingerprints(raw).map((p) => ({ ...p, hash: fingerprintHash(shopId, p.kind, p.value) }));
  // A test or already-cancelled order never makes a referral (it would reward an order that does not count).
  const code = order.test || order.cancelled ? '' : orderReferralCode(raw);
  if (code) await decideReferral(tx, deps, shopId, raw, order, friend, code, prints, docs, at);
  if (prints.length > 0) {
    await tx
      .insertInto('customer_fingerprints')
      .values(prints.map((p) => ({ shop_id: shopId, customer_id: friend.id, kind: p.kind, value_hash: p.hash, seen_at: at })))
      .onConflict((oc) => oc.doNothing())
      .execute();
  }
}

async function decideReferral(
  tx: Db,
  deps: AppDeps,
  shopId: string,
  raw: Record<string, unknown>,
  order: OrderFacts,
  friend: NonNullable<OrderFacts['customer']>,
  code: string,
  prints: { kind: string; hash: string }[],
  docs: { program?: StoredDocument; friend?: StoredDocument; advocate?: StoredDocument },
  at: string,
): Promise<void> {
  const program = docs.program!.data;
  const link = await tx.selectFrom('referral_links').selectAll().where('shop_id', '=', shopId).where('code', '=', code).executeTakeFirst();
  if (!link) return;
  const already = await tx.selectFrom('referrals').select('id').where('shop_id', '=', shopId).where('friend_customer_id', '=', friend.id).executeTakeFirst();
  if (already) return;
  const advocate = await tx.selectFrom('customers').select(['id', 'email', 'type', 'tier_id']).where('shop_id', '=', shopId).where('id', '=', link.customer_id).executeTakeFirst();
  const antiCheat = obj(program.antiCheat);
  const whitelisted = await tx
    .selectFrom('referral_whitelist')
    .select('customer_id')
    .where('shop_id', '=', shopId)
    .where('customer_id', 'in', [link.customer_id, friend.id])
    .executeTakeFirst();

  let reason: CancelReason | null = null;
  if (friend.id === link.customer_id) reason = 'self_referral';
  if (!reason && !whitelisted) reason = await antiCheatReason(tx, shopId, raw, order, friend, advocate, link.customer_id, prints, antiCheat);
  if (!reason && !mayRefer(program, advocate)) reason = 'advocate_not_eligible';
  if (!reason) {
    const limit = perCustomerLimit(program, advocate?.tier_id ?? null);
    if (limit !== null) {
      const done = await tx
        .selectFrom('referrals')
        .select((eb) => eb.fn.countAll<string | number>().as('n'))
        .where('shop_id', '=', shopId)
        .where('advocate_id', '=', link.customer_id)
        .where('status', '=', 'completed')
        .executeTakeFirstOrThrow();
      if (Number(done.n) >= limit) reason = 'referral_limit';
    }
  }

  const id = crypto.randomUUID();
  const none = (why: string): IssuedReward => ({ type: 'none', value: 0, issued: false, reason: why });
  const friendReward = reason ? none(reason) : await issueReward(tx, deps, shopId, docs.friend, friend.id, id, 'friend', order.id, at);
  const advocateReward = reason ? none(reason) : await issueReward(tx, deps, shopId, docs.advocate, link.customer_id, id, 'advocate', order.id, at);
  await tx
    .insertInto('referrals')
    .values({
      id,
      shop_id: shopId,
      advocate_id: link.customer_id,
      code,
      friend_customer_id: friend.id,
      friend_email: friend.email,
      order_id: order.id,
      status: reason ? 'canceled' : 'completed',
      reason,
      friend_reward: JSON.stringify(friendReward),
      advocate_reward: JSON.stringify(advocateReward),
      rewards_pending: friendReward.pending || advocateReward.pending ? 1 : 0,
      created_at: at,
      updated_at: at,
    })
    .execute();
  // Referral milestones of the advocate (EVENTS' milestones; the friend's are settled by ingestOrder).
  if (!reason) await awardMilestones(tx, deps, shopId, link.customer_id, at);
}

/**
 * The friend's order was cancelled (orders/cancelled, called inside the cancellation's transaction
 * by server/services/refunds.ts): its completed referral becomes `canceled` (`order_cancelled`) and
 * the point rewards it gave are taken back with `minus_point` entries that reverse them (source
 * `referral`, `<referral id>:cancel`). Coupons already issued stay (the platform code is single-use
 * and may be spent); a discount whose code was not made yet is given up (`order_cancelled`). Safe
 * to repeat: a canceled referral is left alone.
 */
export async function cancelOrderReferral(tx: Db, shopId: string, orderId: string, at: string): Promise<void> {
  const referral = await tx.selectFrom('referrals').select(['id', 'status']).where('shop_id', '=', shopId).where('order_id', '=', orderId).where('status', '=', 'completed').executeTakeFirst();
  if (!referral) return;
  const rewards = await tx.selectFrom('ledger_entries').selectAll().where('shop_id', '=', shopId).where('source_type', '=', 'referral').where('source_id', '=', referral.id).where('points', '>', 0).execute();
  await appendEntries(
    tx,
    rewards.map((r) => ({
      id: crypto.randomUUID(),
      shop_id: shopId,
      customer_id: r.customer_id,
      type: 'minus_point',
      points: -r.points,
      program_id: r.program_id,
      program_kind: r.program_kind,
      program_version: r.program_version,
      source_type: 'referral',
      source_id: `${referral.id}:cancel`,
      reverses_id: r.id,
      explanation: JSON.stringify({ referralId: referral.id, orderId, message: `${r.points} referral points taken back: the friend's order was cancelled` }),
      created_at: at,
      available_at: null,
    })),
  );
  // A discount reward whose code was not made yet is given up with the referral.
  const row = await tx.selectFrom('referrals').select(['friend_reward', 'advocate_reward']).where('shop_id', '=', shopId).where('id', '=', referral.id).executeTakeFirstOrThrow();
  const giveUp = (text: string): string => {
    const reward = JSON.parse(text) as IssuedReward;
    if (!reward.pending) return text;
    const { pending: _dropped, ...rest } = reward;
    return JSON.stringify({ ...rest, issued: false, reason: 'order_cancelled' });
  };
  await tx
    .updateTable('referrals')
    .set({ status: 'canceled', reason: 'order_cancelled', friend_reward: giveUp(row.friend_reward), advocate_reward: giveUp(row.advocate_reward), rewards_pending: 0, updated_at: at })
    .where('shop_id', '=', shopId)
    .where('id', '=', referral.id)
    .execute();
}

/** The first anti-cheat rule the friend's order breaks, or null. */
async function antiCheatReason(
  tx: Db,
  shopId: string,
  raw: Record<string, unknown>,
  order: OrderFacts,
  friend: NonNullable<OrderFacts['customer']>,
  advocate: { email: string } | undefined,
  advocateId: string,
  prints: { kind: string; hash: string }[],
  antiCheat: Record<string, unknown>,
): Promise<CancelReason | null> {
  const friendEmail = friend.email.trim().toLowerCase();
  const advocateEmail = (advocate?.email ?? '').trim().toLowerCase();
  if (friendEmail !== '' && friendEmail === advocateEmail) return 'same_email';
  const checked = prints.filter((p) => p.kind !== 'ip' || antiCheat.blockSameIp === true);
  if (checked.length > 0) {
    const matches = await tx
      .selectFrom('customer_fingerprints')
      .select('kind')
      .where('shop_id', '=', shopId)
      .where('customer_id', '=', advocateId)
      .where('value_hash', 'in', checked.map((p) => p.hash))
      .execute();
    const kinds = new Set(matches.map((m) => m.kind));
    if (kinds.has('device')) return 'same_device';
    if (kinds.has('address')) return 'same_shipping_address';
    if (kinds.has('ip')) return 'same_ip';
  }
  if (antiCheat.blockSameEmailDomain === true && friendEmail !== '' && advocateEmail !== '' && emailDomain(friendEmail) === emailDomain(advocateEmail)) return 'same_email_domain';
  if (antiCheat.blockExistingCustomers === true && (await isExistingCustomer(tx, shopId, raw, order, friend.id))) return 'existing_customer';
  return null;
}

/**
 * Whether the friend ordered before this order: the platform's `customer.orders_count` above 1, or
 * orders counted for them before (VIP tier stats), or an earlier order award on the ledger.
 */
async function isExistingCustomer(tx: Db, shopId: string, raw: Record<string, unknown>, order: OrderFacts, customerId: string): Promise<boolean> {
  const ordersCount = Number(obj(raw.customer).orders_count);
  if (Number.isFinite(ordersCount) && ordersCount > 1) return true;
  const stats = await tx
    .selectFrom('customer_tier_stats')
    .select((eb) => eb.fn.sum<string | number | null>('orders').as('n'))
    .where('shop_id', '=', shopId)
    .where('customer_id', '=', customerId)
    .executeTakeFirst();
  if (Number(stats?.n ?? 0) > 0) return true;
  const earlier = await tx
    .selectFrom('ledger_entries')
    .select('id')
    .where('shop_id', '=', shopId)
    .where('customer_id', '=', customerId)
    .where('source_type', '=', 'order')
    .where('source_id', '!=', order.id)
    .limit(1)
    .executeTakeFirst();
  return earlier !== undefined;
}

/** A referral row as the admin sees it. */
function toView(r: {
  id: string;
  advocate_id: string;
  code: string;
  friend_customer_id: string;
  friend_email: string;
  order_id: string;
  status: string;
  reason: string | null;
  friend_reward: string;
  advocate_reward: string;
  created_at: string;
}): ReferralView {
  return {
    id: r.id,
    advocateId: r.advocate_id,
    code: r.code,
    friendCustomerId: r.friend_customer_id,
    friendEmail: r.friend_email,
    orderId: r.order_id,
    status: r.status as ReferralStatus,
    reason: r.reason,
    friendReward: JSON.parse(r.friend_reward) as IssuedReward,
    advocateReward: JSON.parse(r.advocate_reward) as IssuedReward,
    createdAt: r.created_at,
  };
}

/** The referrals a customer made as advocate, newest first (at most `limit`, 1–100), and their link. */
export async function customerReferrals(db: Db, shopId: string, customerId: string, limit = 50): Promise<{ link: ReferralLink | null; referrals: ReferralView[]; referredBy: ReferralView | null }> {
  const rows = await db
    .selectFrom('referrals')
    .selectAll()
    .where('shop_id', '=', shopId)
    .where('advocate_id', '=', customerId)
    .orderBy('created_at', 'desc')
    .orderBy('id', 'desc')
    .limit(Math.min(100, Math.max(1, Math.trunc(limit))))
    .execute();
  const by = await db.selectFrom('referrals').selectAll().where('shop_id', '=', shopId).where('friend_customer_id', '=', customerId).executeTakeFirst();
  return { link: await findReferralLink(db, shopId, customerId), referrals: rows.map(toView), referredBy: by ? toView(by) : null };
}

/** A whitelisted customer (spec 002 §2 Referral whitelist). */
export interface WhitelistEntry {
  customerId: string;
  email: string;
  firstName: string;
  lastName: string;
  /** Who added it: `admin:<user id>`. */
  actor: string;
  addedAt: string;
}

export const WHITELIST_SORTS = ['added_desc', 'added_asc', 'email_asc', 'email_desc'] as const;
export type WhitelistSort = (typeof WHITELIST_SORTS)[number];

/**
 * One page of the shop's referral whitelist with the total (spec 002 §2: search by full e-mail,
 * sort, pagination with items per page). `search` matches a full e-mail in any case; `limit`
 * 1–100; `page` from 1.
 */
export async function listWhitelist(db: Db, shopId: string, query: { search?: string; sort?: WhitelistSort; limit?: number; page?: number } = {}): Promise<{ data: WhitelistEntry[]; total: number }> {
  const limit = Math.min(100, Math.max(1, Math.trunc(query.limit ?? 20)));
  const page = Math.max(1, Math.trunc(query.page ?? 1));
  const search = (query.search ?? '').trim().toLowerCase();
  let q = db
    .selectFrom('referral_whitelist as w')
    .leftJoin('customers as c', (j) => j.onRef('c.shop_id', '=', 'w.shop_id').onRef('c.id', '=', 'w.customer_id'))
    .where('w.shop_id', '=', shopId);
  if (search) q = q.where(sql<string>`lower(c.email)`, '=', search);
  const total = await q.select((eb) => eb.fn.countAll<string | number>().as('n')).executeTakeFirstOrThrow();
  const sort = query.sort ?? 'added_desc';
  let rows = q.select(['w.customer_id', 'w.actor', 'w.created_at', 'c.email', 'c.first_name', 'c.last_name']);
  if (sort === 'added_asc') rows = rows.orderBy('w.created_at', 'asc').orderBy('w.customer_id', 'asc');
  else if (sort === 'email_asc') rows = rows.orderBy('c.email', 'asc').orderBy('w.customer_id', 'asc');
  else if (sort === 'email_desc') rows = rows.orderBy('c.email', 'desc').orderBy('w.customer_id', 'desc');
  else rows = rows.orderBy('w.created_at', 'desc').orderBy('w.customer_id', 'desc');
  const data = await rows.limit(limit).offset((page - 1) * limit).execute();
  return {
    total: Number(total.n),
    data: data.map((r) => ({ customerId: r.customer_id, email: r.email ?? '', firstName: r.first_name ?? '', lastName: r.last_name ?? '', actor: r.actor, addedAt: r.created_at })),
  };
}

/**
 * Adds a customer, named by id or by full e-mail (any case), to the whitelist; adding one already
 * there changes nothing. Answers the entry.
 * @throws ApiError 422 `validation_failed` when neither is given; 404 `customer_not_found` at
 *   `/email` or `/customerId` when the shop has no such customer.
 */
export async function addToWhitelist(db: Db, shopId: string, who: { customerId?: string; email?: string }, actor: string, at: string): Promise<WhitelistEntry> {
  const email = (who.email ?? '').trim().toLowerCase();
  const id = (who.customerId ?? '').trim();
  if (!email && !id) throw new ApiError(422, 'validation_failed', 'This field is required', [{ path: '/email', message: 'This field is required' }]);
  let q = db.selectFrom('customers').select(['id', 'email', 'first_name', 'last_name']).where('shop_id', '=', shopId);
  q = id ? q.where('id', '=', id) : q.where(sql<string>`lower(email)`, '=', email);
  const customer = await q.executeTakeFirst();
  if (!customer) {
    const path = id ? '/customerId' : '/email';
    throw new ApiError(404, 'customer_not_found', 'No customer found', [{ path, message: id ? 'No customer with this id' : 'No customer with this email' }]);
  }
  await db
    .insertInto('referral_whitelist')
    .values({ shop_id: shopId, customer_id: customer.id, actor, created_at: at })
    .onConflict((oc) => oc.columns(['shop_id', 'customer_id']).doNothing())
    .execute();
  const row = await db.selectFrom('referral_whitelist').selectAll().where('shop_id', '=', shopId).where('customer_id', '=', customer.id).executeTakeFirstOrThrow();
  return { customerId: customer.id, email: customer.email, firstName: customer.first_name, lastName: customer.last_name, actor: row.actor, addedAt: row.created_at };
}

/** Removes customers (1–250 ids) from the whitelist; answers how many were on it. */
export async function removeFromWhitelist(db: Db, shopId: string, customerIds: readonly string[]): Promise<number> {
  if (customerIds.length === 0) return 0;
  const result = await db.deleteFrom('referral_whitelist').where('shop_id', '=', shopId).where('customer_id', 'in', customerIds.slice(0, 250)).executeTakeFirst();
  return Number(result.numDeletedRows);
}
