/**
 * Customers (issue 10, spec 002 §2–§4): `GET /customers?tab=&sort=&search=&limit=&after=` (the
 * spec's list shape: data, pageInfo, total), `GET /customers/:id` (profile with balances and
 * membership events), `GET /customers/:id/activity?tab=&limit=&after=` (ledger entries, newest
 * first, ledger entries and membership/tier events merged), `PATCH /customers/:id` (birthday),
 * `POST /customers/:id/adjust`, `/exclude` and `/rejoin`, the bulk forms
 * `POST /customers/bulk/adjust|exclude|rejoin` (`customerIds` plus the single form's body),
 * `POST /customers/convert-to-guests` (`{ confirm: "CONVERT" }`), `GET /customers/segments` and
 * `POST /customers/segments/sync` (RFM groups, server/services/segments.ts); plus the stored explanation of an
 * ingested order (`GET /orders/:id/evaluation`).
 */
import { Hono, type Context } from 'hono';
import type { AppDeps, AppEnv } from '../deps';
import { ApiError, notFound } from '../errors';
import type { FieldIssue } from '../../engine/types';
import { findOrderEvaluation } from '../services/orders';
import {
  ACTIVITY_TABS,
  adjustPoints,
  adjustPointsMany,
  changeMembership,
  changeMembershipMany,
  convertMembersToGuests,
  MAX_BULK,
  setBirthday,
  CUSTOMER_SORTS,
  CUSTOMER_TABS,
  customerActivity,
  customerProfile,
  listCustomers,
  MAX_ADJUSTMENT,
  PAGE_SIZES,
  type ActivityTab,
  type Adjustment,
  type CustomerSort,
  type CustomerTab,
} from '../services/customers';
import { readJsonBody } from './body';
import { segmentSummary, segmentsAdapterOf, syncRfmGroups } from '../services/segments';

/** A query parameter that must be one of `allowed`; `fallback` when absent. Throws 400 `invalid_query`. */
function oneOf<T extends string>(c: Context, name: string, allowed: readonly T[], fallback: T): T {
  const value = c.req.query(name);
  if (value === undefined || value === '') return fallback;
  if ((allowed as readonly string[]).includes(value)) return value as T;
  throw new ApiError(400, 'invalid_query', 'Value invalid', [{ path: name, message: `Must be one of ${allowed.join(', ')}` }]);
}

/** `limit`: one of the page sizes (20 when absent). */
function pageSize(c: Context, sizes: readonly number[] = PAGE_SIZES, fallback = 20): number {
  const value = c.req.query('limit');
  if (value === undefined || value === '') return fallback;
  const n = Number(value);
  if (!sizes.includes(n)) throw new ApiError(400, 'invalid_query', 'Value invalid', [{ path: 'limit', message: `Must be one of ${sizes.join(', ')}` }]);
  return n;
}

const NOTE_MAX = 500;

/** The actor recorded with a merchant's action: the staff user from the session token. */
const actorOf = (c: Context<AppEnv>): string => `admin:${c.get('userId') || 'unknown'}`;

const ADJUSTMENT_FIELDS = ['points', 'adminNote', 'customerNote', 'adjustTierPoints', 'allowNegative'];

/** Reads an adjust-points body (spec 002 §3). Throws 422 `validation_failed` naming every bad field. */
function adjustmentOf(body: Record<string, unknown>): Adjustment {
  const issues: FieldIssue[] = [];
  const points = body.points;
  if (typeof points !== 'number' || !Number.isInteger(points) || points === 0 || Math.abs(points) > MAX_ADJUSTMENT) {
    issues.push({ path: '/points', message: `Enter a whole number of points other than 0, at most ${MAX_ADJUSTMENT.toLocaleString('en-US')} either way` });
  }
  const text = (name: string): string => {
    const v = body[name] ?? '';
    if (typeof v !== 'string') issues.push({ path: `/${name}`, message: 'Must be text' });
    else if (v.length > NOTE_MAX) issues.push({ path: `/${name}`, message: `Must be at most ${NOTE_MAX} characters` });
    return typeof v === 'string' ? v.trim() : '';
  };
  const flag = (name: string): boolean => {
    const v = body[name] ?? false;
    if (typeof v !== 'boolean') issues.push({ path: `/${name}`, message: 'Must be true or false' });
    return v === true;
  };
  const input = { points: points as number, adminNote: text('adminNote'), customerNote: text('customerNote'), adjustTierPoints: flag('adjustTierPoints'), allowNegative: flag('allowNegative') };
  for (const k of Object.keys(body).filter((k) => !ADJUSTMENT_FIELDS.includes(k))) issues.push({ path: `/${k}`, message: 'Unknown field' });
  if (issues.length > 0) throw new ApiError(422, 'validation_failed', 'Failed to adjust points', issues);
  return input;
}

/** The optional `note` of a membership change. Throws 422 at `/note`. */
function noteOf(body: Record<string, unknown>): string {
  const note = body.note ?? '';
  if (typeof note !== 'string' || note.length > NOTE_MAX) throw new ApiError(422, 'validation_failed', 'Failed to update customer', [{ path: '/note', message: `Must be text of at most ${NOTE_MAX} characters` }]);
  return note.trim();
}

/** `customerIds` of a bulk action: 1–MAX_BULK distinct ids. Throws 422 at `/customerIds`. Answers the rest of the body. */
function bulkIds(body: Record<string, unknown>): { ids: string[]; rest: Record<string, unknown> } {
  const { customerIds, ...rest } = body;
  if (!Array.isArray(customerIds) || customerIds.length === 0 || customerIds.length > MAX_BULK || !customerIds.every((id) => typeof id === 'string' && id.length > 0 && id.length <= 64)) {
    throw new ApiError(422, 'validation_failed', 'Select at least one customer', [{ path: '/customerIds', message: `Select between 1 and ${MAX_BULK} customers` }]);
  }
  return { ids: customerIds as string[], rest };
}

export function customerRoutes(deps: AppDeps): Hono<AppEnv> {
  const app = new Hono<AppEnv>();
  app.get('/customers', async (c) => {
    const search = c.req.query('search')?.trim() ?? '';
    if (search.length > 254) throw new ApiError(400, 'invalid_query', 'Value invalid', [{ path: 'search', message: 'Must be at most 254 characters' }]);
    const page = await listCustomers(deps, c.get('shopId'), {
      tab: oneOf<CustomerTab>(c, 'tab', CUSTOMER_TABS, 'all'),
      sort: oneOf<CustomerSort>(c, 'sort', CUSTOMER_SORTS, 'points_desc'),
      ...(search ? { search } : {}),
      limit: pageSize(c),
      ...(c.req.query('after') ? { after: c.req.query('after')! } : {}),
    });
    return c.json(page);
  });
  /** The eleven RFM groups with their customer counts, which are excluded, and the last sync (spec 002 §2). */
  app.get('/customers/segments', async (c) => c.json({ data: await segmentSummary(deps, c.get('shopId')) }));
  /** Reads every customer's RFM group from the platform now and applies the segment rule; answers what moved. */
  app.post('/customers/segments/sync', async (c) => {
    const shopId = c.get('shopId');
    const result = await syncRfmGroups(deps, shopId, segmentsAdapterOf(deps), actorOf(c));
    return c.json({ data: { ...result, summary: await segmentSummary(deps, shopId) }, message: 'Segments updated' });
  });
  app.get('/customers/:id', async (c) => {
    const profile = await customerProfile(deps, c.get('shopId'), c.req.param('id'));
    if (!profile) throw notFound('not_found', 'This customer does not exist');
    return c.json({ data: profile });
  });
  app.get('/customers/:id/activity', async (c) => {
    const shopId = c.get('shopId');
    const id = c.req.param('id');
    const exists = await deps.db.selectFrom('customers').select('id').where('shop_id', '=', shopId).where('id', '=', id).executeTakeFirst();
    if (!exists) throw notFound('not_found', 'This customer does not exist');
    const page = await customerActivity(deps, shopId, id, oneOf<ActivityTab>(c, 'tab', ACTIVITY_TABS, 'all'), pageSize(c, [10, 20, 50, 100, 250], 50), c.req.query('after') || undefined);
    return c.json({ ...page, count: page.data.length });
  });
  app.post('/customers/bulk/adjust', async (c) => {
    const body = await readJsonBody(c);
    const { ids, rest } = bulkIds(body);
    const count = await adjustPointsMany(deps, c.get('shopId'), ids, adjustmentOf(rest), actorOf(c));
    return c.json({ data: { count }, message: 'Points adjusted' });
  });
  for (const action of ['exclude', 'rejoin'] as const) {
    app.post(`/customers/bulk/${action}`, async (c) => {
      const { ids, rest } = bulkIds(await readJsonBody(c));
      const count = await changeMembershipMany(deps, c.get('shopId'), ids, action, actorOf(c), noteOf(rest));
      return c.json({ data: { count }, message: 'Updated successfully' });
    });
  }
  /** Body `{ confirm: "CONVERT" }`: every member becomes a guest (irreversible, spec 002 §4). */
  app.post('/customers/convert-to-guests', async (c) => {
    const body = await readJsonBody(c);
    const count = await convertMembersToGuests(deps, c.get('shopId'), body.confirm, actorOf(c));
    return c.json({ data: { count }, message: 'Updated successfully' });
  });
  app.post('/customers/:id/adjust', async (c) => {
    const body = await readJsonBody(c);
    return c.json({ data: await adjustPoints(deps, c.get('shopId'), c.req.param('id'), adjustmentOf(body), actorOf(c)), message: 'Points adjusted' });
  });
  /** Body `{ birthday: "MM/DD" | null }` (spec 002 §3); 422 "Birthday is invalid" at `/birthday`. */
  app.patch('/customers/:id', async (c) => {
    const body = await readJsonBody(c);
    const unknown = Object.keys(body).filter((k) => k !== 'birthday');
    if (unknown.length > 0 || !('birthday' in body)) {
      throw new ApiError(422, 'validation_failed', 'Failed to update customer', unknown.length > 0 ? unknown.map((k) => ({ path: `/${k}`, message: 'Unknown field' })) : [{ path: '/birthday', message: 'This field is required' }]);
    }
    const birthday = body.birthday;
    if (birthday !== null && typeof birthday !== 'string') throw new ApiError(422, 'validation_failed', 'Failed to update customer', [{ path: '/birthday', message: 'Birthday is invalid' }]);
    return c.json({ data: await setBirthday(deps, c.get('shopId'), c.req.param('id'), birthday === null || birthday.trim() === '' ? null : birthday.trim(), actorOf(c)), message: 'Updated successfully' });
  });
  for (const action of ['exclude', 'rejoin'] as const) {
    app.post(`/customers/:id/${action}`, async (c) => {
      const text = (await c.req.text()).trim();
      const body = text ? await readJsonBody(c) : {};
      return c.json({ data: await changeMembership(deps, c.get('shopId'), c.req.param('id'), action, actorOf(c), noteOf(body)), message: 'Updated successfully' });
    });
  }
  app.get('/orders/:id/evaluation', async (c) => {
    const evaluation = await findOrderEvaluation(deps, c.get('shopId'), c.req.param('id'));
    if (!evaluation) throw notFound('not_found', 'No order with this id has been received');
    return c.json({ data: evaluation });
  });
  return app;
}
