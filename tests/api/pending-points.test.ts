/**
 * The pending-points setting (spec 002 §4, issue 10): the switch and waiting period through the
 * API, awards held while it is on, and turning it off converting every waiting award to available,
 * only after confirmation, once, with the ledger left append-only.
 */
import { describe, expect, it } from 'vitest';
import { makeApp, SHOP } from '../support/app';
import { expectLedgerTotalsAgree } from '../support/ledger-totals';
import { orderBody, placeOrderData } from '../support/factories';

type State = { enabled: boolean; days: number; waiting: { points: number; customers: number }; converted?: number };
type Issue = { path: string; message: string };
const customer = (n: number) => ({ id: `${7200000000000000000n + BigInt(n)}`, email: `p${n}@example.com`, first_name: 'Pat', last_name: `P${n}` });

async function shop() {
  let now = new Date('2026-06-15T16:00:00Z');
  const t = await makeApp({ now: () => now });
  await t.call('POST', '/api/kinds/earning.place_order/docs', { data: placeOrderData({ earnPoint: 1, rateMoney: 1 }) });
  const state = async () => ((await (await t.call('GET', '/api/settings/pending-points')).json()) as { data: State }).data;
  const put = (body: unknown) => t.call('PUT', '/api/settings/pending-points', body);
  const profile = async (n: number) => ((await (await t.call('GET', `/api/customers/${customer(n).id}`)).json()) as { data: { points: number; pendingPoints: number } }).data;
  return { ...t, state, put, profile, setNow: (d: string) => (now = new Date(d)) };
}

describe('pending points', () => {
  it('starts off with a 14-day period offered, and holds awards once switched on', async () => {
    const s = await shop();
    expect(await s.state()).toEqual({ enabled: false, days: 14, waiting: { points: 0, customers: 0 } });
    const saved = await s.put({ enabled: true, days: 7 });
    expect(saved.status).toBe(200);
    await s.deliverOrder(orderBody({ customer: customer(1) }, [{ price: '40.00' }]));
    expect(await s.profile(1)).toMatchObject({ points: 0, pendingPoints: 40 });
    expect(await s.state()).toEqual({ enabled: true, days: 7, waiting: { points: 40, customers: 1 } });
    s.setNow('2026-06-22T16:00:01Z');
    expect(await s.profile(1)).toMatchObject({ points: 40, pendingPoints: 0 });
  });

  it('refuses to turn off while points wait unless the conversion is confirmed, then makes them available at once', async () => {
    const s = await shop();
    await s.put({ enabled: true, days: 30 });
    await s.deliverOrder(orderBody({ customer: customer(1) }, [{ price: '40.00' }]));
    await s.deliverOrder(orderBody({ customer: customer(2) }, [{ price: '25.00' }]));
    const refused = await s.put({ enabled: false, days: 30 });
    expect(refused.status).toBe(409);
    const error = ((await refused.json()) as { error: { code: string; message: string } }).error;
    expect(error).toMatchObject({ code: 'confirmation_required' });
    expect(error.message).toContain('65 pending points of 2 customers');
    expect((await s.state()).enabled).toBe(true);

    const done = await s.put({ enabled: false, days: 30, convertPending: true });
    expect(((await done.json()) as { data: State }).data).toMatchObject({ enabled: false, converted: 65, waiting: { points: 0, customers: 0 } });
    expect(await s.profile(1)).toMatchObject({ points: 40, pendingPoints: 0 });
    expect(await s.profile(2)).toMatchObject({ points: 25, pendingPoints: 0 });
    // Past the original availability date nothing is counted twice.
    s.setNow('2026-08-01T00:00:00Z');
    expect(await s.profile(1)).toMatchObject({ points: 40, pendingPoints: 0 });
    const list = ((await (await s.call('GET', '/api/customers')).json()) as { data: { points: number }[] }).data;
    expect(list.map((r) => r.points)).toEqual([40, 25]);
  });

  it('converts an award once even when the feature is switched on and off again', async () => {
    const s = await shop();
    await s.put({ enabled: true, days: 30 });
    await s.deliverOrder(orderBody({ customer: customer(1) }, [{ price: '40.00' }]));
    await s.put({ enabled: false, days: 30, convertPending: true });
    await s.put({ enabled: true, days: 30 });
    await s.deliverOrder(orderBody({ customer: customer(1) }, [{ price: '10.00' }]));
    expect(await s.profile(1)).toMatchObject({ points: 40, pendingPoints: 10 });
    const second = await s.put({ enabled: false, days: 30, convertPending: true });
    expect(((await second.json()) as { data: State }).data.converted).toBe(10);
    expect(await s.profile(1)).toMatchObject({ points: 50, pendingPoints: 0 });
    const entries = await s.db.selectFrom('ledger_entries').select(['type', 'points']).where('customer_id', '=', customer(1).id).orderBy('created_at').orderBy('type').execute();
    expect(entries.filter((e) => e.type === 'pending_convert').map((e) => e.points).sort()).toEqual([10, 40]);
    expect(entries.filter((e) => e.type === 'pending_deduct').map((e) => e.points).sort()).toEqual([-10, -40]);
    // The conversions move neither the balance nor the lifetime points: the awards were counted once.
    expect(((await (await s.call('GET', `/api/customers/${customer(1).id}`)).json()) as { data: { lifetimePoints: number } }).data.lifetimePoints).toBe(50);
    await expectLedgerTotalsAgree(s.db, SHOP);
  });

  it('names each bad field and changes nothing', async () => {
    const s = await shop();
    const res = await s.put({ enabled: 'yes', days: 0, convertPending: 1, extra: true });
    expect(res.status).toBe(422);
    expect(((await res.json()) as { error: { details: Issue[] } }).error.details.map((d) => d.path)).toEqual(['/enabled', '/days', '/convertPending', '/extra']);
    expect((await s.put({ enabled: true, days: 366 })).status).toBe(422);
    expect(await s.state()).toMatchObject({ enabled: false, days: 14 });
  });
});
