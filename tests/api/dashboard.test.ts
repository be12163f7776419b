/**
 * The dashboard (issue 12, spec 002 §2): report cards from the ledger over a store-time range, the
 * approvals waiting, the month's order allowance, the checklist, and quick search.
 */
import { describe, expect, it } from 'vitest';
import { makeApp, SHOP } from '../support/app';
import { orderBody, placeOrderData } from '../support/factories';
import { recordReview } from '../../server/services/reviews';
import type { Dashboard, SearchHit } from '../../server/services/dashboard';

const customer = (n: number) => ({ id: `${7400000000000000000n + BigInt(n)}`, email: `d${n}@example.com`, first_name: 'Dee', last_name: `D${n}` });

async function shop(now: () => Date, plan = 'free') {
  const t = await makeApp({ now, shop: { plan } });
  await t.call('POST', '/api/kinds/earning.place_order/docs', { data: placeOrderData({ earnPoint: 1, rateMoney: 1 }) });
  const get = async <T>(path: string) => {
    const res = await t.call('GET', path);
    expect(res.status).toBe(200);
    return ((await res.json()) as { data: T }).data;
  };
  return { ...t, get };
}

describe('the dashboard', () => {
  it('reports the points issued and taken back, members and orders that earned in the range, in store time', async () => {
    let clock = new Date('2026-06-10T15:00:00Z');
    const s = await shop(() => clock);
    await s.deliverOrder(orderBody({ id: '5001', customer: customer(1) }, [{ price: '40.00' }]));
    clock = new Date('2026-06-14T15:00:00Z');
    await s.deliverOrder(orderBody({ id: '5002', customer: customer(2) }, [{ price: '25.00' }]));
    await s.call('POST', `/api/customers/${customer(2).id}/adjust`, { points: -5 });
    const today = await s.get<Dashboard>('/api/dashboard?range=today');
    expect(today.report).toMatchObject({ pointsIssued: 25, pointsRedeemed: 0, newMembers: 1, members: 2, ordersThatEarned: 1 });
    expect(today.report.range).toMatchObject({ firstDate: '2026-06-14', lastDate: '2026-06-14' });
    const week = await s.get<Dashboard>('/api/dashboard?range=last_7_days');
    expect(week.report).toMatchObject({ pointsIssued: 65, newMembers: 2, ordersThatEarned: 2 });
    const lastMonth = await s.get<Dashboard>('/api/dashboard?range=last_month');
    expect(lastMonth.report).toMatchObject({ pointsIssued: 0, ordersThatEarned: 0, members: 2 });
  });

  it('shows the reviews waiting, the order allowance of the plan and the checklist', async () => {
    // Essential: 500 orders a month, and write-review programs allowed.
    const s = await shop(() => new Date('2026-06-14T15:00:00Z'), 'head_start');
    await s.deliverOrder(orderBody({ customer: customer(1) }, [{ price: '10.00' }]));
    expect((await s.call('POST', '/api/kinds/earning.write_review/docs', { data: { title: 'Reviews', status: true } })).status).toBe(201);
    await recordReview({ db: s.db }, SHOP, { source: 'review_app', externalId: 'r1', customer: { id: customer(1).id, email: 'd1@example.com', firstName: 'Dee', lastName: 'D1' }, rating: 4, title: '', content: 'Good stuff all round', hasMedia: false });
    const d = await s.get<Dashboard>('/api/dashboard');
    expect(d.approvals).toEqual({ reviews: 1 });
    expect(d.allowance).toMatchObject({ used: 1, limit: 500, state: 'ok', month: '2026-06' });
    expect(Object.fromEntries(d.checklist.map((c) => [c.id, c.done]))).toEqual({ earning: true, redeeming: false, vip: false, reviews: true, widget: false });
  });

  it('finds a customer by e-mail in any case and an order by its id, and refuses an unknown range', async () => {
    const s = await shop(() => new Date('2026-06-14T15:00:00Z'));
    await s.deliverOrder(orderBody({ id: '9876543210123', customer: customer(3) }, [{ price: '12.00' }]));
    expect((await s.get<SearchHit[]>('/api/dashboard/search?q=D3%40Example.com')).map((h) => [h.type, h.path, h.points])).toEqual([['customer', `/customers/profile/${customer(3).id}`, 12]]);
    expect((await s.get<SearchHit[]>('/api/dashboard/search?q=%239876543210123')).map((h) => [h.type, h.path, h.points])).toEqual([['order', `/customers/profile/${customer(3).id}`, 12]]);
    expect(await s.get<SearchHit[]>('/api/dashboard/search?q=SPRING-10')).toEqual([]);
    expect((await s.call('GET', '/api/dashboard?range=forever')).status).toBe(400);
  });
});
