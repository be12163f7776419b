/**
 * Customers in the admin (issue 10; spec 002 §2 Customers, §3 Customer and Adjust points, §4
 * customer types): the list with tabs, search, sort and cursor pagination; a customer's profile
 * with balances; the activity (ledger entries with their explanation as data the admin renders in
 * plain words); adjusting points; excluding a member and letting a left customer join again.
 */
import { sql, type ExpressionBuilder, type Kysely } from 'kysely';
import { isSqlite } from '../db/dialect';
import type { AppDeps } from '../deps';
import type { Db } from '../db/database';
import type { CustomersTable, Database, LedgerEntriesTable } from '../db/tables';
import type { Selectable } from 'kysely';
import { ApiError, notFound } from '../errors';
import { appendEntries, pendingPoints } from '../store/ledger';
import { assertPointsAdjustable, periodStats, tierContext } from './tiers';
import type { TierStats } from '../../engine/tiers';

/**
 * The list tabs (spec 002 §2: All, Member, Guest, Left, B2B, Left segment). `left` lists customers
 * the merchant excluded; `left_segment` those out of the program because their RFM group is
 * excluded (server/services/segments.ts); `b2b` the customers placed in a B2B partner tier (a
 * `tier.partner` document).
 */
export const CUSTOMER_TABS = ['all', 'member', 'guest', 'left', 'b2b', 'left_segment'] as const;
export type CustomerTab = (typeof CUSTOMER_TABS)[number];
/** Orders of the list: points high to low (default), low to high, last update newest first. */
export const CUSTOMER_SORTS = ['points_desc', 'points_asc', 'updated_desc'] as const;
export type CustomerSort = (typeof CUSTOMER_SORTS)[number];
/** Page sizes offered (spec 002 §2 "items per page is selectable"). */
export const PAGE_SIZES = [10, 20, 50, 100] as const;

/** A customer as a list row. Points are whole points. */
export interface CustomerRow {
  id: string;
  email: string;
  firstName: string;
  lastName: string;
  phone: string | null;
  birthday: string | null;
  type: string;
  /** Why a left customer left: `admin` (excluded) or `segment` (their RFM group is excluded); null otherwise. */
  leftReason: string | null;
  /** The platform's RFM group (server/platform/customer-segments.ts RFM_GROUPS) at the last sync, or null. */
  rfmGroup: string | null;
  tierId: string | null;
  /** The VIP or partner tier's name (from its document), or null. */
  tierName: string | null;
  /** Tier stats in the VIP program's current assessment period (spec 002 §2 columns tier earned, spent, orders); amounts in minor units. */
  tierStats: TierStats;
  /** Available points (the balance less pending awards). */
  points: number;
  pendingPoints: number;
  updatedAt: string;
}

/** A page of the list, in the spec's list shape (spec 000 §3 "List responses"). */
export interface CustomerPage {
  data: CustomerRow[];
  pageInfo: { hasNextPage: boolean; endCursor: string | null };
  /** Customers in the tab matching the search, all pages together. */
  total: number;
}

/** What the list is asked for. */
export interface CustomerQuery {
  tab: CustomerTab;
  sort: CustomerSort;
  /** Full e-mail address (contains `@`), or the start of a first or last name; case-insensitive. */
  search?: string;
  limit: number;
  /** `endCursor` of the previous page. */
  after?: string;
}

type Cursor = [number | string, string];

const encodeCursor = (c: Cursor): string => Buffer.from(JSON.stringify(c)).toString('base64url');

function decodeCursor(text: string, sort: CustomerSort): Cursor {
  try {
    const value = JSON.parse(Buffer.from(text, 'base64url').toString('utf8')) as unknown;
    if (Array.isArray(value) && value.length === 2 && typeof value[1] === 'string' && (sort === 'updated_desc' ? typeof value[0] === 'string' : Number.isSafeInteger(value[0]))) return value as Cursor;
  } catch {
    // falls through to the error below
  }
  throw new ApiError(400, 'invalid_query', 'Value invalid', [{ path: 'after', message: 'This cursor does not belong to this list; start from the first page' }]);
}

const nowIso = (deps: AppDeps): string => (deps.now ?? (() => new Date()))().toISOString();

/** Names of the tiers some customers are in (a page at most), by tier document id. */
async function tierNames(db: Db, shopId: string, ids: readonly (string | null)[]): Promise<Map<string, string>> {
  const wanted = [...new Set(ids.filter((id): id is string => id !== null))];
  if (wanted.length === 0) return new Map();
  const docs = await db.selectFrom('documents').select(['id', 'data']).where('shop_id', '=', shopId).where('id', 'in', wanted).execute();
  return new Map(
    docs.map((d) => {
      const data = JSON.parse(d.data) as { name?: unknown; title?: unknown };
      return [d.id, typeof data.name === 'string' ? data.name : typeof data.title === 'string' ? data.title : d.id];
    }),
  );
}

const NO_STATS: TierStats = { tierPoints: 0, amountSpentMinor: 0, orders: 0 };

/** Tier stats of some customers (a page at most) in the current assessment period. */
async function statsOf(deps: AppDeps, shopId: string, ids: readonly string[]): Promise<Map<string, TierStats>> {
  if (ids.length === 0) return new Map();
  return periodStats(deps.db, await tierContext(deps.db, shopId), ids, (deps.now ?? (() => new Date()))());
}

const toRow = (c: Selectable<CustomersTable>, pending: number, tiers: Map<string, string> = new Map(), stats: TierStats = NO_STATS): CustomerRow => ({
  id: c.id,
  email: c.email,
  firstName: c.first_name,
  lastName: c.last_name,
  phone: c.phone,
  birthday: c.birthday,
  type: c.type,
  leftReason: c.type === 'left' ? (c.left_reason ?? 'admin') : null,
  rfmGroup: c.rfm_group ?? null,
  tierId: c.tier_id,
  tierName: c.tier_id ? (tiers.get(c.tier_id) ?? null) : null,
  tierStats: stats,
  points: c.points_balance - pending,
  pendingPoints: pending,
  updatedAt: c.updated_at,
});

/**
 * The name search's condition: the full name (first and last) or the last name starts with
 * `search`, case-insensitive, as a range over the expression indexes of migration 0031 (code point
 * order; PostgreSQL compares them `collate "C"` like the indexes). The range [prefix, prefix with
 * its last character one higher) holds exactly the names that start with the prefix.
 */
export function nameSearch(db: Db, search: string) {
  const low = search.toLowerCase();
  const last = low.charCodeAt(low.length - 1);
  const high = low.slice(0, -1) + String.fromCharCode(last + 1);
  const c = isSqlite(db as unknown as Kysely<unknown>) ? sql`` : sql` collate "C"`;
  const full = sql<string>`lower(first_name || ' ' || last_name)${c}`;
  const lastName = sql<string>`lower(last_name)${c}`;
  return (eb: ExpressionBuilder<Database, 'customers'>) =>
    eb.or([eb.and([eb(full, '>=', low), eb(full, '<', high)]), eb.and([eb(lastName, '>=', low), eb(lastName, '<', high)])]);
}

/**
 * One page of the shop's customers. Sorting by points orders by the stored balance (available and
 * pending together); ties by id. Throws ApiError 400 `invalid_query` for a cursor of another list.
 */
export async function listCustomers(deps: AppDeps, shopId: string, q: CustomerQuery): Promise<CustomerPage> {
  let base = deps.db.selectFrom('customers').where('shop_id', '=', shopId);
  if (q.tab === 'b2b') base = base.where('tier_id', 'in', (eb) => eb.selectFrom('documents').select('id').where('shop_id', '=', shopId).where('kind', '=', 'tier.partner'));
  else if (q.tab === 'left') base = base.where('type', '=', 'left').where((eb) => eb.or([eb('left_reason', 'is', null), eb('left_reason', '!=', 'segment')]));
  else if (q.tab === 'left_segment') base = base.where('type', '=', 'left').where('left_reason', '=', 'segment');
  else if (q.tab !== 'all') base = base.where('type', '=', q.tab);
  const search = q.search?.trim();
  if (search) {
    if (search.includes('@')) base = base.where('email', 'in', [...new Set([search, search.toLowerCase()])]);
    else base = base.where(nameSearch(deps.db, search));
  }
  const total = Number((await base.select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirst())?.n ?? 0);
  let page = base.selectAll();
  const after = q.after ? decodeCursor(q.after, q.sort) : null;
  // A search by e-mail finds one or two rows through customers_by_email; ordering by an expression
  // keeps SQLite (no statistics) from walking a sort index instead and testing every e-mail.
  // A name search reads its matches through the name indexes the same way (then sorts them).
  const byEmail = Boolean(search);
  const points = byEmail ? sql<number>`points_balance + 0` : sql<number>`points_balance`;
  const updated = byEmail ? sql<string>`updated_at || ''` : sql<string>`updated_at`;
  // Each cursor condition repeats its first column as a plain range (`<=` / `>=`), so the index
  // starts at the cursor rather than at the top of the list: a deep page costs what the first does.
  if (q.sort === 'points_desc') {
    if (after) page = page.where('points_balance', '<=', after[0] as number).where((eb) => eb.or([eb('points_balance', '<', after[0] as number), eb.and([eb('points_balance', '=', after[0] as number), eb('id', '<', after[1])])]));
    page = page.orderBy(points, 'desc').orderBy('id', 'desc');
  } else if (q.sort === 'points_asc') {
    if (after) page = page.where('points_balance', '>=', after[0] as number).where((eb) => eb.or([eb('points_balance', '>', after[0] as number), eb.and([eb('points_balance', '=', after[0] as number), eb('id', '>', after[1])])]));
    page = page.orderBy(points, 'asc').orderBy('id', 'asc');
  } else {
    if (after) page = page.where('updated_at', '<=', after[0] as string).where((eb) => eb.or([eb('updated_at', '<', after[0] as string), eb.and([eb('updated_at', '=', after[0] as string), eb('id', '<', after[1])])]));
    page = page.orderBy(updated, 'desc').orderBy('id', 'desc');
  }
  const rows = await page.limit(q.limit + 1).execute();
  const hasNextPage = rows.length > q.limit;
  const shown = rows.slice(0, q.limit);
  const pending = await pendingPoints(deps.db, shopId, shown.map((r) => r.id), nowIso(deps));
  const tiers = await tierNames(deps.db, shopId, shown.map((r) => r.tier_id));
  const stats = await statsOf(deps, shopId, shown.map((r) => r.id));
  const last = shown.at(-1);
  return {
    data: shown.map((r) => toRow(r, pending.get(r.id) ?? 0, tiers, stats.get(r.id))),
    pageInfo: { hasNextPage, endCursor: last ? encodeCursor([q.sort === 'updated_desc' ? last.updated_at : last.points_balance, last.id]) : null },
    total,
  };
}

/** A customer's profile: the row, the balances and the membership events (newest first). */
export interface CustomerProfileView extends CustomerRow {
  createdAt: string;
  /** Points ever earned (positive entries), whole points. */
  lifetimePoints: number;
  /** Points spent on rewards (as a positive number). */
  spentPoints: number;
  events: { id: string; kind: string; detail: unknown; actor: string; createdAt: string }[];
}

/** The profile, or undefined for a customer the shop does not have. */
export async function customerProfile(deps: AppDeps, shopId: string, id: string): Promise<CustomerProfileView | undefined> {
  const row = await deps.db.selectFrom('customers').selectAll().where('shop_id', '=', shopId).where('id', '=', id).executeTakeFirst();
  if (!row) return undefined;
  // Lifetime points are kept on the row (`points_earned`, moved with every append); spent points
  // come from `ledger_entries_customer` alone (it carries points and type), the pending points from
  // the partial `ledger_entries_pending`: no ledger table row is read, which is what a profile costs
  // when its pages are not cached yet (bench:ingest's balance read, issue 14).
  const totals = await deps.db
    .selectFrom('ledger_entries')
    .select([sql<number>`coalesce(sum(case when type = 'spend_point' then -points else 0 end), 0)`.as('spent')])
    .where('shop_id', '=', shopId)
    .where('customer_id', '=', id)
    .executeTakeFirstOrThrow();
  const pending = (await pendingPoints(deps.db, shopId, [id], nowIso(deps))).get(id) ?? 0;
  const events = await deps.db.selectFrom('customer_events').selectAll().where('shop_id', '=', shopId).where('customer_id', '=', id).orderBy('created_at', 'desc').orderBy('id', 'desc').limit(50).execute();
  return {
    ...toRow(row, pending, await tierNames(deps.db, shopId, [row.tier_id]), (await statsOf(deps, shopId, [row.id])).get(row.id)),
    createdAt: row.created_at,
    lifetimePoints: Number(row.points_earned),
    spentPoints: Number(totals.spent),
    events: events.map((e) => ({ id: e.id, kind: e.kind, detail: JSON.parse(e.detail) as unknown, actor: e.actor, createdAt: e.created_at })),
  };
}

/**
 * Activity tabs (spec 002 §2 Customer detail: All, Point activities, VIP tier changes, Email
 * notifications, Order activities, Referral, Point earned, redeemed, refunded, expired, Entry
 * reward, Admin adjustments). `all` merges ledger entries with the customer's membership and tier
 * events; `tier` shows the tier events; `emails` has no source until notifications are sent.
 */
export const ACTIVITY_TABS = ['all', 'points', 'tier', 'emails', 'orders', 'referral', 'earned', 'redeemed', 'refunded', 'expired', 'entry_reward', 'admin'] as const;
export type ActivityTab = (typeof ACTIVITY_TABS)[number];

/**
 * One line of a customer's activity. A ledger entry (`entry: 'ledger'`) carries signed whole
 * points and its stored explanation; a membership or tier event (`entry: 'event'`) carries 0
 * points, its kind in `type`, its detail as `explanation` and who made it in `actor`.
 */
export interface ActivityEntry {
  entry: 'ledger' | 'event';
  id: string;
  type: string;
  points: number;
  sourceType: string;
  sourceId: string;
  programId: string | null;
  programKind: string | null;
  /** The program document's version that made the entry (issue 15: the activity links to its versions); null when none. */
  programVersion: number | null;
  reversesId: string | null;
  explanation: unknown;
  actor: string | null;
  createdAt: string;
  availableAt: string | null;
}

type ActivityCursor = [string, string];

function decodeActivityCursor(after: string): ActivityCursor {
  try {
    const cursor = JSON.parse(Buffer.from(after, 'base64url').toString('utf8')) as unknown;
    if (Array.isArray(cursor) && cursor.length === 2 && typeof cursor[0] === 'string' && typeof cursor[1] === 'string') return cursor as ActivityCursor;
  } catch {
    // falls through to the error below
  }
  throw new ApiError(400, 'invalid_query', 'Value invalid', [{ path: 'after', message: 'This cursor does not belong to this list; start from the first page' }]);
}

const LEDGER_SOURCES: Partial<Record<ActivityTab, readonly string[]>> = {
  orders: ['order', 'refund', 'cancellation'],
  referral: ['referral'],
  refunded: ['refund', 'cancellation', 'revoke'],
  expired: ['expiry'],
  entry_reward: ['tier_entry_reward'],
  admin: ['admin_adjustment'],
};

/** Ledger entries of one tab (or none for the tabs that show only events), newest first from the cursor. */
async function ledgerActivity(db: Db, shopId: string, customerId: string, tab: ActivityTab, limit: number, after: ActivityCursor | null): Promise<ActivityEntry[]> {
  if (tab === 'tier' || tab === 'emails') return [];
  let q = db.selectFrom('ledger_entries').selectAll().where('shop_id', '=', shopId).where('customer_id', '=', customerId);
  const sources = LEDGER_SOURCES[tab];
  if (sources) q = q.where('source_type', 'in', sources);
  else if (tab === 'earned') q = q.where('points', '>', 0).where('type', 'in', ['earn_point', 'pending_earn_point']);
  else if (tab === 'redeemed') q = q.where('type', '=', 'spend_point');
  if (after) q = q.where((eb) => eb.or([eb('created_at', '<', after[0]), eb.and([eb('created_at', '=', after[0]), eb('id', '<', after[1])])]));
  const rows = await q.orderBy('created_at', 'desc').orderBy('id', 'desc').limit(limit).execute();
  return rows.map((r: LedgerEntriesTable) => ({
    entry: 'ledger',
    id: r.id,
    type: r.type,
    points: r.points,
    sourceType: r.source_type,
    sourceId: r.source_id,
    programId: r.program_id,
    programKind: r.program_kind,
    programVersion: r.program_version === null ? null : Number(r.program_version),
    reversesId: r.reverses_id,
    explanation: JSON.parse(r.explanation) as unknown,
    actor: null,
    createdAt: r.created_at,
    availableAt: r.available_at ?? null,
  }));
}

/** Membership and tier events for the `all` and `tier` tabs, newest first from the cursor. */
async function eventActivity(db: Db, shopId: string, customerId: string, tab: ActivityTab, limit: number, after: ActivityCursor | null): Promise<ActivityEntry[]> {
  if (tab !== 'all' && tab !== 'tier') return [];
  let q = db.selectFrom('customer_events').selectAll().where('shop_id', '=', shopId).where('customer_id', '=', customerId);
  if (tab === 'tier') q = q.where('kind', 'like', 'tier%');
  if (after) q = q.where((eb) => eb.or([eb('created_at', '<', after[0]), eb.and([eb('created_at', '=', after[0]), eb('id', '<', after[1])])]));
  const rows = await q.orderBy('created_at', 'desc').orderBy('id', 'desc').limit(limit).execute();
  return rows.map((e) => ({
    entry: 'event',
    id: e.id,
    type: e.kind,
    points: 0,
    sourceType: 'customer_event',
    sourceId: e.id,
    programId: null,
    programKind: null,
    programVersion: null,
    reversesId: null,
    explanation: JSON.parse(e.detail) as unknown,
    actor: e.actor,
    createdAt: e.created_at,
    availableAt: null,
  }));
}

/**
 * One page of a customer's activity, newest first, in the spec's list shape. Ledger entries and
 * events are merged on (created_at, id), so the cursor works across both. Throws ApiError 400
 * `invalid_query` for a cursor of another list.
 */
export async function customerActivity(deps: AppDeps, shopId: string, customerId: string, tab: ActivityTab, limit: number, after?: string): Promise<{ data: ActivityEntry[]; pageInfo: { hasNextPage: boolean; endCursor: string | null } }> {
  const cursor = after ? decodeActivityCursor(after) : null;
  const [ledger, events] = await Promise.all([ledgerActivity(deps.db, shopId, customerId, tab, limit + 1, cursor), eventActivity(deps.db, shopId, customerId, tab, limit + 1, cursor)]);
  const merged = [...ledger, ...events].sort((a, b) => (a.createdAt === b.createdAt ? (a.id < b.id ? 1 : a.id > b.id ? -1 : 0) : a.createdAt < b.createdAt ? 1 : -1));
  const shown = merged.slice(0, limit);
  const last = shown.at(-1);
  return {
    data: shown,
    pageInfo: { hasNextPage: merged.length > limit, endCursor: last ? Buffer.from(JSON.stringify([last.createdAt, last.id])).toString('base64url') : null },
  };
}

/** The largest adjustment one request may make, either way (whole points). */
export const MAX_ADJUSTMENT = 1_000_000_000;

/** Spec 002 §3 Adjust points. */
export interface Adjustment {
  /** Signed whole points; negative subtracts. */
  points: number;
  /** For the shop's staff (up to 500 characters). */
  adminNote: string;
  /** Shown to the customer in their history (up to 500 characters). */
  customerNote: string;
  /** Whether tier points change with the balance (recorded; tiers read it when they assess). */
  adjustTierPoints: boolean;
  /** Allow the available balance to go below zero (an explicit choice; off by default). */
  allowNegative: boolean;
}

/** The most customers one bulk action may touch (a page of the list at its largest is 100). */
export const MAX_BULK = 250;

/**
 * Appends an admin adjustment (`earn_point` or `minus_point`, source `admin_adjustment`) to each
 * of `customerIds` in one transaction: all or none. Throws 404 `not_found` naming the unknown ids;
 * 409 `negative_balance` (details name `/points`, and the customers) when a subtraction would take
 * an available balance below zero and `allowNegative` is not set; 409 `tier_manual_assignment` for a
 * customer in a manually assigned tier. Answers the customers adjusted.
 */
export async function adjustPointsMany(deps: AppDeps, shopId: string, customerIds: readonly string[], input: Adjustment, actor: string): Promise<number> {
  const now = nowIso(deps);
  const ids = [...new Set(customerIds)];
  await deps.db.transaction().execute(async (tx) => {
    const customers = await tx.selectFrom('customers').select(['id', 'points_balance', 'email', 'first_name', 'last_name']).where('shop_id', '=', shopId).where('id', 'in', ids).execute();
    if (customers.length !== ids.length) {
      const found = new Set(customers.map((c) => c.id));
      throw new ApiError(404, 'not_found', ids.length === 1 ? 'This customer does not exist' : 'Some customers do not exist', ids.filter((id) => !found.has(id)).map((id) => ({ path: `/customerIds/${ids.indexOf(id)}`, message: `No customer ${id}` })));
    }
    // Spec 002 §4: a tier with manual assignment cannot have points adjusted (409 tier_manual_assignment).
    for (const id of ids) await assertPointsAdjustable(tx, shopId, id);
    if (input.points < 0 && !input.allowNegative) {
      const pending = await pendingPoints(tx, shopId, ids, now);
      const short = customers.map((c) => ({ c, available: c.points_balance - (pending.get(c.id) ?? 0) })).filter(({ available }) => available + input.points < 0);
      if (short.length > 0) {
        const first = short[0]!;
        const message =
          ids.length === 1
            ? `The customer has ${first.available} points available; subtracting ${-input.points} would leave ${first.available + input.points}. Choose to allow a negative balance to do it anyway.`
            : `${short.length} of the ${ids.length} customers have fewer than ${-input.points} points available. Choose to allow a negative balance to do it anyway.`;
        throw new ApiError(409, 'negative_balance', message, [
          { path: '/points', message: ids.length === 1 ? `At most ${first.available} points can be subtracted` : `At most ${Math.min(...short.map((x) => x.available))} points can be subtracted from every selected customer` },
        ]);
      }
    }
    await appendEntries(
      tx,
      ids.map((customerId) => ({
        id: crypto.randomUUID(),
        shop_id: shopId,
        customer_id: customerId,
        type: input.points > 0 ? 'earn_point' : 'minus_point',
        points: input.points,
        program_id: null,
        program_kind: null,
        program_version: null,
        source_type: 'admin_adjustment',
        source_id: crypto.randomUUID(),
        reverses_id: null,
        explanation: JSON.stringify({ adminNote: input.adminNote, customerNote: input.customerNote, adjustTierPoints: input.adjustTierPoints, actor, ...(ids.length > 1 ? { bulk: ids.length } : {}) }),
        created_at: now,
        available_at: null,
      })),
    );
    await tx.updateTable('customers').set({ updated_at: now }).where('shop_id', '=', shopId).where('id', 'in', ids).execute();
  });
  return ids.length;
}

/**
 * Adjusts one customer's points (spec 002 §3 Adjust points) and answers the new profile. Errors as
 * {@link adjustPointsMany}.
 */
export async function adjustPoints(deps: AppDeps, shopId: string, customerId: string, input: Adjustment, actor: string): Promise<CustomerProfileView> {
  await adjustPointsMany(deps, shopId, [customerId], input, actor);
  return (await customerProfile(deps, shopId, customerId))!;
}

/**
 * Excludes members from every program (type `left`, spec 002 §4) or lets left customers join again
 * (type `member`), recording who and when, in one transaction. Letting a customer who left through
 * an excluded RFM group back in is the spec's "revert" (event `segment_reverted`); any customer let
 * back in is marked so the segment rule leaves them a member (the merchant's explicit choice wins). Throws 404 for unknown customers,
 * 409 `not_a_member` / `not_left` when a customer is not in the state the action starts from
 * (details name them).
 */
export async function changeMembershipMany(deps: AppDeps, shopId: string, customerIds: readonly string[], action: 'exclude' | 'rejoin', actor: string, note: string): Promise<number> {
  const now = nowIso(deps);
  const ids = [...new Set(customerIds)];
  const from = action === 'exclude' ? 'member' : 'left';
  const to = action === 'exclude' ? 'left' : 'member';
  await deps.db.transaction().execute(async (tx) => {
    const customers = await tx.selectFrom('customers').select(['id', 'type', 'left_reason']).where('shop_id', '=', shopId).where('id', 'in', ids).execute();
    if (customers.length !== ids.length) throw notFound('not_found', ids.length === 1 ? 'This customer does not exist' : 'Some customers do not exist');
    const wrong = customers.filter((c) => c.type !== from);
    if (wrong.length > 0) {
      const message = action === 'exclude' ? 'Only a member can be excluded' : 'Only a customer who left the program can join again';
      throw new ApiError(409, action === 'exclude' ? 'not_a_member' : 'not_left', ids.length === 1 ? message : `${message} (${wrong.length} of the selected customers are not)`, wrong.map((c) => ({ path: `/customerIds/${ids.indexOf(c.id)}`, message })));
    }
    await tx
      .updateTable('customers')
      .set(action === 'exclude' ? { type: to, left_reason: 'admin', updated_at: now } : { type: to, left_reason: null, segment_reverted: 1, updated_at: now })
      .where('shop_id', '=', shopId)
      .where('id', 'in', ids)
      .execute();
    const bySegment = new Set(customers.filter((c) => c.left_reason === 'segment').map((c) => c.id));
    await tx
      .insertInto('customer_events')
      .values(ids.map((customerId) => ({ id: crypto.randomUUID(), shop_id: shopId, customer_id: customerId, kind: action === 'exclude' ? 'excluded' : bySegment.has(customerId) ? 'segment_reverted' : 'rejoined', detail: JSON.stringify({ from, to, note }), actor, created_at: now })))
      .execute();
  });
  return ids.length;
}

/** One customer's membership change (see {@link changeMembershipMany}); answers the new profile. */
export async function changeMembership(deps: AppDeps, shopId: string, customerId: string, action: 'exclude' | 'rejoin', actor: string, note: string): Promise<CustomerProfileView> {
  await changeMembershipMany(deps, shopId, [customerId], action, actor, note);
  return (await customerProfile(deps, shopId, customerId))!;
}

const DAYS_IN_MONTH = [31, 29, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31];

/** True for a birthday written MM/DD that exists in some year (02/29 included). */
export function isBirthday(value: string): boolean {
  const m = /^(\d{2})\/(\d{2})$/.exec(value);
  if (!m) return false;
  const month = Number(m[1]);
  const day = Number(m[2]);
  return month >= 1 && month <= 12 && day >= 1 && day <= DAYS_IN_MONTH[month - 1]!;
}

/**
 * Sets or clears a customer's birthday (`MM/DD`, spec 002 §3 and §5) with who and when. Throws 404
 * for an unknown customer and 422 "Birthday is invalid" at `/birthday` for anything else than
 * `MM/DD` or null.
 */
export async function setBirthday(deps: AppDeps, shopId: string, customerId: string, birthday: string | null, actor: string): Promise<CustomerProfileView> {
  if (birthday !== null && !isBirthday(birthday)) throw new ApiError(422, 'validation_failed', 'Failed to update customer', [{ path: '/birthday', message: 'Birthday is invalid' }]);
  const now = nowIso(deps);
  await deps.db.transaction().execute(async (tx) => {
    const customer = await tx.selectFrom('customers').select(['birthday']).where('shop_id', '=', shopId).where('id', '=', customerId).executeTakeFirst();
    if (!customer) throw notFound('not_found', 'This customer does not exist');
    if (customer.birthday === birthday) return;
    await tx.updateTable('customers').set({ birthday, updated_at: now }).where('shop_id', '=', shopId).where('id', '=', customerId).execute();
    await tx.insertInto('customer_events').values({ id: crypto.randomUUID(), shop_id: shopId, customer_id: customerId, kind: 'birthday_changed', detail: JSON.stringify({ from: customer.birthday, to: birthday }), actor, created_at: now }).execute();
  });
  return (await customerProfile(deps, shopId, customerId))!;
}

/** The text a merchant types to convert every member to a guest (spec 002 §4: irreversible). */
export const CONVERT_CONFIRMATION = 'CONVERT';

/**
 * Converts every member of the shop to a guest (spec 002 §4 "Converting all members to guests is
 * irreversible: customers keep points and tier but cannot earn or redeem until reassigned"), with
 * one `converted_to_guest` event per customer, in one transaction. Throws 422 at `/confirm` unless
 * `confirm` is exactly {@link CONVERT_CONFIRMATION}. Answers how many customers changed.
 */
export async function convertMembersToGuests(deps: AppDeps, shopId: string, confirm: unknown, actor: string): Promise<number> {
  if (confirm !== CONVERT_CONFIRMATION) throw new ApiError(422, 'validation_failed', 'Failed to convert members to guests', [{ path: '/confirm', message: `Type ${CONVERT_CONFIRMATION} to confirm; this cannot be undone` }]);
  const now = nowIso(deps);
  return deps.db.transaction().execute(async (tx) => {
    const detail = JSON.stringify({ from: 'member', to: 'guest', bulk: 'all_members' });
    // One statement each, whatever the number of members: no row-by-row work.
    await tx
      .insertInto('customer_events')
      .columns(['id', 'shop_id', 'customer_id', 'kind', 'detail', 'actor', 'created_at'])
      .expression((eb) =>
        eb
          .selectFrom('customers')
          .select([sql<string>`${'cg:' + crypto.randomUUID() + ':'} || id`.as('id'), 'shop_id', sql<string>`id`.as('customer_id'), sql<string>`${'converted_to_guest'}`.as('kind'), sql<string>`${detail}`.as('detail'), sql<string>`${actor}`.as('actor'), sql<string>`${now}`.as('created_at')])
          .where('shop_id', '=', shopId)
          .where('type', '=', 'member'),
      )
      .execute();
    const result = await tx.updateTable('customers').set({ type: 'guest', updated_at: now }).where('shop_id', '=', shopId).where('type', '=', 'member').executeTakeFirst();
    return Number(result.numUpdatedRows);
  });
}
