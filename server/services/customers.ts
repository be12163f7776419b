/**
 * Customers in the admin (issue 10; spec 002 §2 Customers, §3 Customer and Adjust points, §4
 * customer types): the list with tabs, search, sort and cursor pagination; a customer's profile
 * with balances; the activity (ledger entries with their explanation as data the admin renders in
 * plain words); adjusting points; excluding a member and letting a left customer join again.
 */
import { sql } from 'kysely';
import type { AppDeps } from '../deps';
import type { Db } from '../db/database';
import type { CustomersTable, LedgerEntriesTable } from '../db/tables';
import type { Selectable } from 'kysely';
import { ApiError, notFound } from '../errors';
import { appendEntries } from '../store/ledger';

/** The list tabs (spec 002 §2: All, Member, Guest, Left). */
export const CUSTOMER_TABS = ['all', 'member', 'guest', 'left'] as const;
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
  tierId: string | null;
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

/** Pending points of some customers at `now` (positive awards not available yet), by id. */
async function pendingOf(db: Db, shopId: string, ids: readonly string[], now: string): Promise<Map<string, number>> {
  if (ids.length === 0) return new Map();
  const rows = await db
    .selectFrom('ledger_entries')
    .select(['customer_id', (eb) => eb.fn.sum<number>('points').as('pending')])
    .where('shop_id', '=', shopId)
    .where('customer_id', 'in', ids)
    .where('points', '>', 0)
    .where('available_at', '>', now)
    .groupBy('customer_id')
    .execute();
  return new Map(rows.map((r) => [r.customer_id, Number(r.pending)]));
}

const toRow = (c: Selectable<CustomersTable>, pending: number): CustomerRow => ({
  id: c.id,
  email: c.email,
  firstName: c.first_name,
  lastName: c.last_name,
  phone: c.phone,
  birthday: c.birthday,
  type: c.type,
  tierId: c.tier_id,
  points: c.points_balance - pending,
  pendingPoints: pending,
  updatedAt: c.updated_at,
});

/**
 * One page of the shop's customers. Sorting by points orders by the stored balance (available and
 * pending together); ties by id. Throws ApiError 400 `invalid_query` for a cursor of another list.
 */
export async function listCustomers(deps: AppDeps, shopId: string, q: CustomerQuery): Promise<CustomerPage> {
  let base = deps.db.selectFrom('customers').where('shop_id', '=', shopId);
  if (q.tab !== 'all') base = base.where('type', '=', q.tab);
  const search = q.search?.trim();
  if (search) {
    if (search.includes('@')) base = base.where('email', 'in', [...new Set([search, search.toLowerCase()])]);
    else {
      const prefix = `${search.toLowerCase().replace(/[\\%_]/g, (m) => `\\${m}`)}%`;
      base = base.where((eb) => eb.or([eb(sql`lower(first_name)`, 'like', sql`${prefix} escape '\\'`), eb(sql`lower(last_name)`, 'like', sql`${prefix} escape '\\'`), eb(sql`lower(first_name || ' ' || last_name)`, 'like', sql`${prefix} escape '\\'`)]));
    }
  }
  const total = Number((await base.select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirst())?.n ?? 0);
  let page = base.selectAll();
  const after = q.after ? decodeCursor(q.after, q.sort) : null;
  if (q.sort === 'points_desc') {
    if (after) page = page.where((eb) => eb.or([eb('points_balance', '<', after[0] as number), eb.and([eb('points_balance', '=', after[0] as number), eb('id', '<', after[1])])]));
    page = page.orderBy('points_balance', 'desc').orderBy('id', 'desc');
  } else if (q.sort === 'points_asc') {
    if (after) page = page.where((eb) => eb.or([eb('points_balance', '>', after[0] as number), eb.and([eb('points_balance', '=', after[0] as number), eb('id', '>', after[1])])]));
    page = page.orderBy('points_balance', 'asc').orderBy('id', 'asc');
  } else {
    if (after) page = page.where((eb) => eb.or([eb('updated_at', '<', after[0] as string), eb.and([eb('updated_at', '=', after[0] as string), eb('id', '<', after[1])])]));
    page = page.orderBy('updated_at', 'desc').orderBy('id', 'desc');
  }
  const rows = await page.limit(q.limit + 1).execute();
  const hasNextPage = rows.length > q.limit;
  const shown = rows.slice(0, q.limit);
  const pending = await pendingOf(deps.db, shopId, shown.map((r) => r.id), nowIso(deps));
  const last = shown.at(-1);
  return {
    data: shown.map((r) => toRow(r, pending.get(r.id) ?? 0)),
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
  const now = nowIso(deps);
  const totals = await deps.db
    .selectFrom('ledger_entries')
    .select([
      sql<number>`coalesce(sum(case when points > 0 then points else 0 end), 0)`.as('earned'),
      sql<number>`coalesce(sum(case when type = 'spend_point' then -points else 0 end), 0)`.as('spent'),
      sql<number>`coalesce(sum(case when points > 0 and available_at > ${now} then points else 0 end), 0)`.as('pending'),
    ])
    .where('shop_id', '=', shopId)
    .where('customer_id', '=', id)
    .executeTakeFirstOrThrow();
  const events = await deps.db.selectFrom('customer_events').selectAll().where('shop_id', '=', shopId).where('customer_id', '=', id).orderBy('created_at', 'desc').orderBy('id', 'desc').limit(50).execute();
  return {
    ...toRow(row, Number(totals.pending)),
    createdAt: row.created_at,
    lifetimePoints: Number(totals.earned),
    spentPoints: Number(totals.spent),
    events: events.map((e) => ({ id: e.id, kind: e.kind, detail: JSON.parse(e.detail) as unknown, actor: e.actor, createdAt: e.created_at })),
  };
}

/** Activity tabs (spec 002 §2 Customer detail): which ledger entries each shows. */
export const ACTIVITY_TABS = ['all', 'earned', 'redeemed', 'refunded', 'expired', 'orders', 'admin'] as const;
export type ActivityTab = (typeof ACTIVITY_TABS)[number];

/** A ledger entry as the activity shows it; `explanation` is the stored JSON (order award, reversal, adjustment). */
export interface ActivityEntry {
  id: string;
  type: string;
  points: number;
  sourceType: string;
  sourceId: string;
  programId: string | null;
  programKind: string | null;
  reversesId: string | null;
  explanation: unknown;
  createdAt: string;
  availableAt: string | null;
}

/** One page of a customer's activity, newest first, with the spec's list shape. */
export async function customerActivity(deps: AppDeps, shopId: string, customerId: string, tab: ActivityTab, limit: number, after?: string): Promise<{ data: ActivityEntry[]; pageInfo: { hasNextPage: boolean; endCursor: string | null } }> {
  let q = deps.db.selectFrom('ledger_entries').selectAll().where('shop_id', '=', shopId).where('customer_id', '=', customerId);
  if (tab === 'earned') q = q.where('points', '>', 0);
  else if (tab === 'redeemed') q = q.where('type', '=', 'spend_point');
  else if (tab === 'refunded') q = q.where('source_type', 'in', ['refund', 'cancellation']);
  else if (tab === 'expired') q = q.where('source_type', '=', 'expiry');
  else if (tab === 'orders') q = q.where('source_type', 'in', ['order', 'refund', 'cancellation']);
  else if (tab === 'admin') q = q.where('source_type', '=', 'admin_adjustment');
  if (after) {
    let cursor: [string, string];
    try {
      cursor = JSON.parse(Buffer.from(after, 'base64url').toString('utf8')) as [string, string];
      if (!Array.isArray(cursor) || typeof cursor[0] !== 'string' || typeof cursor[1] !== 'string') throw new Error('shape');
    } catch {
      throw new ApiError(400, 'invalid_query', 'Value invalid', [{ path: 'after', message: 'This cursor does not belong to this list; start from the first page' }]);
    }
    q = q.where((eb) => eb.or([eb('created_at', '<', cursor[0]), eb.and([eb('created_at', '=', cursor[0]), eb('id', '<', cursor[1])])]));
  }
  const rows = await q.orderBy('created_at', 'desc').orderBy('id', 'desc').limit(limit + 1).execute();
  const shown = rows.slice(0, limit);
  const last = shown.at(-1);
  return {
    data: shown.map((r: LedgerEntriesTable) => ({
      id: r.id,
      type: r.type,
      points: r.points,
      sourceType: r.source_type,
      sourceId: r.source_id,
      programId: r.program_id,
      programKind: r.program_kind,
      reversesId: r.reverses_id,
      explanation: JSON.parse(r.explanation) as unknown,
      createdAt: r.created_at,
      availableAt: r.available_at ?? null,
    })),
    pageInfo: { hasNextPage: rows.length > limit, endCursor: last ? Buffer.from(JSON.stringify([last.created_at, last.id])).toString('base64url') : null },
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

/**
 * Appends an admin adjustment (`earn_point` or `minus_point`, source `admin_adjustment`) and
 * answers the new profile. Throws 404 for an unknown customer; 422 `validation_failed` with the
 * field path for a bad amount or note; 409 `negative_balance` when a subtraction would take the
 * available balance below zero and `allowNegative` is not set.
 */
export async function adjustPoints(deps: AppDeps, shopId: string, customerId: string, input: Adjustment, actor: string): Promise<CustomerProfileView> {
  const now = nowIso(deps);
  await deps.db.transaction().execute(async (tx) => {
    const customer = await tx.selectFrom('customers').select(['id', 'points_balance']).where('shop_id', '=', shopId).where('id', '=', customerId).executeTakeFirst();
    if (!customer) throw notFound('not_found', 'This customer does not exist');
    if (input.points < 0 && !input.allowNegative) {
      const pending = (await pendingOf(tx, shopId, [customerId], now)).get(customerId) ?? 0;
      const available = customer.points_balance - pending;
      if (available + input.points < 0) {
        throw new ApiError(409, 'negative_balance', `The customer has ${available} points available; subtracting ${-input.points} would leave ${available + input.points}. Choose to allow a negative balance to do it anyway.`, [{ path: '/points', message: `At most ${available} points can be subtracted` }]);
      }
    }
    await appendEntries(tx, [
      {
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
        explanation: JSON.stringify({ adminNote: input.adminNote, customerNote: input.customerNote, adjustTierPoints: input.adjustTierPoints, actor }),
        created_at: now,
        available_at: null,
      },
    ]);
    await tx.updateTable('customers').set({ updated_at: now }).where('shop_id', '=', shopId).where('id', '=', customerId).execute();
  });
  return (await customerProfile(deps, shopId, customerId))!;
}

/**
 * Excludes a member from every program (type `left`, spec 002 §4) or lets a left customer join
 * again (type `member`), recording who and when. Throws 404 for an unknown customer, 409
 * `not_a_member` / `not_left` when the customer is not in the state the action starts from.
 */
export async function changeMembership(deps: AppDeps, shopId: string, customerId: string, action: 'exclude' | 'rejoin', actor: string, note: string): Promise<CustomerProfileView> {
  const now = nowIso(deps);
  const from = action === 'exclude' ? 'member' : 'left';
  const to = action === 'exclude' ? 'left' : 'member';
  await deps.db.transaction().execute(async (tx) => {
    const customer = await tx.selectFrom('customers').select(['type']).where('shop_id', '=', shopId).where('id', '=', customerId).executeTakeFirst();
    if (!customer) throw notFound('not_found', 'This customer does not exist');
    if (customer.type !== from) {
      throw new ApiError(409, action === 'exclude' ? 'not_a_member' : 'not_left', action === 'exclude' ? 'Only a member can be excluded' : 'Only a customer who left the program can join again');
    }
    await tx.updateTable('customers').set({ type: to, updated_at: now }).where('shop_id', '=', shopId).where('id', '=', customerId).execute();
    await tx
      .insertInto('customer_events')
      .values({ id: crypto.randomUUID(), shop_id: shopId, customer_id: customerId, kind: action === 'exclude' ? 'excluded' : 'rejoined', detail: JSON.stringify({ from, to, note }), actor, created_at: now })
      .execute();
  });
  return (await customerProfile(deps, shopId, customerId))!;
}
