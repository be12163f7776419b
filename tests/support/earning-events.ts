/** The earning-events tests' app: a movable clock, program creation, signed storefront calls, balances and ledger rows. */
import { expect } from 'vitest';
import type { LocalDiscounts } from '../../server/platform/discounts';
import { makeApp, SHOP, signedProxyPath } from './app';

export const CUSTOMER = '7400000000000000001';

/** A fresh app with a movable clock, a way to create programs, and storefront calls signed like the platform's app proxy. */
export async function eventsApp(start = '2026-11-25T15:00:00Z', settings?: Record<string, unknown>, options: { platformDiscounts?: LocalDiscounts } = {}) {
  const clock = { now: new Date(start) };
  const t = await makeApp({ now: () => clock.now, ...(settings ? { shop: { settings } } : {}), ...(options.platformDiscounts ? { platformDiscounts: options.platformDiscounts } : {}) });
  const program = async (kind: string, data: Record<string, unknown>): Promise<string> => {
    const res = await t.call('POST', `/api/kinds/earning.${kind}/docs`, { data: { status: true, ...data } });
    expect(res.status, JSON.stringify(await res.clone().json())).toBe(201);
    return ((await res.json()) as { data: { id: string } }).data.id;
  };
  const proxy = (method: string, path: string, body?: unknown, opts: { customer?: string | null; headers?: Record<string, string> } = {}) =>
    t.app.request(signedProxyPath(path, opts.customer === undefined ? CUSTOMER : opts.customer, { now: clock.now }), {
      method,
      headers: { 'Content-Type': 'application/json', ...(opts.headers ?? {}) },
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
    });
  const balance = async (customerId = CUSTOMER): Promise<number> => {
    const row = await t.db.selectFrom('customers').select('points_balance').where('shop_id', '=', SHOP).where('id', '=', customerId).executeTakeFirst();
    return Number(row?.points_balance ?? 0);
  };
  const entries = (customerId = CUSTOMER) =>
    t.db.selectFrom('ledger_entries').selectAll().where('shop_id', '=', SHOP).where('customer_id', '=', customerId).orderBy('created_at').orderBy('source_id').execute();
  const customerBody = (extra: Record<string, unknown> = {}) => ({ id: Number(7400000000000001n), email: 'kim@example.com', first_name: 'Kim', last_name: 'Lee', email_marketing_consent: { state: 'not_subscribed' }, ...extra });
  return { ...t, clock, program, proxy, balance, entries, customerBody };
}

