import { sql } from 'kysely';
import { describe, expect, it } from 'vitest';
import { makeApp, SHOP } from '../support/app';
import { orderBody, placeOrderData } from '../support/factories';

const DOCS = '/api/kinds/earning.place_order/docs';
const NOW = new Date('2026-06-20T12:00:00Z');
const customer = (n: number) => ({ id: `${6000000000000000100n + BigInt(n)}`, email: `c${n}@example.com`, first_name: 'C', last_name: String(n), tags: n % 2 ? 'vip' : '', orders_count: n, total_spent: '12.34' });

/** A shop with two programs (one conditional, one limited) and five stored orders, two of them of one customer. */
async function shopWithOrders() {
  const t = await makeApp({ now: () => NOW });
  const created = await t.call('POST', DOCS, { data: placeOrderData({ title: 'Ten per hundred' }) });
  const program = ((await created.json()) as { data: { id: string; data: Record<string, unknown> } }).data;
  const vip = placeOrderData({ title: 'VIP bonus', earnBy: 'fixed_order', earnPoint: 5, statusUseCondition: true, conditions: [{ field: 'customer.tag', typeMatch: 'includes', content: 'vip' }], hasLimit: true, limitUnit: 'lifetime', limitInterval: 1 });
  expect((await t.call('POST', DOCS, { data: vip })).status).toBe(201);
  const orders = [
    orderBody({ customer: customer(1), created_at: '2026-06-10T10:00:00-04:00', tags: 'spring' }, [{ price: '100.00' }, { price: '5.00', quantity: 0 }]),
    orderBody({ customer: customer(2), created_at: '2026-06-11T10:00:00-04:00', subtotal_price: '250.00', total_price: '260.00' }, [{ price: '250.00' }]),
    orderBody({ customer: customer(1), created_at: '2026-06-12T10:00:00-04:00' }, [{ price: '80.00', quantity: 2 }]),
    orderBody({ customer: customer(3), created_at: '2026-06-13T10:00:00-04:00', test: true }, [{ price: '70.00' }]),
    orderBody({ customer: null, created_at: '2026-06-14T10:00:00-04:00' }, [{ price: '60.00' }]),
  ];
  for (const o of orders) expect((await t.deliverOrder(o)).status).toBe(200);
  return { ...t, program };
}

const withoutTimings = (p: Record<string, unknown>) => ({ ...p, timings: undefined });

describe('preview: stored replay form', () => {
  it('keeps one replay row per stored order, also when the order is delivered twice', async () => {
    const { db, deliverOrder } = await shopWithOrders();
    const again = await deliverOrder(orderBody({ customer: customer(2), created_at: '2026-06-11T10:00:00-04:00', subtotal_price: '250.00', total_price: '260.00' }, [{ price: '250.00' }]));
    expect(again.status).toBe(200);
    const facts = await db.selectFrom('order_facts').select('order_id').where('shop_id', '=', SHOP).orderBy('order_id').execute();
    const replays = await db.selectFrom('order_replay').select(['order_id', 'replay']).where('shop_id', '=', SHOP).orderBy('order_id').execute();
    expect(replays.map((r) => r.order_id)).toEqual(facts.map((f) => f.order_id));
    expect(replays.every((r) => r.replay.startsWith('A'))).toBe(true);
  });

  it('answers the same from the replay form as from the full facts of orders stored before it, and upgrades those', async () => {
    const { db, call, program } = await shopWithOrders();
    const draft = { id: program.id, windowDays: 30, data: { ...program.data, earnPoint: 15 } };
    const fast = ((await (await call('POST', '/api/programs/simulate', draft)).json()) as { data: Record<string, unknown> }).data;
    expect(fast).toMatchObject({ ordersReplayed: 5, pointsBefore: 56, pointsAfter: 81, ordersChanged: 3, customersAffected: 2 });

    // As migration 0024 leaves the orders stored before it: the marker, read from the full facts.
    await sql`update order_replay set replay = 'F' || order_id where shop_id = ${SHOP}`.execute(db);
    const slow = ((await (await call('POST', '/api/programs/simulate', draft)).json()) as { data: Record<string, unknown> }).data;
    expect(withoutTimings(slow)).toEqual(withoutTimings(fast));
    const upgraded = await db.selectFrom('order_replay').select('replay').where('shop_id', '=', SHOP).execute();
    expect(upgraded.every((r) => r.replay.startsWith('A'))).toBe(true);
    const again = ((await (await call('POST', '/api/programs/simulate', draft)).json()) as { data: Record<string, unknown> }).data;
    expect(withoutTimings(again)).toEqual(withoutTimings(fast));
  });

  it('a new draft with stop processing and a higher priority takes the other programs out of the orders it awards', async () => {
    const { call } = await shopWithOrders();
    const stop = placeOrderData({ title: 'First and only', earnBy: 'fixed_order', earnPoint: 1, priorityPlaceOrder: 1, stopProcessing: true });
    const p = ((await (await call('POST', '/api/programs/simulate', { windowDays: 30, data: stop })).json()) as { data: Record<string, unknown> }).data;
    // Before: 10 + 5 (VIP, once), 25, 16; after: 1 on each of the three orders that earn.
    expect(p).toMatchObject({ ordersReplayed: 5, pointsBefore: 56, pointsAfter: 3, ordersChanged: 3, customersAffected: 2 });
  });
});
