import { describe, expect, it } from 'vitest';
import { makeApp, type TestShopOptions } from '../support/app';
import { orderBody, placeOrderData } from '../support/factories';

type Customer = { data: { points: number; pendingPoints: number } };

async function shopWithProgram(program: Record<string, unknown> = {}, shop?: TestShopOptions, now?: () => Date) {
  const t = await makeApp({ ...(shop ? { shop } : {}), ...(now ? { now } : {}) });
  await t.call('POST', '/api/kinds/earning.place_order/docs', { data: placeOrderData({ earnPoint: 1, rateMoney: 1, ...program }) });
  const balance = async (customerId: string) => ((await (await t.call('GET', `/api/customers/${customerId}`)).json()) as Customer).data;
  return { ...t, balance };
}

const twoLines = () => orderBody({}, [{ id: '11', price: '30.00', quantity: 3 }, { id: '12', price: '40.00' }]);
const customerOf = (order: Record<string, unknown>) => (order.customer as { id: string }).id;

describe('refunds/create webhook', () => {
  it('takes back exactly what the refunded units earned, then the rest on the last unit', async () => {
    const { deliverOrder, deliver, balance } = await shopWithProgram();
    const order = twoLines();
    await deliverOrder(order);
    expect((await balance(customerOf(order))).points).toBe(130);
    const first = await deliver('refunds/create', { id: 701, order_id: order.id, refund_line_items: [{ line_item_id: 11, quantity: 2 }] });
    expect(((await first.json()) as { data: { pointsTakenBack: number } }).data.pointsTakenBack).toBe(60);
    await deliver('refunds/create', { id: 702, order_id: order.id, refund_line_items: [{ line_item_id: 11, quantity: 1 }] });
    expect((await balance(customerOf(order))).points).toBe(40);
  });

  it('applies a refund once however often it is delivered', async () => {
    const { deliverOrder, deliver, balance } = await shopWithProgram();
    const order = twoLines();
    await deliverOrder(order);
    const refund = { id: 703, order_id: order.id, refund_line_items: [{ line_item_id: 12, quantity: 1 }] };
    await deliver('refunds/create', refund);
    const again = await deliver('refunds/create', refund);
    expect(((await again.json()) as { data: { duplicate: boolean } }).data.duplicate).toBe(true);
    expect((await balance(customerOf(order))).points).toBe(90);
  });

  it('takes back nothing when the program did not auto-remove points when it awarded, even if changed since', async () => {
    const { deliverOrder, deliver, balance, call } = await shopWithProgram({ autoRemovePoints: false });
    const order = twoLines();
    await deliverOrder(order);
    const programs = (await (await call('GET', '/api/kinds/earning.place_order/docs')).json()) as { data: { id: string; data: object }[] };
    const program = programs.data[0]!;
    await call('PUT', `/api/kinds/earning.place_order/docs/${program.id}`, { version: 1, data: { ...program.data, autoRemovePoints: true, earnPoint: 50 } });
    await deliver('refunds/create', { id: 704, order_id: order.id, refund_line_items: [{ line_item_id: 12, quantity: 1 }] });
    expect((await balance(customerOf(order))).points).toBe(130);
  });

  it('refuses a refund without an order id, with the field path', async () => {
    const { deliver } = await shopWithProgram();
    const res = await deliver('refunds/create', { id: 705, refund_line_items: [] });
    expect(res.status).toBe(400);
    expect(((await res.json()) as { error: { details: { path: string }[] } }).error.details[0]!.path).toBe('/order_id');
  });
});

describe('orders/cancelled webhook', () => {
  it('takes back everything the order earned, as ledger rows that point at the awards', async () => {
    const { deliverOrder, deliver, balance, call } = await shopWithProgram();
    const order = twoLines();
    await deliverOrder(order);
    await deliver('orders/cancelled', { id: order.id });
    expect((await balance(customerOf(order))).points).toBe(0);
    const activity = (await (await call('GET', `/api/customers/${customerOf(order)}/activity`)).json()) as { data: { id: string; type: string; points: number; reversesId: string | null }[] };
    const [reversal, award] = activity.data;
    expect(reversal).toMatchObject({ type: 'minus_point', points: -130, reversesId: award!.id });
  });
});

describe('ingest with shop settings', () => {
  it('holds points as pending until the waiting period ends', async () => {
    let now = new Date('2026-06-15T16:00:00Z');
    const { deliverOrder, balance } = await shopWithProgram({}, { settings: { pendingPoints: { enabled: true, days: 14 } } }, () => now);
    const order = orderBody({}, [{ price: '50.00' }]);
    await deliverOrder(order);
    expect(await balance(customerOf(order))).toMatchObject({ points: 0, pendingPoints: 50 });
    now = new Date('2026-06-29T16:00:00Z');
    expect(await balance(customerOf(order))).toMatchObject({ points: 50, pendingPoints: 0 });
  });

  it('stops earning once the free plan used its 150 orders this month', async () => {
    const { deliverOrder } = await shopWithProgram({}, { plan: 'free' });
    const awarded = async () => ((await (await deliverOrder(orderBody())).json()) as { data: { pointsAwarded: number } }).data.pointsAwarded;
    for (let i = 0; i < 149; i += 1) await deliverOrder(orderBody());
    expect(await awarded()).toBeGreaterThan(0); // the 150th order still earns
    expect(await awarded()).toBe(0); // the 151st does not
  });

  it('lets a customer marked as a guest earn nothing from an all-members program', async () => {
    const { deliverOrder, db, balance } = await shopWithProgram();
    const order = orderBody();
    await db.insertInto('customers').values({ shop_id: 'test-shop.myshopify.com', id: customerOf(order), email: '', first_name: '', last_name: '', type: 'guest', tier_id: null, created_at: '', updated_at: '' }).execute();
    await deliverOrder(order);
    expect((await balance(customerOf(order))).points).toBe(0);
  });
});
