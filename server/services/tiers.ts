/**
 * VIP tiers that place customers (issue 10; spec 002 §3 Tier, §4 VIP Tier program, tier demotion
 * and exclusive assignment, §8 messages): tier stats kept per customer and store-local month
 * (`customer_tier_stats`, moved by every tier-relevant ledger append and every order), assessment
 * on each change once the program is launched, demotion after inactivity (a daily job), manual
 * exclusive tiers, launch / deactivate / relaunch, the tier earning multiplier, and tier changes
 * recorded as `customer_events` of kind `tier_changed` (detail `{ from, fromName, to, toName,
 * reason, explanation }`, with who and when) for the profile's "VIP tier changes".
 *
 * No query here reads a shop's whole history: stats are a handful of month rows per customer,
 * placement on launch pages through customers by id, demotion reads the demotion clock by index.
 */
import { CompiledOnce } from '../db/compiled';
import { groupReadKeys, readOncePerGroup, type Db } from '../db/database';
import type { LedgerEntriesTable } from '../db/tables';
import { ApiError, notFound } from '../errors';
import { currencyExponent } from '../../engine/money';
import { localDate, startOfLocalDay } from '../../engine/store-time';
import {
  addToLocalDate,
  assessDemotion,
  assessmentMonths,
  assessTier,
  isPromotion,
  ladder,
  requirementInStatUnits,
  settingsFromDocument,
  tierFromDocument,
  type EntryMethod,
  type TierAssessment,
  type TierDef,
  type TierProgramSettings,
  type TierStats,
} from '../../engine/tiers';
import { listDocuments, toStored } from '../store/documents';
import { appendEntries } from '../store/ledger';

/** The `customer_events.kind` of a tier change. */
export const TIER_CHANGED = 'tier_changed';
/** The ledger `source_type` of a tier entry reward (program_id is the tier id; once per customer and tier). */
export const TIER_ENTRY_REWARD = 'tier_entry_reward';

/** Why a tier changed (`detail.reason` of a `tier_changed` event). */
export type TierChangeReason = 'promotion' | 'launch' | 'relaunch' | 'demotion' | 'manual_assignment' | 'manual_unassignment';

/** Everything assessment needs about a shop, read once per call. */
export interface TierContext {
  shopId: string;
  timeZone: string;
  exponent: number;
  launched: boolean;
  startDate: string | null;
  tiers: TierDef[];
  settings: TierProgramSettings;
}

/** Reads the shop's tiers, settings and launch state. Throws 404 `unknown_shop` for a shop it does not know. */
export async function tierContext(db: Db, shopId: string): Promise<TierContext> {
  const shop = await db
    .selectFrom('shops')
    .leftJoin('tier_program', 'tier_program.shop_id', 'shops.id')
    .select(['shops.iana_timezone', 'shops.currency', 'tier_program.status', 'tier_program.start_date'])
    .where('shops.id', '=', shopId)
    .executeTakeFirst();
  if (!shop) throw new ApiError(404, 'unknown_shop', `The shop ${shopId} has not installed the app`);
  const docs = await listDocuments(db, shopId, ['tier.tier', 'tier.settings']);
  const tiers = docs.filter((d) => d.kind === 'tier.tier').map(tierFromDocument);
  return {
    shopId,
    timeZone: shop.iana_timezone,
    exponent: currencyExponent(shop.currency),
    launched: shop.status === 'launched',
    startDate: shop.start_date ?? null,
    tiers,
    settings: settingsFromDocument(docs.find((d) => d.kind === 'tier.settings'), tiers),
  };
}

const explanationOf = (row: Pick<LedgerEntriesTable, 'explanation'>): Record<string, unknown> => {
  try {
    const v = JSON.parse(row.explanation) as unknown;
    return v !== null && typeof v === 'object' && !Array.isArray(v) ? (v as Record<string, unknown>) : {};
  } catch {
    return {};
  }
};

/**
 * The tier points a ledger row moves (whole points): order awards and other earning programs'
 * awards count, refunds and cancellations take theirs back, an admin adjustment counts only when
 * it chose "adjust tier points"; spending, expiry, pending conversions, imports and tier entry
 * rewards never count (an entry reward counting would promote again).
 */
export function tierPointsDelta(row: Pick<LedgerEntriesTable, 'source_type' | 'points' | 'type' | 'program_kind' | 'explanation'>): number {
  switch (row.source_type) {
    case 'order':
      return row.points > 0 ? row.points : 0;
    case 'refund':
    case 'cancellation':
      return row.points < 0 ? row.points : 0;
    case 'admin_adjustment':
      return explanationOf(row).adjustTierPoints === true ? row.points : 0;
    default:
      return row.points > 0 && (row.type === 'earn_point' || row.type === 'pending_earn_point') && (row.program_kind ?? '').startsWith('earning.') ? row.points : 0;
  }
}

/** Adds to a customer's month bucket and restarts the demotion clock when `active`. */
async function bumpStats(db: Db, shopId: string, customerId: string, month: string, delta: { tierPoints: number; amountSpentMinor: number; orders: number }, at: string, active: boolean): Promise<void> {
  await BUMP_STATS.run(db, 'one', { shop: shopId, customer: customerId, month, points: delta.tierPoints, amount: delta.amountSpentMinor, orders: delta.orders });
  if (active) await TOUCH_STATE.run(db, 'one', { shop: shopId, customer: customerId, at });
}

// Run for every order and ledger change, compiled once (server/db/compiled.ts).
const BUMP_STATS = new CompiledOnce<'shop' | 'customer' | 'month' | 'points' | 'amount' | 'orders'>((db, p) =>
  db
    .insertInto('customer_tier_stats')
    .values({ shop_id: p.shop, customer_id: p.customer, month: p.month, tier_points: p.points, amount_spent_minor: p.amount, orders: p.orders })
    .onConflict((oc) =>
      oc.columns(['shop_id', 'customer_id', 'month']).doUpdateSet((eb) => ({
        tier_points: eb('customer_tier_stats.tier_points', '+', p.points),
        amount_spent_minor: eb('customer_tier_stats.amount_spent_minor', '+', p.amount),
        orders: eb('customer_tier_stats.orders', '+', p.orders),
      })),
    ),
);
const TOUCH_STATE = new CompiledOnce<'shop' | 'customer' | 'at'>((db, p) =>
  db
    .insertInto('customer_tier_state')
    .values({ shop_id: p.shop, customer_id: p.customer, counted_from: null, last_activity_at: p.at })
    .onConflict((oc) => oc.columns(['shop_id', 'customer_id']).doUpdateSet({ last_activity_at: p.at })),
);

/** The shop's timezone and launch facts, for the per-append path (one indexed read). */
async function appendFacts(db: Db, shopId: string): Promise<{ timeZone: string; launched: boolean; startDate: string | null } | undefined> {
  const row = await db
    .selectFrom('shops')
    .leftJoin('tier_program', 'tier_program.shop_id', 'shops.id')
    .select(['shops.iana_timezone', 'tier_program.status', 'tier_program.start_date'])
    .where('shops.id', '=', shopId)
    .executeTakeFirst();
  return row ? { timeZone: row.iana_timezone, launched: row.status === 'launched', startDate: row.start_date ?? null } : undefined;
}

/**
 * The ledger hook (server/store/ledger.ts `appendEntries` calls it with the rows it just wrote, in
 * the same transaction): moves each customer's tier points in the month bucket of the row's
 * store-local date (activity before the program's start date does not count), and, when the VIP
 * program is launched, assesses the customers whose tier points moved. Rows that move no tier
 * points (spending, expiry, entry rewards) return at once without a query.
 */
export async function onLedgerAppend(db: Db, rows: readonly LedgerEntriesTable[]): Promise<void> {
  const byShop = new Map<string, { customerId: string; delta: number; at: string }[]>();
  for (const r of rows) {
    // An order's awards are counted with the order itself (recordTierOrder: points, amount and the
    // order in one bucket update and one assessment), so an order costs the hook nothing.
    if (r.source_type === 'order') continue;
    const delta = tierPointsDelta(r);
    if (delta === 0) continue;
    const list = byShop.get(r.shop_id) ?? [];
    list.push({ customerId: r.customer_id, delta, at: r.created_at });
    byShop.set(r.shop_id, list);
  }
  for (const [shopId, moves] of byShop) {
    const facts = await appendFacts(db, shopId);
    if (!facts) continue;
    const touched = new Set<string>();
    let latest = '';
    for (const m of moves) {
      const day = localDate(new Date(m.at), facts.timeZone);
      if (facts.startDate && day < facts.startDate) continue;
      await bumpStats(db, shopId, m.customerId, day.slice(0, 7), { tierPoints: m.delta, amountSpentMinor: 0, orders: 0 }, m.at, m.delta > 0);
      touched.add(m.customerId);
      if (m.at > latest) latest = m.at;
    }
    if (facts.launched && touched.size > 0) await assessCustomers(db, shopId, [...touched], { now: new Date(latest) });
  }
}

/**
 * Records an order in the customer's tier stats — the tier points its awards gave (whole points),
 * the amount spent (minor units) and one order — in the month of its store-local date, inside the
 * order's transaction and after its ledger entries (which the ledger hook leaves to this call),
 * then assesses the customer when the VIP program is launched. `counted` false (a test, cancelled
 * or foreign-currency order) records only the points, if any. `root` is the app's Db of which `db`
 * is a transaction: on the processing thread the shop's tier facts and context are read once per
 * group of deliveries on it (readOncePerGroup); elsewhere every call reads them (pass `db` itself
 * where there is no other).
 */
export async function recordTierOrder(db: Db, shopId: string, customerId: string, order: { tierPoints: number; amountSpentMinor: number; counted: boolean }, at: Date, root: Db): Promise<void> {
  if (!order.counted && order.tierPoints === 0) return;
  const facts = await readOncePerGroup(root, groupReadKeys.tierFacts(shopId), () => appendFacts(db, shopId));
  if (!facts) return;
  const day = localDate(at, facts.timeZone);
  if (facts.startDate && day < facts.startDate) return;
  const delta = { tierPoints: order.tierPoints, amountSpentMinor: order.counted ? Math.max(0, order.amountSpentMinor) : 0, orders: order.counted ? 1 : 0 };
  await bumpStats(db, shopId, customerId, day.slice(0, 7), delta, at.toISOString(), true);
  if (facts.launched) await assessCustomers(db, shopId, [customerId], { now: at, context: await readOncePerGroup(root, groupReadKeys.tierContext(shopId), () => tierContext(db, shopId)) });
}

/** Customers' stats over the current assessment period (months from the cycle's start and from their reset). */
export async function periodStats(db: Db, ctx: TierContext, customerIds: readonly string[], now: Date): Promise<Map<string, TierStats>> {
  const out = new Map<string, TierStats>();
  if (customerIds.length === 0) return out;
  const window = assessmentMonths(ctx.settings.assessment, localDate(now, ctx.timeZone));
  let q = db
    .selectFrom('customer_tier_stats as s')
    .leftJoin('customer_tier_state as st', (j) => j.onRef('st.shop_id', '=', 's.shop_id').onRef('st.customer_id', '=', 's.customer_id'))
    .select([
      's.customer_id',
      (eb) => eb.fn.sum<number>('s.tier_points').as('tier_points'),
      (eb) => eb.fn.sum<number>('s.amount_spent_minor').as('amount_spent_minor'),
      (eb) => eb.fn.sum<number>('s.orders').as('orders'),
    ])
    .where('s.shop_id', '=', ctx.shopId)
    .where('s.customer_id', 'in', customerIds)
    .where('s.month', '<=', window.to)
    .where((eb) => eb.or([eb('st.counted_from', 'is', null), eb('s.month', '>=', eb.ref('st.counted_from'))]));
  if (window.from) q = q.where('s.month', '>=', window.from);
  for (const r of await q.groupBy('s.customer_id').execute()) {
    out.set(r.customer_id, { tierPoints: Number(r.tier_points ?? 0), amountSpentMinor: Number(r.amount_spent_minor ?? 0), orders: Number(r.orders ?? 0) });
  }
  return out;
}

const ZERO: TierStats = { tierPoints: 0, amountSpentMinor: 0, orders: 0 };

/** How `assessCustomers` runs. */
export interface AssessOptions {
  /** The clock (the ledger rows' time, or the test's). */
  now?: Date;
  /** Who: `system` for ledger changes and jobs, `admin:<id>` for a (re)launch. */
  actor?: string;
  /** `promote` (ledger changes: only ever up) or `place` ((re)launch: to the assessed tier, up or down). */
  mode?: 'promote' | 'place';
  reason?: TierChangeReason;
  /** Grant the destination tier's entry reward on a move up (true for ledger promotions). */
  grantEntryRewards?: boolean;
  /** A context already read (launch pages through customers with one). */
  context?: TierContext;
}

/** One customer's move, as answered by `assessCustomers`. */
export interface TierMove {
  customerId: string;
  from: string | null;
  to: string | null;
  assessment: TierAssessment;
}

/**
 * Assesses customers of a shop and moves those whose tier changes (spec 002 §4), inside the
 * caller's transaction: with the VIP program launched only; customers holding a manually assigned
 * exclusive tier are left alone. `promote` (default) only moves up; `place` moves to the assessed
 * tier either way. Each move updates `customers.tier_id`, records a `tier_changed` event and, on a
 * move up with `grantEntryRewards`, appends the tier's entry reward once per customer and tier.
 * @returns the moves made (empty when the program is not launched)
 */
export async function assessCustomers(tx: Db, shopId: string, customerIds: readonly string[], options: AssessOptions = {}): Promise<TierMove[]> {
  if (customerIds.length === 0) return [];
  const ctx = options.context ?? (await tierContext(tx, shopId));
  if (!ctx.launched || ctx.tiers.length === 0) return [];
  const now = options.now ?? new Date();
  const mode = options.mode ?? 'promote';
  const ids = [...new Set(customerIds)];
  const customers = await tx
    .selectFrom('customers as c')
    .leftJoin('customer_tier_state as st', (j) => j.onRef('st.shop_id', '=', 'c.shop_id').onRef('st.customer_id', '=', 'c.id'))
    .select(['c.id', 'c.tier_id', 'st.manual'])
    .where('c.shop_id', '=', shopId)
    .where('c.id', 'in', ids)
    .execute();
  const stats = await periodStats(tx, ctx, ids, now);
  const moves: TierMove[] = [];
  for (const c of customers) {
    if (Number(c.manual ?? 0) === 1) continue;
    const assessment = assessTier(ctx.tiers, ctx.settings.entryMethod, stats.get(c.id) ?? ZERO, ctx.exponent);
    const to = assessment.tierId;
    const move = mode === 'place' ? to !== null && to !== c.tier_id : isPromotion(ctx.tiers, c.tier_id, to);
    if (!move) continue;
    const up = isPromotion(ctx.tiers, c.tier_id, to);
    await changeTier(tx, ctx, c.id, c.tier_id, to, {
      reason: options.reason ?? 'promotion',
      explanation: assessment.explanation.message,
      actor: options.actor ?? 'system',
      now,
      grantEntryReward: up && (options.grantEntryRewards ?? true),
    });
    moves.push({ customerId: c.id, from: c.tier_id, to, assessment });
  }
  return moves;
}

const tierName = (ctx: TierContext, id: string | null): string | null => (id === null ? null : (ctx.tiers.find((t) => t.id === id)?.name ?? id));

/**
 * Moves one customer to `to`: `customers.tier_id`, a `tier_changed` event with who and when, the
 * demotion clock restarted, and (when asked) the new tier's entry reward as an `earn_point` entry
 * with source `tier_entry_reward` — once per customer and tier, however often they re-enter.
 */
async function changeTier(tx: Db, ctx: TierContext, customerId: string, from: string | null, to: string | null, o: { reason: TierChangeReason; explanation: string; actor: string; now: Date; grantEntryReward: boolean; detail?: Record<string, unknown> }): Promise<void> {
  const at = o.now.toISOString();
  await tx.updateTable('customers').set({ tier_id: to, updated_at: at }).where('shop_id', '=', ctx.shopId).where('id', '=', customerId).execute();
  await tx
    .insertInto('customer_events')
    .values({
      id: crypto.randomUUID(),
      shop_id: ctx.shopId,
      customer_id: customerId,
      kind: TIER_CHANGED,
      detail: JSON.stringify({ from, fromName: tierName(ctx, from), to, toName: tierName(ctx, to), reason: o.reason, explanation: o.explanation, ...(o.detail ?? {}) }),
      actor: o.actor,
      created_at: at,
    })
    .execute();
  await tx
    .insertInto('customer_tier_state')
    .values({ shop_id: ctx.shopId, customer_id: customerId, counted_from: null, last_activity_at: at })
    .onConflict((oc) => oc.columns(['shop_id', 'customer_id']).doUpdateSet({ last_activity_at: at }))
    .execute();
  const tier = ctx.tiers.find((t) => t.id === to);
  if (!o.grantEntryReward || !tier || tier.entryRewardPoints <= 0) return;
  const given = await tx
    .selectFrom('ledger_entries')
    .select('id')
    .where('shop_id', '=', ctx.shopId)
    .where('source_type', '=', TIER_ENTRY_REWARD)
    .where('source_id', '=', customerId)
    .where('program_id', '=', tier.id)
    .executeTakeFirst();
  if (given) return;
  await appendEntries(tx, [
    {
      id: crypto.randomUUID(),
      shop_id: ctx.shopId,
      customer_id: customerId,
      type: 'earn_point',
      points: tier.entryRewardPoints,
      program_id: tier.id,
      program_kind: 'tier.tier',
      program_version: tier.version ?? null,
      source_type: TIER_ENTRY_REWARD,
      source_id: customerId,
      reverses_id: null,
      explanation: JSON.stringify({ tierId: tier.id, tierName: tier.name, reason: o.reason, message: `Entry reward for reaching ${tier.name}: ${tier.entryRewardPoints} points.` }),
      created_at: at,
      available_at: null,
    },
  ]);
}

/** Restarts a customer's tier stats in the current month at `value` of the entry method (0 for a reset). */
async function resetStats(tx: Db, ctx: TierContext, customerId: string, method: EntryMethod, value: number, now: Date): Promise<void> {
  const month = localDate(now, ctx.timeZone).slice(0, 7);
  const row = { tier_points: method === 'points_earned' ? value : 0, amount_spent_minor: method === 'amount_spent' ? value : 0, orders: method === 'number_of_orders' ? value : 0 };
  await tx
    .insertInto('customer_tier_stats')
    .values({ shop_id: ctx.shopId, customer_id: customerId, month, ...row })
    .onConflict((oc) => oc.columns(['shop_id', 'customer_id', 'month']).doUpdateSet(row))
    .execute();
  await tx
    .insertInto('customer_tier_state')
    .values({ shop_id: ctx.shopId, customer_id: customerId, counted_from: month, last_activity_at: now.toISOString() })
    .onConflict((oc) => oc.columns(['shop_id', 'customer_id']).doUpdateSet({ counted_from: month, last_activity_at: now.toISOString() }))
    .execute();
}

/**
 * The daily demotion pass of one shop (spec 002 §4 "Downgrade after 6 months of inactivity"):
 * customers above the lowest tier whose last activity or tier change is at least the configured
 * inactivity ago (store-local dates) move down (`downgrade_tier`: one step, tier stats restart at
 * that tier's requirement; `reset_tier`: the lowest tier with 0). Reads candidates by the
 * demotion-clock index only. Does nothing unless the program is launched.
 * @returns the customers demoted
 */
export async function runTierDemotions(db: Db, shopId: string, now: Date): Promise<TierMove[]> {
  return db.transaction().execute(async (tx) => {
    const ctx = await tierContext(tx, shopId);
    if (!ctx.launched) return [];
    const steps = ladder(ctx.tiers);
    if (steps.length < 2) return [];
    const today = localDate(now, ctx.timeZone);
    const { inactivityValue, inactivityUnit } = ctx.settings.demotion;
    // Candidates by index: last active before this date. Four days of margin cover month-end
    // clamping (31 January + 1 month is 28 February); assessDemotion decides exactly.
    const latestDue = addToLocalDate(addToLocalDate(today, -inactivityValue, inactivityUnit), 4, 'day');
    const candidates = await tx
      .selectFrom('customer_tier_state as st')
      .innerJoin('customers as c', (j) => j.onRef('c.shop_id', '=', 'st.shop_id').onRef('c.id', '=', 'st.customer_id'))
      .select(['c.id', 'c.tier_id', 'st.manual', 'st.last_activity_at'])
      .where('st.shop_id', '=', shopId)
      .where('st.last_activity_at', '<', startOfLocalDay(latestDue, ctx.timeZone))
      .where('st.manual', '=', 0)
      .where('c.tier_id', 'is not', null)
      .where('c.tier_id', '!=', steps[0]!.id)
      .execute();
    const moves: TierMove[] = [];
    for (const c of candidates) {
      const last = c.last_activity_at ? localDate(new Date(c.last_activity_at), ctx.timeZone) : null;
      const d = assessDemotion(ctx.tiers, ctx.settings, c.tier_id, false, last, today, ctx.exponent);
      if (!d.demote || d.resetStatsTo === null) continue;
      await resetStats(tx, ctx, c.id, ctx.settings.entryMethod, d.resetStatsTo, now);
      await changeTier(tx, ctx, c.id, c.tier_id, d.toTierId, { reason: 'demotion', explanation: d.message, actor: 'system', now, grantEntryReward: false });
      moves.push({ customerId: c.id, from: c.tier_id, to: d.toTierId, assessment: { tierId: d.toTierId, explanation: { method: ctx.settings.entryMethod, required: d.resetStatsTo, seen: d.resetStatsTo, next: null, message: d.message } } });
    }
    return moves;
  });
}

/** The launch state as `GET /api/tiers/status` answers it. */
export interface TierProgramStatus {
  status: 'launched' | 'inactive';
  launchedAt: string | null;
  startDate: string | null;
  changeNotes: string;
  grantEntryRewards: boolean;
  actor: string | null;
  updatedAt: string | null;
  /** Active programs and rewards that use tiers (deactivation is refused while any does). */
  usedBy: TierUsage[];
}

/** A document that uses VIP tiers. */
export interface TierUsage {
  id: string;
  kind: string;
  title: string;
}

const TIER_SELECTORS: ReadonlySet<string> = new Set(['vip_members', 'specific_tiers', 'vip_tier_only']);

/** Whether a document's data chooses a tier audience anywhere (customer eligibility, availability, eligible members). */
function choosesTiers(value: unknown, depth = 0): boolean {
  if (depth > 6) return false;
  if (typeof value === 'string') return TIER_SELECTORS.has(value);
  if (Array.isArray(value)) return value.some((v) => choosesTiers(v, depth + 1));
  if (value !== null && typeof value === 'object') return Object.values(value as Record<string, unknown>).some((v) => choosesTiers(v, depth + 1));
  return false;
}

/**
 * The shop's programs, rewards and deals that use tier rewards or tier eligibility (spec 002 §4
 * "Deactivation is blocked while programs use tier rewards; the product lists them"): every
 * document outside `tier.*` that is not switched off and picks a tier audience.
 */
export async function tierUsage(db: Db, shopId: string): Promise<TierUsage[]> {
  const docs = await listDocuments(db, shopId);
  return docs
    .filter((d) => !d.kind.startsWith('tier.') && (d.data as Record<string, unknown>).status !== false && choosesTiers(d.data))
    .map((d) => {
      const data = d.data as Record<string, unknown>;
      const title = typeof data.title === 'string' ? data.title : typeof data.name === 'string' ? data.name : d.kind;
      return { id: d.id, kind: d.kind, title };
    });
}

/** The launch state and the documents using tiers. */
export async function tierProgramStatus(db: Db, shopId: string): Promise<TierProgramStatus> {
  const row = await db.selectFrom('tier_program').selectAll().where('shop_id', '=', shopId).executeTakeFirst();
  return {
    status: row?.status === 'launched' ? 'launched' : 'inactive',
    launchedAt: row?.launched_at ?? null,
    startDate: row?.start_date ?? null,
    changeNotes: row?.change_notes ?? '',
    grantEntryRewards: row?.grant_entry_rewards === 1,
    actor: row?.actor ?? null,
    updatedAt: row?.updated_at ?? null,
    usedBy: await tierUsage(db, shopId),
  };
}

/** What a (re)launch asks for (spec 002 §4: change notes and the entry-reward choice). */
export interface LaunchInput {
  changeNotes: string;
  grantEntryRewards: boolean;
}

/** What a (re)launch did. */
export interface LaunchResult extends TierProgramStatus {
  /** Customers looked at and customers whose tier changed. */
  customers: number;
  moved: number;
}

const PLACE_PAGE = 500;

/**
 * Launches (`launch`) or relaunches (`relaunch`) the VIP program and places every customer of the
 * shop in the tier their stats reach (customers paged by id, 500 at a time, one transaction per
 * page). Throws 409 `tier_program_launched` when launching a launched program, 409
 * `tier_program_inactive` when relaunching one that is not, 409 `no_base_tier` ("Must choose one
 * base tier") when no non-exclusive tier has an entry requirement of 0.
 */
export async function launchTiers(db: Db, shopId: string, mode: 'launch' | 'relaunch', input: LaunchInput, actor: string, now: Date): Promise<LaunchResult> {
  const iso = now.toISOString();
  const ctx = await db.transaction().execute(async (tx) => {
    const current = await tx.selectFrom('tier_program').select('status').where('shop_id', '=', shopId).executeTakeFirst();
    const launched = current?.status === 'launched';
    if (mode === 'launch' && launched) throw new ApiError(409, 'tier_program_launched', 'The VIP tier program is already launched; relaunch it to apply changes');
    if (mode === 'relaunch' && !launched) throw new ApiError(409, 'tier_program_inactive', 'The VIP tier program is not launched; launch it first');
    const before = await tierContext(tx, shopId);
    if (!ladder(before.tiers).some((t) => t.entryRequirement === 0)) {
      throw new ApiError(409, 'no_base_tier', 'Must choose one base tier', [{ path: '/tiers', message: 'Must choose one base tier (entry requirement 0, not exclusive) before launching' }]);
    }
    const values = { status: 'launched', launched_at: iso, start_date: before.settings.startDate, change_notes: input.changeNotes, grant_entry_rewards: input.grantEntryRewards ? 1 : 0, actor, updated_at: iso };
    await tx
      .insertInto('tier_program')
      .values({ shop_id: shopId, ...values })
      .onConflict((oc) => oc.column('shop_id').doUpdateSet(values))
      .execute();
    return { ...before, launched: true, startDate: before.settings.startDate };
  });
  let after = '';
  let customers = 0;
  let moved = 0;
  for (;;) {
    const page = await db.selectFrom('customers').select('id').where('shop_id', '=', shopId).where('id', '>', after).orderBy('id').limit(PLACE_PAGE).execute();
    if (page.length === 0) break;
    customers += page.length;
    after = page.at(-1)!.id;
    const moves = await db.transaction().execute((tx) =>
      assessCustomers(tx, shopId, page.map((p) => p.id), { now, actor, mode: 'place', reason: mode, grantEntryRewards: input.grantEntryRewards, context: ctx }),
    );
    moved += moves.length;
    if (page.length < PLACE_PAGE) break;
  }
  return { ...(await tierProgramStatus(db, shopId)), customers, moved };
}

/**
 * Deactivates the VIP program: assessment stops and customers keep their tier as it is. Throws
 * 409 `tiers_in_use` ("Cannot deactivate VIP Tier while programs use it", spec 002 §8) with one
 * detail per program, reward or deal using tiers; 409 `tier_program_inactive` when not launched.
 */
export async function deactivateTiers(db: Db, shopId: string, actor: string, now: Date): Promise<TierProgramStatus> {
  await db.transaction().execute(async (tx) => {
    const current = await tx.selectFrom('tier_program').select('status').where('shop_id', '=', shopId).executeTakeFirst();
    if (current?.status !== 'launched') throw new ApiError(409, 'tier_program_inactive', 'The VIP tier program is not launched');
    const used = await tierUsage(tx, shopId);
    if (used.length > 0) {
      throw new ApiError(409, 'tiers_in_use', 'Cannot deactivate VIP Tier while programs use it', used.map((u) => ({ path: `/documents/${u.id}`, message: `${u.title} (${u.kind}) uses VIP tiers` })));
    }
    await tx.updateTable('tier_program').set({ status: 'inactive', actor, updated_at: now.toISOString() }).where('shop_id', '=', shopId).execute();
  });
  return tierProgramStatus(db, shopId);
}

/** A customer's tier as the profile's tier card shows it (`GET /api/customers/:id/tier`). */
export interface CustomerTierView {
  customerId: string;
  tierId: string | null;
  tierName: string | null;
  /** An admin assigned an exclusive tier (assessment leaves the customer alone; points cannot be adjusted). */
  manual: boolean;
  launched: boolean;
  entryMethod: EntryMethod;
  /** Stats over the current assessment period (points, minor units, orders). */
  stats: TierStats;
  /** The assessment now: the tier the stats reach, what was seen, and the next tier with what remains. */
  assessment: TierAssessment;
  /** The ladder (lowest first) with requirements in the stats' units, and the exclusive tiers an admin can assign. */
  ladder: { id: string; name: string; required: number }[];
  exclusiveTiers: { id: string; name: string }[];
  /** The customer's recent tier changes, newest first. */
  changes: { id: string; from: string | null; to: string | null; fromName: string | null; toName: string | null; reason: string; explanation: string; actor: string; createdAt: string }[];
}

/** A customer's tier and whether it was assigned by hand. Throws 404 `not_found` for an unknown customer. */
async function customerWithTierState(db: Db, shopId: string, customerId: string): Promise<{ id: string; tier_id: string | null; manual: number | null }> {
  const c = await db
    .selectFrom('customers as c')
    .leftJoin('customer_tier_state as st', (j) => j.onRef('st.shop_id', '=', 'c.shop_id').onRef('st.customer_id', '=', 'c.id'))
    .select(['c.id', 'c.tier_id', 'st.manual'])
    .where('c.shop_id', '=', shopId)
    .where('c.id', '=', customerId)
    .executeTakeFirst();
  if (!c) throw notFound('not_found', 'This customer does not exist');
  return c;
}

/** The tier card's view. Throws 404 `not_found` for an unknown customer. */
export async function customerTier(db: Db, shopId: string, customerId: string, now: Date): Promise<CustomerTierView> {
  const c = await customerWithTierState(db, shopId, customerId);
  const ctx = await tierContext(db, shopId);
  const stats = (await periodStats(db, ctx, [customerId], now)).get(customerId) ?? ZERO;
  const events = await db.selectFrom('customer_events').selectAll().where('shop_id', '=', shopId).where('customer_id', '=', customerId).where('kind', '=', TIER_CHANGED).orderBy('created_at', 'desc').orderBy('id', 'desc').limit(20).execute();
  return {
    customerId,
    tierId: c.tier_id,
    tierName: tierName(ctx, c.tier_id),
    manual: Number(c.manual ?? 0) === 1,
    launched: ctx.launched,
    entryMethod: ctx.settings.entryMethod,
    stats,
    assessment: assessTier(ctx.tiers, ctx.settings.entryMethod, stats, ctx.exponent),
    ladder: ladder(ctx.tiers).map((t) => ({ id: t.id, name: t.name, required: requirementInStatUnits(t, ctx.settings.entryMethod, ctx.exponent) })),
    exclusiveTiers: ctx.tiers.filter((t) => t.exclusive).map((t) => ({ id: t.id, name: t.name })),
    changes: events.map((e) => {
      const d = JSON.parse(e.detail) as Record<string, unknown>;
      const s = (v: unknown): string | null => (typeof v === 'string' ? v : null);
      return { id: e.id, from: s(d.from), to: s(d.to), fromName: s(d.fromName), toName: s(d.toName), reason: s(d.reason) ?? '', explanation: s(d.explanation) ?? '', actor: e.actor, createdAt: e.created_at };
    }),
  };
}

/**
 * Assigns an exclusive tier to a customer by hand (spec 002 §3 "exclusive tier (manual only)",
 * §4): the customer keeps their tier points, assessment leaves them alone until unassigned, and
 * their points cannot be adjusted meanwhile. Throws 404 `not_found` for an unknown customer, 422
 * `validation_failed` at `/tierId` for a tier that does not exist or is not exclusive.
 */
export async function assignExclusiveTier(db: Db, shopId: string, customerId: string, tierId: string, input: { note: string; grantEntryReward: boolean }, actor: string, now: Date): Promise<void> {
  await db.transaction().execute(async (tx) => {
    const c = await tx.selectFrom('customers').select(['id', 'tier_id']).where('shop_id', '=', shopId).where('id', '=', customerId).executeTakeFirst();
    if (!c) throw notFound('not_found', 'This customer does not exist');
    const ctx = await tierContext(tx, shopId);
    const tier = ctx.tiers.find((t) => t.id === tierId);
    if (!tier) throw new ApiError(422, 'validation_failed', 'Value invalid', [{ path: '/tierId', message: 'No such tier' }]);
    if (!tier.exclusive) throw new ApiError(422, 'validation_failed', 'Only an exclusive tier can be assigned manually', [{ path: '/tierId', message: `${tier.name} is not an exclusive tier; customers reach it by assessment` }]);
    await tx
      .insertInto('customer_tier_state')
      .values({ shop_id: shopId, customer_id: customerId, counted_from: null, last_activity_at: now.toISOString(), manual: 1 })
      .onConflict((oc) => oc.columns(['shop_id', 'customer_id']).doUpdateSet({ manual: 1 }))
      .execute();
    await changeTier(tx, ctx, customerId, c.tier_id, tier.id, { reason: 'manual_assignment', explanation: `Assigned ${tier.name} by hand.`, actor, now, grantEntryReward: input.grantEntryReward, detail: { note: input.note } });
  });
}

/**
 * Unassigns a manually assigned exclusive tier (spec 002 §4): the customer returns to the tier
 * their tier points reach (no tier while the program is not launched). Throws 404 `not_found`, 409
 * `tier_not_manual` when the customer's tier was not assigned by hand.
 */
export async function unassignExclusiveTier(db: Db, shopId: string, customerId: string, actor: string, now: Date): Promise<void> {
  await db.transaction().execute(async (tx) => {
    const c = await customerWithTierState(tx, shopId, customerId);
    if (Number(c.manual ?? 0) !== 1) throw new ApiError(409, 'tier_not_manual', 'Failed to unassign exclusive tier: this customer has no manually assigned tier');
    await tx.updateTable('customer_tier_state').set({ manual: 0 }).where('shop_id', '=', shopId).where('customer_id', '=', customerId).execute();
    const ctx = await tierContext(tx, shopId);
    const stats = (await periodStats(tx, ctx, [customerId], now)).get(customerId) ?? ZERO;
    const assessment = assessTier(ctx.tiers, ctx.settings.entryMethod, stats, ctx.exponent);
    const to = ctx.launched ? assessment.tierId : null;
    await changeTier(tx, ctx, customerId, c.tier_id, to, { reason: 'manual_unassignment', explanation: assessment.explanation.message, actor, now, grantEntryReward: false });
  });
}

/**
 * Refuses a points adjustment for a customer whose tier was assigned manually (spec 002 §4 "A tier
 * with manual (exclusive) assignment cannot have points adjusted"). Call it inside the adjusting
 * transaction. Resolves for anyone else (an unknown customer included: the caller's 404 decides).
 * @throws ApiError 409 `tier_manual_assignment` with the detail at `/points`
 */
export async function assertPointsAdjustable(db: Db, shopId: string, customerId: string): Promise<void> {
  const row = await db.selectFrom('customer_tier_state').select('manual').where('shop_id', '=', shopId).where('customer_id', '=', customerId).executeTakeFirst();
  if (Number(row?.manual ?? 0) === 1) {
    throw new ApiError(409, 'tier_manual_assignment', 'A tier with manual assignment cannot have points adjusted', [{ path: '/points', message: 'Unassign the exclusive tier first to adjust this customer’s points' }]);
  }
}

/** The earning multiplier of a customer's tier (a `points_multiplier` perk) while the program is launched, or null. */
export async function tierMultiplierFor(db: Db, shopId: string, tierId: string | null | undefined): Promise<{ tierId: string; tierName: string; multiplier: number } | null> {
  if (!tierId) return null;
  const launched = await db.selectFrom('tier_program').select('status').where('shop_id', '=', shopId).executeTakeFirst();
  if (launched?.status !== 'launched') return null;
  const doc = await db.selectFrom('documents').selectAll().where('shop_id', '=', shopId).where('kind', '=', 'tier.tier').where('id', '=', tierId).executeTakeFirst();
  if (!doc) return null;
  const tier = tierFromDocument(toStored(doc));
  return tier.pointsMultiplier !== null && tier.pointsMultiplier !== 1 ? { tierId: tier.id, tierName: tier.name, multiplier: tier.pointsMultiplier } : null;
}

/** Every shop with a launched VIP program (for the daily demotion job). */
export async function launchedShops(db: Db): Promise<string[]> {
  return (await db.selectFrom('tier_program').select('shop_id').where('status', '=', 'launched').execute()).map((r) => r.shop_id);
}
