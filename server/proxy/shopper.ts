/**
 * Storefront API reads for shoppers (issue 11, docs/storefront-api.md "Calls"): the balance card
 * (`GET /proxy/customer`), ways to earn, rewards and the points history. Mounted by
 * server/proxy/routes.ts behind the app-proxy signature check and the rate limit.
 *
 * The shopper is only ever `c.var.customerId` (the signed `logged_in_customer_id`, null for a
 * guest): no call takes a customer id from the query or the body, so one shopper cannot read
 * another's data. Every query filters by the signed shop. Points are whole points; amounts in
 * `nextTier` are minor currency units when the tier method is `amount_spent`.
 *
 * These are the widget's hot paths (`npm run bench:storefront`): each call is a handful of indexed
 * statements (the customer by primary key, the customer's ledger through `ledger_entries_customer`
 * and `ledger_entries_pending`, the shop row, the shop's programs), no per-row work in JavaScript
 * beyond the page answered.
 */
import { Hono, type Context } from 'hono';
import { sql } from 'kysely';
import type { AppDeps } from '../deps';
import type { Db } from '../db/database';
import { CompiledOnce } from '../db/compiled';
import { shopSettings } from '../services/settings';
import { ApiError } from '../errors';
import { listDocuments } from '../store/documents';
import { assessmentMonths, assessTier, type EntryMethod, type TierStats } from '../../engine/tiers';
import { currencyExponent } from '../../engine/money';
import { localDate, windowPosition } from '../../engine/store-time';
import type { JsonObject, StoredDocument } from '../../engine/types';
import type { LedgerEntriesTable } from '../db/tables';
import { tierContext, type TierContext } from '../services/tiers';
import type { ProxyEnv } from './middleware';
import { activeReferralUrl } from '../services/referrals';
import { findStorefrontLanguage } from '../../engine/storefront-languages';

/** History entries per page. */
export const HISTORY_PAGE_SIZE = 20;

/** `GET /proxy/customer` for a signed-in shopper. */
export interface ShopperView {
  id: string;
  firstName: string;
  /** Available points (balance less pending awards). */
  points: number;
  /** Awarded points not available yet (pending points). */
  pendingPoints: number;
  /** Points ever earned (positive entries, a pending award counted once). */
  lifetimePoints: number;
  tier: { id: string; name: string } | null;
  /** The next VIP tier up and how far the shopper is (`current`/`target` in the method's units; `progress` 0..1), null at the top or without a launched VIP program. */
  nextTier: { id: string; name: string; method: 'points' | 'amount_spent' | 'orders'; current: number; target: number; progress: number } | null;
  /** The shopper's referral link (REFERRAL fills it; null until then). */
  referralUrl: string | null;
  /** `MM/DD` or null. */
  birthday: string | null;
}

/** One line of `GET /proxy/ways-to-earn`. */
export interface WayToEarn {
  id: string;
  kind: string;
  event: string;
  title: string;
  /** Points the program gives (per `rateMoney` / `rateItem` for place-order by amount or quantity). */
  points: number;
  /** The award in plain words with the shop's point label (English for now). */
  pointsText: string;
  action: 'order' | 'claim' | 'visit' | 'link' | 'form' | 'none';
  url?: string;
  /** A once-per-lifetime program the shopper already earned from. */
  completed: boolean;
}

/** One line of `GET /proxy/rewards`. */
export interface RewardView {
  id: string;
  kind: string;
  rewardType: string;
  title: string;
  /** Points a redemption costs (per unit for a flexible reward). */
  pointsCost: number;
  minPoints?: number;
  maxPoints?: number;
  /** The shopper's available points reach the cost (or the minimum); false for guests. */
  affordable: boolean;
}

/** One line of `GET /proxy/history`. */
export interface HistoryEntry {
  id: string;
  type: string;
  points: number;
  description: string;
  createdAt: string;
}

const METHOD: Record<EntryMethod, 'points' | 'amount_spent' | 'orders'> = { points_earned: 'points', amount_spent: 'amount_spent', number_of_orders: 'orders' };

const str = (v: unknown): string | undefined => (typeof v === 'string' && v.length > 0 ? v : undefined);
const int = (v: unknown): number | undefined => (typeof v === 'number' && Number.isFinite(v) ? v : undefined);
const obj = (v: unknown): Record<string, unknown> => (v !== null && typeof v === 'object' && !Array.isArray(v) ? (v as Record<string, unknown>) : {});

/** A storefront language code as the platform sends it (`fr`, `pt-BR`, `zh-TW`). */
const LANGUAGE = /^[A-Za-z]{2,3}(-[A-Za-z0-9]{2,4})?$/;

/** What the reads need about the shop: one primary-key read. */
export interface ShopFacts {
  currency: string;
  timeZone: string;
  /** The shop's primary storefront language (settings `primaryLanguageStorefront`, else `en`). */
  language: string;
  pointLabel: { singular: string; plural: string };
}

async function shopFacts(db: Db, shopId: string): Promise<ShopFacts> {
  const [row, configured] = await Promise.all([db.selectFrom('shops').select(['currency', 'iana_timezone', 'settings']).where('id', '=', shopId).executeTakeFirst(), shopSettings(db, shopId)]);
  if (!row) throw new ApiError(404, 'unknown_shop', 'This shop has not installed the app');
  const settings = obj(JSON.parse(row.settings) as unknown);
  const { singular, plural } = configured.general.pointLabel;
  return {
    currency: row.currency,
    timeZone: row.iana_timezone,
    language: str(settings.primaryLanguageStorefront) ?? 'en',
    // The custom point label (Settings → General, server/services/settings.ts).
    pointLabel: { singular, plural },
  };
}

/** `?language=`: a storefront language code, else the shop's primary one. Throws 400 `invalid_query` at `language`. */
function languageOf(c: Context<ProxyEnv>, shop: ShopFacts): string {
  const asked = c.req.query('language');
  if (asked === undefined || asked === '') return shop.language;
  if (!LANGUAGE.test(asked)) throw new ApiError(400, 'invalid_query', 'Value invalid', [{ path: 'language', message: 'Use a storefront language code such as fr or pt-BR' }]);
  return asked;
}

/** A program's title in `language` (its `translateTitle` in that language or the one the storefront matching rule finds, then the default title). */
export function titleIn(data: JsonObject, language: string, fallback: string): string {
  const translated = obj(data.translateTitle);
  const exact = str(translated[language]);
  if (exact !== undefined) return exact;
  // The storefront matching rule (engine/storefront-languages.ts): `he` finds a name written for he-IL, `pt-BR` one for pt, `zh-Hant-HK` one for zh-TW.
  const written = Object.keys(translated).filter((code) => str(translated[code]) !== undefined);
  const match = written.length > 0 ? findStorefrontLanguage(language, written) : undefined;
  return (match === undefined ? undefined : str(translated[match])) ?? str(data.title) ?? fallback;
}

/** A document is on the storefront today: active and within its store-local date window. */
const live = (doc: StoredDocument, now: Date, timeZone: string): boolean => doc.data.status === true && windowPosition(now, timeZone, str(doc.data.startDate), str(doc.data.endDate)) === 'within';

/** Kinds of a family in the admin's order (family, category, `x-order`), per registry. */
const kindOrders = new WeakMap<AppDeps['registry'], Map<string, number>>();
function kindOrder(registry: AppDeps['registry']): Map<string, number> {
  let order = kindOrders.get(registry);
  if (!order) {
    order = new Map(registry.summaries().map((k, i) => [k.id, i]));
    kindOrders.set(registry, order);
  }
  return order;
}

/**
 * What every storefront read needs about a shop: its facts, the earning programs and redeem
 * rewards on the storefront today (in the admin's kind order, then oldest first) and the VIP tier
 * context. Read in four statements and kept for a moment by {@link ShopConfigCache}.
 */
export interface ShopConfig {
  facts: ShopFacts;
  earning: StoredDocument[];
  redeem: StoredDocument[];
  tiers: TierContext;
  /** Ids of the earning programs a shopper earns from once in a lifetime (their `completed` is looked up). */
  onceIds: string[];
  /** Ways-to-earn lines by language, filled as asked: each line's id and its JSON without `completed` and the closing brace. */
  rendered: Map<string, { id: string; json: string }[]>;
}

/** Reads a shop's ShopConfig at `now`. Throws ApiError 404 `unknown_shop` for a shop that has not installed the app. */
export async function readShopConfig(deps: AppDeps, shopId: string, now: Date): Promise<ShopConfig> {
  const facts = await shopFacts(deps.db, shopId);
  const order = kindOrder(deps.registry);
  const families = new Map(deps.registry.kinds.filter((k) => k.family === 'earning' || k.family === 'redeem').map((k) => [k.id, k.family]));
  // listDocuments answers oldest first; the stable sort keeps that inside each kind.
  const docs = (await listDocuments(deps.db, shopId, [...families.keys()]))
    .filter((d) => live(d, now, facts.timeZone))
    .sort((a, b) => (order.get(a.kind) ?? Number.MAX_SAFE_INTEGER) - (order.get(b.kind) ?? Number.MAX_SAFE_INTEGER));
  const earning = docs.filter((d) => families.get(d.kind) === 'earning');
  return {
    facts,
    earning,
    redeem: docs.filter((d) => families.get(d.kind) === 'redeem'),
    tiers: await tierContext(deps.db, shopId),
    onceIds: earning.filter((d) => onceInLifetime(d.data)).map((d) => d.id),
    rendered: new Map(),
  };
}

/**
 * Per-shop ShopConfig kept for `ttlMs` milliseconds (`STOREFRONT_CACHE_MS`, 1,000 by default; 0
 * reads every time): the widget's calls then cost only the shopper's own statements. A merchant's
 * change to a program, reward, tier or shop setting shows on the storefront within `ttlMs`, in
 * every server process. An entry also lapses when the app's clock (`deps.now`) moved by `ttlMs`
 * since it was read, so a date window opening or closing is seen at once by a clock that jumps.
 */
export class ShopConfigCache {
  private readonly entries = new Map<string, { at: number; clock: number; config: Promise<ShopConfig> }>();

  constructor(
    private readonly deps: AppDeps,
    readonly ttlMs: number,
  ) {}

  /** The shop's config at `now`, read again when older than the TTL. Rejects as readShopConfig does (never kept). */
  get(shopId: string, now: Date): Promise<ShopConfig> {
    if (this.ttlMs <= 0) return readShopConfig(this.deps, shopId, now);
    const at = performance.now();
    const hit = this.entries.get(shopId);
    if (hit && at - hit.at < this.ttlMs && Math.abs(now.getTime() - hit.clock) < this.ttlMs) return hit.config;
    if (this.entries.size >= 10_000) for (const [key, e] of this.entries) if (at - e.at >= this.ttlMs) this.entries.delete(key);
    const config = readShopConfig(this.deps, shopId, now);
    this.entries.set(shopId, { at, clock: now.getTime(), config });
    config.catch(() => {
      if (this.entries.get(shopId)?.config === config) this.entries.delete(shopId);
    });
    return config;
  }
}

/** `STOREFRONT_CACHE_MS` (milliseconds; 1,000 when unset or not a number ≥ 0). */
export function storefrontCacheMs(env: Readonly<Record<string, string | undefined>> = process.env): number {
  const n = Number(env.STOREFRONT_CACHE_MS);
  return env.STOREFRONT_CACHE_MS !== undefined && env.STOREFRONT_CACHE_MS.trim() !== '' && Number.isFinite(n) && n >= 0 ? n : 1000;
}


/** The stat column of each entry method (customer_tier_stats). */
const STAT_COLUMN = { points_earned: 's.tier_points', amount_spent: 's.amount_spent_minor', number_of_orders: 's.orders' } as const;

/** Variant key of {@link SHOPPER_ROW}: `plain`, or `tier:<method>:<from|all>` with the tier stat. */
const shopperRowKey = (method: EntryMethod | null, hasFrom: boolean): string => (method ? `tier:${method}:${hasFrom ? 'from' : 'all'}` : 'plain');

/**
 * One statement for the balance card: the customer by primary key with their balance and lifetime
 * points (both kept on the row, server/store/ledger.ts, as the admin's profile shows them); the pending sum through the partial index
 * `ledger_entries_pending`; whether the shopper has a referral link; and, with a launched VIP program, the entry method's stat over the
 * assessment window from the customer's reset month on — the same rows and bounds as
 * server/services/tiers.ts `periodStats`, one column instead of three.
 */
const SHOPPER_ROW = new CompiledOnce<'shop' | 'customer' | 'now' | 'from' | 'to', { first_name: string; tier_id: string | null; birthday: string | null; points_balance: number; earned: number | null; pending: number | null; referral_code: string | null; stat: number | null }>((db, p, key) => {
  const [, method, window] = key.split(':') as [string, EntryMethod | undefined, string | undefined];
  return db
    .selectFrom('customers as c')
    .select([
      'c.first_name',
      'c.tier_id',
      'c.birthday',
      'c.points_balance',
      'c.points_earned as earned',
      (eb) =>
        eb
          .selectFrom('ledger_entries as pe')
          .select(sql<number>`coalesce(sum(pe.points), 0)`.as('p'))
          .whereRef('pe.shop_id', '=', 'c.shop_id')
          .whereRef('pe.customer_id', '=', 'c.id')
          .where('pe.available_at', 'is not', null)
          .where('pe.available_at', '>', p.now)
          .as('pending'),
      // Whether the shopper has a referral link at all (most have none: no further statement then).
      (eb) => eb.selectFrom('referral_links as rl').select('rl.code').whereRef('rl.shop_id', '=', 'c.shop_id').whereRef('rl.customer_id', '=', 'c.id').as('referral_code'),
      (eb) => {
        if (!method) return sql<number | null>`null`.as('stat');
        let q = eb
          .selectFrom('customer_tier_stats as s')
          .leftJoin('customer_tier_state as st', (j) => j.onRef('st.shop_id', '=', 's.shop_id').onRef('st.customer_id', '=', 's.customer_id'))
          .select(sql<number>`coalesce(sum(${sql.ref(STAT_COLUMN[method])}), 0)`.as('v'))
          .whereRef('s.shop_id', '=', 'c.shop_id')
          .whereRef('s.customer_id', '=', 'c.id')
          .where('s.month', '<=', p.to)
          .where((w) => w.or([w('st.counted_from', 'is', null), w('s.month', '>=', w.ref('st.counted_from'))]));
        if (window === 'from') q = q.where('s.month', '>=', p.from);
        return q.as('stat');
      },
    ])
    .where('c.shop_id', '=', p.shop)
    .where('c.id', '=', p.customer);
});

/** Available points of one shopper (rewards' affordability): the balance less what is still pending. */
const AVAILABLE = new CompiledOnce<'shop' | 'customer' | 'now', { points_balance: number; pending: number | null }>((db, p) =>
  db
    .selectFrom('customers as c')
    .select([
      'c.points_balance',
      (eb) =>
        eb
          .selectFrom('ledger_entries as pe')
          .select(sql<number>`coalesce(sum(pe.points), 0)`.as('p'))
          .whereRef('pe.shop_id', '=', 'c.shop_id')
          .whereRef('pe.customer_id', '=', 'c.id')
          .where('pe.available_at', 'is not', null)
          .where('pe.available_at', '>', p.now)
          .as('pending'),
    ])
    .where('c.shop_id', '=', p.shop)
    .where('c.id', '=', p.customer),
);

async function availablePoints(db: Db, shopId: string, customerId: string, nowIso: string): Promise<number> {
  const row = (await AVAILABLE.rows(db, 'one', { shop: shopId, customer: customerId, now: nowIso }))[0];
  return row ? Number(row.points_balance) - Number(row.pending ?? 0) : 0;
}

/**
 * The balance card of one shopper: balances, tier and the next tier's progress (while the VIP
 * program is launched). A signed-in shopper the app has no record of yet has zero points.
 */
export async function shopperView(deps: AppDeps, config: ShopConfig, shopId: string, customerId: string, now: Date): Promise<ShopperView> {
  const ctx = config.tiers;
  const assessing = ctx.launched && ctx.tiers.length > 0;
  const window = assessing ? assessmentMonths(ctx.settings.assessment, localDate(now, ctx.timeZone)) : null;
  const row = (await SHOPPER_ROW.rows(deps.db, shopperRowKey(assessing ? ctx.settings.entryMethod : null, Boolean(window?.from)), { shop: shopId, customer: customerId, now: now.toISOString(), from: window?.from ?? null, to: window?.to ?? null }))[0];
  if (!row) return { id: customerId, firstName: '', points: 0, pendingPoints: 0, lifetimePoints: 0, tier: null, nextTier: null, referralUrl: null, birthday: null };
  const b = { balance: Number(row.points_balance), pending: Number(row.pending ?? 0), lifetime: Number(row.earned ?? 0), row };
  let tier: ShopperView['tier'] = null;
  let nextTier: ShopperView['nextTier'] = null;
  if (row.tier_id) {
    const t = ctx.tiers.find((x) => x.id === row.tier_id);
    if (t) tier = { id: t.id, name: t.name };
    else {
      // A partner (B2B) tier is a document of its own kind.
      const doc = await deps.db.selectFrom('documents').select(['id', 'data']).where('shop_id', '=', shopId).where('id', '=', row.tier_id).executeTakeFirst();
      if (doc) {
        const data = obj(JSON.parse(doc.data) as unknown);
        tier = { id: doc.id, name: str(data.name) ?? str(data.title) ?? doc.id };
      }
    }
  }
  if (assessing) {
    // Only the entry method's stat is read; assessTier looks at no other.
    const seen = Number(row.stat ?? 0);
    const method = ctx.settings.entryMethod;
    const stats: TierStats = { tierPoints: method === 'points_earned' ? seen : 0, amountSpentMinor: method === 'amount_spent' ? seen : 0, orders: method === 'number_of_orders' ? seen : 0 };
    const next = assessTier(ctx.tiers, method, stats, ctx.exponent).explanation;
    if (next.next) {
      const target = next.next.required;
      nextTier = { id: next.next.tierId, name: next.next.tierName, method: METHOD[method], current: next.seen, target, progress: target > 0 ? Math.min(1, Math.max(0, next.seen / target)) : 1 };
    }
  }
  return {
    id: customerId,
    firstName: b.row.first_name,
    points: b.balance - b.pending,
    pendingPoints: b.pending,
    lifetimePoints: b.lifetime,
    tier,
    nextTier,
    referralUrl: row.referral_code === null ? null : await activeReferralUrl(deps.db, shopId, customerId),
    birthday: b.row.birthday,
  };
}

/** Earning events a shopper completes by following a link and claiming (social follows, shares, joins). */
const CLAIM_EVENTS = new Set(['follow_instagram', 'follow_pinterest', 'follow_tiktok', 'follow_twitter', 'join_discord', 'join_line', 'join_telegram', 'join_whatsapp', 'like_facebook', 'share_facebook', 'share_twitter', 'social_activity', 'subscribe_youtube']);

function actionOf(event: string, data: JsonObject): Pick<WayToEarn, 'action' | 'url'> {
  if (event === 'place_order') return { action: 'order' };
  if (event === 'interact_website' || event === 'streak_interact_website') return { action: 'visit' };
  if (event === 'birthday' || event === 'sign_up_newsletter') return { action: 'form' };
  const url = str(data.socialUrl) ?? str(data.surveyUrl) ?? str(data.googleMapsUrl) ?? str(data.redirectLink);
  if (CLAIM_EVENTS.has(event)) return url ? { action: 'claim', url } : { action: 'claim' };
  if (event === 'fill_survey' || event === 'google_maps_review' || event === 'write_review') return url ? { action: 'link', url } : { action: 'link' };
  return { action: 'none' };
}

const currencyFormats = new Map<string, Intl.NumberFormat>();
function money(amountMajor: number, currency: string): string {
  let f = currencyFormats.get(currency);
  if (!f) {
    try {
      f = new Intl.NumberFormat('en-US', { style: 'currency', currency, minimumFractionDigits: 0, maximumFractionDigits: currencyExponent(currency) });
    } catch {
      f = new Intl.NumberFormat('en-US');
    }
    currencyFormats.set(currency, f);
  }
  return f.format(amountMajor);
}

/** `10 points for every $100 spent`, `25 points per order`, `100 points`. */
function pointsTextOf(event: string, data: JsonObject, shop: ShopFacts): { points: number; text: string } {
  const points = int(data.earnPoint) ?? 0;
  const label = (n: number): string => `${n.toLocaleString('en-US')} ${n === 1 ? shop.pointLabel.singular : shop.pointLabel.plural}`;
  if (event === 'place_order') {
    const by = str(data.earnBy) ?? 'order';
    if (by === 'fixed_order') return { points, text: `${label(points)} per order` };
    if (by === 'quantity') {
      const items = int(data.rateItem) ?? 1;
      return { points, text: `${label(points)} for every ${items === 1 ? 'item' : `${items} items`}` };
    }
    return { points, text: `${label(points)} for every ${money(int(data.rateMoney) ?? 1, shop.currency)} spent` };
  }
  if (event === 'milestone') return { points, text: 'Rewards as you reach each milestone' };
  return { points, text: label(points) };
}

/** A program a shopper earns from once in a lifetime (its limit is one per lifetime). */
const onceInLifetime = (data: JsonObject): boolean => data.hasLimit === true && data.limitUnit === 'lifetime' && (int(data.limitInterval) ?? 1) <= 1;

/** The once-in-a-lifetime programs (variant = how many) a shopper earned from, through `ledger_entries_customer`. */
const COMPLETED = new CompiledOnce<string, { program_id: string | null }>((db, p, key) =>
  db
    .selectFrom('ledger_entries')
    .select('program_id')
    .distinct()
    .where('shop_id', '=', p.shop!)
    .where('customer_id', '=', p.customer!)
    .where('program_id', 'in', Array.from({ length: Number(key) }, (_, i) => p[`p${i}`]!))
    .where('points', '>', 0),
);

/**
 * `GET /proxy/ways-to-earn`'s answer as JSON text, `{ data: WayToEarn[] }`: the active earning
 * programs with titles in `language`, `completed` for once-in-a-lifetime programs the shopper
 * earned from. The lines are the same for every shopper of the shop in one language, so their JSON
 * is written once per config and language and only `completed` is added per call.
 */
export async function waysToEarnJson(deps: AppDeps, config: ShopConfig, shopId: string, customerId: string | null, language: string): Promise<string> {
  let lines = config.rendered.get(language);
  if (!lines) {
    lines = config.earning.map((d) => {
      const event = d.kind.split('.')[1] ?? d.kind;
      const { points, text } = pointsTextOf(event, d.data, config.facts);
      const line: Omit<WayToEarn, 'completed'> = { id: d.id, kind: d.kind, event, title: titleIn(d.data, language, event), points, pointsText: text, ...actionOf(event, d.data) };
      return { id: d.id, json: JSON.stringify(line).slice(0, -1) };
    });
    if (config.rendered.size < 64) config.rendered.set(language, lines);
  }
  const onceIds = config.onceIds;
  const done = new Set<string>();
  if (customerId !== null && onceIds.length > 0) {
    const values: Record<string, unknown> = { shop: shopId, customer: customerId };
    onceIds.forEach((id, i) => (values[`p${i}`] = id));
    for (const r of await COMPLETED.rows(deps.db, String(onceIds.length), values)) if (r.program_id) done.add(r.program_id);
  }
  return `{"data":[${lines.map((line) => `${line.json},"completed":${done.has(line.id)}}`).join(',')}]}`;
}

/** The active redeem rewards with titles in `language`; `affordable` against the shopper's available points. */
export async function rewardsFor(deps: AppDeps, config: ShopConfig, shopId: string, customerId: string | null, language: string, now: Date): Promise<RewardView[]> {
  const docs = config.redeem;
  const available = customerId === null || docs.length === 0 ? null : await availablePoints(deps.db, shopId, customerId, now.toISOString());
  return docs.map((d) => {
    const rewardType = d.kind.split('.')[1] ?? d.kind;
    const pointsCost = int(d.data.redeemPoint) ?? 0;
    const minPoints = int(d.data.minimumPoints);
    const maxPoints = int(d.data.maximumPoints);
    const needed = Math.max(1, minPoints ?? pointsCost);
    return {
      id: d.id,
      kind: d.kind,
      rewardType,
      title: titleIn(d.data, language, rewardType),
      pointsCost,
      ...(minPoints !== undefined ? { minPoints } : {}),
      ...(maxPoints !== undefined ? { maxPoints } : {}),
      affordable: available !== null && available >= needed,
    };
  });
}

const plural = (n: number): string => `${Math.abs(n).toLocaleString('en-US')} point${Math.abs(n) === 1 ? '' : 's'}`;

/**
 * A ledger entry in the shopper's words. Only what the shopper may see: an admin adjustment shows
 * the note written for the customer, never the admin's own note.
 */
export function describeEntry(entry: { type: string; points: number; source_type: string; explanation: string; available_at?: string | null }): string {
  let e: Record<string, unknown> = {};
  try {
    e = obj(JSON.parse(entry.explanation) as unknown);
  } catch {
    // an unreadable explanation still gets the generic wording below
  }
  const decision = obj(e.decision);
  const order = str(e.orderName) ?? (str(e.orderId) ? `#${str(e.orderId)}` : undefined);
  const program = str(decision.programTitle) ?? str(e.programTitle) ?? str(e.title);
  const earned = entry.points >= 0;
  switch (entry.source_type) {
    case 'order':
      if (entry.type === 'pending_earn_point') return `Points for order ${order ?? ''} waiting to become available`.replace('  ', ' ');
      return order ? `Earned for order ${order}` : 'Earned for an order';
    case 'refund':
      return order ? `Taken back for a refund on order ${order}` : 'Taken back for a refund';
    case 'cancellation':
      return order ? `Taken back: order ${order} was cancelled` : 'Taken back: an order was cancelled';
    case 'admin_adjustment': {
      const note = str(e.customerNote);
      return note ? `${earned ? 'Added' : 'Removed'} by the store: ${note}` : earned ? 'Added by the store' : 'Removed by the store';
    }
    case 'redemption': {
      const reward = str(e.reward) ?? str(e.rewardTitle) ?? str(e.title);
      return reward ? `Redeemed for ${reward}` : 'Redeemed for a reward';
    }
    case 'revoke':
      return 'Returned: a coupon was cancelled';
    case 'expiry':
      return 'Points expired';
    case 'tier_entry_reward': {
      const tier = str(e.tierName) ?? str(e.toName);
      return tier ? `Reward for reaching ${tier}` : 'Reward for reaching a new tier';
    }
    case 'referral':
      return 'Referral reward';
    case 'review':
      return program ? `Earned for a review (${program})` : 'Earned for a review';
    case 'milestone':
      return program ? `Milestone reached: ${program}` : 'Milestone reached';
    case 'import':
      return 'Points carried over from your previous rewards program';
    case 'event':
      return program ? `Earned: ${program}` : 'Earned for an activity';
  }
  if (entry.type === 'pending_convert') return 'Pending points became available';
  if (entry.type === 'pending_deduct') return 'Pending points moved to your balance';
  if (program) return `${earned ? 'Earned' : 'Used'}: ${program}`;
  return earned ? `${plural(entry.points)} added` : `${plural(entry.points)} used`;
}

type HistoryCursor = [string, string];

function decodeHistoryCursor(text: string): HistoryCursor {
  try {
    const v = JSON.parse(Buffer.from(text, 'base64url').toString('utf8')) as unknown;
    if (Array.isArray(v) && v.length === 2 && typeof v[0] === 'string' && typeof v[1] === 'string') return [v[0], v[1]];
  } catch {
    // falls through to the error below
  }
  throw new ApiError(400, 'invalid_query', 'Value invalid', [{ path: 'cursor', message: 'This cursor does not belong to this list; start from the first page' }]);
}

/** A history page's rows (variants `first` and `after` a cursor), newest first. */
const HISTORY = new CompiledOnce<'shop' | 'customer' | 'at' | 'id' | 'limit', Pick<LedgerEntriesTable, 'id' | 'type' | 'points' | 'source_type' | 'explanation' | 'created_at' | 'available_at'>>((db, p, key) => {
  let q = db.selectFrom('ledger_entries').select(['id', 'type', 'points', 'source_type', 'explanation', 'created_at', 'available_at']).where('shop_id', '=', p.shop).where('customer_id', '=', p.customer);
  // The plain bound lets the index start at the cursor; the pair breaks ties on the same instant.
  if (key === 'after') q = q.where('created_at', '<=', p.at).where((eb) => eb.or([eb('created_at', '<', p.at), eb.and([eb('created_at', '=', p.at), eb('id', '<', p.id)])]));
  return q.orderBy('created_at', 'desc').orderBy('id', 'desc').limit(sql<number>`${p.limit}`);
});

/** One page of the shopper's ledger, newest first, through `ledger_entries_customer`. Throws 400 `invalid_query` at `cursor`. */
export async function historyPage(db: Db, shopId: string, customerId: string, cursor: string | undefined): Promise<{ data: HistoryEntry[]; pageInfo: { hasNextPage: boolean; endCursor: string | null } }> {
  const after = cursor ? decodeHistoryCursor(cursor) : null;
  const rows = await HISTORY.rows(db, after ? 'after' : 'first', { shop: shopId, customer: customerId, at: after?.[0] ?? null, id: after?.[1] ?? null, limit: HISTORY_PAGE_SIZE + 1 });
  const shown = rows.slice(0, HISTORY_PAGE_SIZE);
  const last = shown.at(-1);
  return {
    data: shown.map((r) => ({ id: r.id, type: r.type, points: r.points, description: describeEntry(r), createdAt: r.created_at })),
    pageInfo: { hasNextPage: rows.length > HISTORY_PAGE_SIZE, endCursor: last && rows.length > HISTORY_PAGE_SIZE ? Buffer.from(JSON.stringify([last.created_at, last.id])).toString('base64url') : null },
  };
}

/** The calls of this area; `c.var.shopId` and `c.var.customerId` (null = guest) are verified. */
export function shopperProxyRoutes(deps: AppDeps): Hono<ProxyEnv> {
  const app = new Hono<ProxyEnv>();
  const clock = deps.now ?? (() => new Date());
  const configs = new ShopConfigCache(deps, storefrontCacheMs());

  app.get('/customer', async (c) => {
    const customerId = c.var.customerId;
    if (customerId === null) return c.json({ data: null });
    const now = clock();
    return c.json({ data: await shopperView(deps, await configs.get(c.var.shopId, now), c.var.shopId, customerId, now) });
  });

  app.get('/ways-to-earn', async (c) => {
    const config = await configs.get(c.var.shopId, clock());
    return c.body(await waysToEarnJson(deps, config, c.var.shopId, c.var.customerId, languageOf(c, config.facts)), 200, { 'Content-Type': 'application/json' });
  });

  app.get('/rewards', async (c) => {
    const now = clock();
    const config = await configs.get(c.var.shopId, now);
    return c.json({ data: await rewardsFor(deps, config, c.var.shopId, c.var.customerId, languageOf(c, config.facts), now) });
  });

  app.get('/history', async (c) => {
    const customerId = c.var.customerId;
    if (customerId === null) return c.json({ data: [], pageInfo: { hasNextPage: false, endCursor: null } });
    return c.json(await historyPage(deps.db, c.var.shopId, customerId, c.req.query('cursor') || undefined));
  });
  return app;
}
