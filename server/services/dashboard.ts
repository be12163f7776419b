/**
 * The dashboard (issue 12; spec 002 §2 Dashboard): report cards over a date range computed from
 * the ledger, the activities waiting for approval, the month's order allowance, the quick-start
 * checklist, and the quick search by customer e-mail, order id or coupon code.
 */
import { sql } from 'kysely';
import type { AppDeps } from '../deps';
import { resolveRange, type ReportRange, type ResolvedRange } from '../../engine/report-ranges';
import { orderAllowance, type AllowanceState } from '../../engine/allowance';
import { localDate } from '../../engine/store-time';
import { listDocuments } from '../store/documents';
import { shopOrThrow } from './orders';
import { tierProgramStatus } from './tiers';

/** The report cards of one range. Points are whole points. */
export interface DashboardReport {
  range: ResolvedRange;
  /** Points awarded (earned, pending or not), reversals not netted. */
  pointsIssued: number;
  /** Points spent on rewards. */
  pointsRedeemed: number;
  /** Points taken back by refunds, cancellations and expiry. */
  pointsReversed: number;
  /** Customers first seen in the range who are members now. */
  newMembers: number;
  /** Members now, all time. */
  members: number;
  /** Orders that earned points. */
  ordersThatEarned: number;
}

/** One item of the quick-start checklist (spec 002 §2), done or not, and where to do it. */
export interface ChecklistItem {
  id: 'earning' | 'redeeming' | 'vip' | 'reviews' | 'widget';
  done: boolean;
  path: string;
}

/** Everything the dashboard shows besides the search. */
export interface Dashboard {
  report: DashboardReport;
  approvals: { reviews: number };
  allowance: AllowanceState & { month: string };
  checklist: ChecklistItem[];
}

/** Builds the dashboard of `range` in the store's timezone. Throws 404 for an unknown shop. */
export async function dashboard(deps: AppDeps, shopId: string, range: ReportRange): Promise<Dashboard> {
  const shop = await shopOrThrow(deps.db, shopId);
  const now = (deps.now ?? (() => new Date()))();
  const resolved = resolveRange(range, now, shop.timeZone);
  const sums = await deps.db
    .selectFrom('ledger_entries')
    .select([
      sql<number>`coalesce(sum(case when type in ('earn_point', 'pending_earn_point') and points > 0 then points else 0 end), 0)`.as('issued'),
      sql<number>`coalesce(sum(case when type = 'spend_point' then -points else 0 end), 0)`.as('redeemed'),
      sql<number>`coalesce(sum(case when source_type in ('refund', 'cancellation', 'expiry') then -points else 0 end), 0)`.as('reversed'),
      sql<number>`count(distinct case when source_type = 'order' and points > 0 then source_id end)`.as('orders'),
    ])
    .where('shop_id', '=', shopId)
    .where('created_at', '>=', resolved.from)
    .where('created_at', '<', resolved.to)
    .executeTakeFirstOrThrow();
  const members = await deps.db
    .selectFrom('customers')
    .select([sql<number>`count(*)`.as('all'), sql<number>`coalesce(sum(case when created_at >= ${resolved.from} and created_at < ${resolved.to} then 1 else 0 end), 0)`.as('fresh')])
    .where('shop_id', '=', shopId)
    .where('type', '=', 'member')
    .executeTakeFirstOrThrow();
  const reviews = await deps.db.selectFrom('reviews').select(sql<number>`count(*)`.as('n')).where('shop_id', '=', shopId).where('status', '=', 'pending').executeTakeFirstOrThrow();
  const month = localDate(now, shop.timeZone).slice(0, 7);
  const usage = await deps.db.selectFrom('order_allowance_usage').select('orders').where('shop_id', '=', shopId).where('month', '=', month).executeTakeFirst();
  const docs = await listDocuments(deps.db, shopId);
  const on = (prefix: string) => docs.some((d) => d.kind.startsWith(prefix) && (d.data as { status?: unknown }).status === true);
  const tiers = await tierProgramStatus(deps.db, shopId);
  return {
    report: {
      range: resolved,
      pointsIssued: Number(sums.issued),
      pointsRedeemed: Number(sums.redeemed),
      pointsReversed: Number(sums.reversed),
      newMembers: Number(members.fresh),
      members: Number(members.all),
      ordersThatEarned: Number(sums.orders),
    },
    approvals: { reviews: Number(reviews.n) },
    allowance: { ...orderAllowance(shop.plan, Number(usage?.orders ?? 0)), month },
    checklist: [
      { id: 'earning', done: on('earning.'), path: '/programs' },
      { id: 'redeeming', done: on('redeem.'), path: '/programs?type=redeem' },
      { id: 'vip', done: tiers.status === 'launched', path: '/membership/vip' },
      { id: 'reviews', done: on('earning.write_review'), path: '/programs' },
      { id: 'widget', done: false, path: '/storefront' },
    ],
  };
}

/** A quick-search hit: what was found and where it opens. */
export interface SearchHit {
  type: 'customer' | 'order' | 'coupon';
  id: string;
  label: string;
  /** The admin path that shows it. */
  path: string;
  /** For an order: the points it earned (before any refund). For a customer: their points balance. */
  points: number | null;
}

/**
 * Quick search (spec 002 §2): a full e-mail finds the customer (any case); a number finds the order
 * by its platform id (the customer who earned on it); coupon codes have no store until redemption
 * exists, so they find nothing. At most 10 hits.
 */
export async function quickSearch(deps: AppDeps, shopId: string, query: string): Promise<SearchHit[]> {
  const q = query.trim();
  if (!q) return [];
  if (q.includes('@')) {
    const rows = await deps.db
      .selectFrom('customers')
      .select(['id', 'email', 'first_name', 'last_name', 'points_balance'])
      .where('shop_id', '=', shopId)
      .where('email', 'in', [...new Set([q, q.toLowerCase()])])
      .limit(10)
      .execute();
    return rows.map((r) => ({ type: 'customer', id: r.id, label: `${`${r.first_name} ${r.last_name}`.trim() || r.email} · ${r.email}`, path: `/customers/profile/${r.id}`, points: r.points_balance }));
  }
  const orderId = q.replace(/^#/, '');
  if (/^\d{1,20}$/.test(orderId)) {
    const rows = await deps.db
      .selectFrom('ledger_entries')
      .select(['customer_id', sql<number>`sum(points)`.as('points')])
      .where('shop_id', '=', shopId)
      .where('source_type', '=', 'order')
      .where('source_id', '=', orderId)
      .groupBy('customer_id')
      .limit(10)
      .execute();
    return rows.map((r) => ({ type: 'order', id: orderId, label: orderId, path: `/customers/profile/${r.customer_id}`, points: Number(r.points) }));
  }
  return [];
}
