import { describe, expect, it } from 'vitest';
import { makeApp } from '../support/app';
import { orderBody, placeOrderData, rawOrderWithBigIds } from '../support/factories';

type Activity = { data: { points: number; type: string; sourceId: string; programId: string; explanation: { decision: { programTitle: string; working: { earnBy: string; base: number }; message: string } } }[] };

async function withProgram(overrides: Record<string, unknown> = {}) {
  const t = await makeApp();
  const res = await t.call('POST', '/api/kinds/earning.place_order/docs', { data: placeOrderData({ title: 'Orders earn', earnPoint: 1, rateMoney: 1, ...overrides }) });
  const program = ((await res.json()) as { data: { id: string } }).data;
  return { ...t, program };
}

describe('orders/create webhook', () => {
  it('awards points and stores the explanation with the ledger entry', async () => {
    const { deliverOrder, call, program } = await withProgram();
    const order = orderBody({}, [{ price: '42.50' }]);
    const res = await deliverOrder(order);
    expect(res.status).toBe(200);
    expect(((await res.json()) as { data: { pointsAwarded: number } }).data.pointsAwarded).toBe(42);

    const customerId = (order.customer as { id: string }).id;
    const customer = (await (await call('GET', `/api/customers/${customerId}`)).json()) as { data: { points: number; email: string } };
    expect(customer.data).toMatchObject({ points: 42, email: 'ada@example.com' });
    const activity = (await (await call('GET', `/api/customers/${customerId}/activity`)).json()) as Activity;
    expect(activity.data).toHaveLength(1);
    expect(activity.data[0]).toMatchObject({ points: 42, type: 'earn_point', sourceId: order.id, programId: program.id });
    expect(activity.data[0]!.explanation.decision).toMatchObject({ programTitle: 'Orders earn', working: { earnBy: 'order', base: 4250 } });
  });

  it('awards once when the same order is delivered twice', async () => {
    const { deliverOrder, call } = await withProgram();
    const order = orderBody();
    await deliverOrder(order);
    const again = await deliverOrder(order);
    expect(((await again.json()) as { data: { duplicate: boolean; pointsAwarded: number } }).data).toMatchObject({ duplicate: true, pointsAwarded: 0 });
    const customer = (await (await call('GET', `/api/customers/${(order.customer as { id: string }).id}`)).json()) as { data: { points: number } };
    expect(customer.data.points).toBe(100);
  });

  it('awards once when two deliveries of one order race', async () => {
    const { deliverOrder, call } = await withProgram();
    const order = orderBody();
    await Promise.all([deliverOrder(order), deliverOrder(order), deliverOrder(order)]);
    const activity = (await (await call('GET', `/api/customers/${(order.customer as { id: string }).id}/activity`)).json()) as Activity;
    expect(activity.data).toHaveLength(1);
  });

  it('refuses a delivery whose HMAC does not match the body, awarding nothing', async () => {
    const { deliverOrder, call } = await withProgram();
    const order = orderBody();
    const res = await deliverOrder(order, { hmac: 'bm90LXRoZS1yaWdodC1obWFj' });
    expect(res.status).toBe(401);
    expect((await call('GET', `/api/customers/${(order.customer as { id: string }).id}`)).status).toBe(404);
  });

  it('keeps order, customer and line ids beyond 2^53 exact', async () => {
    const { deliverOrder, call } = await withProgram();
    const raw = rawOrderWithBigIds('5678901234567890123', '9007199254740993', '12345678901234567891', '18446744073709551615');
    expect((await deliverOrder(undefined, { raw })).status).toBe(200);
    const customer = (await (await call('GET', '/api/customers/9007199254740993')).json()) as { data: { id: string } };
    expect(customer.data.id).toBe('9007199254740993');
    const activity = (await (await call('GET', '/api/customers/9007199254740993/activity')).json()) as { data: { sourceId: string; explanation: { decision: { eligibleLineIds: string[] } } }[] };
    expect(activity.data[0]!.sourceId).toBe('5678901234567890123');
    expect(activity.data[0]!.explanation.decision.eligibleLineIds).toEqual(['12345678901234567891']);
    const evaluation = await call('GET', '/api/orders/5678901234567890123/evaluation');
    expect(evaluation.status).toBe(200);
  });

  it('records why a test order earned nothing', async () => {
    const { deliverOrder, call } = await withProgram();
    const order = orderBody({ test: true });
    expect(((await (await deliverOrder(order)).json()) as { data: { pointsAwarded: number } }).data.pointsAwarded).toBe(0);
    const evaluation = (await (await call('GET', `/api/orders/${order.id as string}/evaluation`)).json()) as { data: { orderSkipped: string; decisions: { message: string }[] } };
    expect(evaluation.data.orderSkipped).toBe('test_order');
    expect(evaluation.data.decisions[0]!.message).toBe('Test orders do not earn points.');
  });

  it('answers 400 with the field path for a body that is not an order', async () => {
    const { deliverOrder } = await withProgram();
    const res = await deliverOrder({ id: 1 });
    expect(res.status).toBe(400);
    expect(((await res.json()) as { error: { details: { path: string }[] } }).error.details[0]!.path).toBe('/line_items');
  });

  it('answers 404 for a shop that never installed the app', async () => {
    const { deliverOrder } = await withProgram();
    expect((await deliverOrder(orderBody(), { shop: 'stranger.myshopify.com' })).status).toBe(404);
  });
});

describe('the points ledger', () => {
  it('is append-only: the database refuses updates and deletes of entries', async () => {
    const { deliverOrder, db } = await withProgram();
    await deliverOrder(orderBody());
    await expect(db.updateTable('ledger_entries').set({ points: 1_000_000 }).execute()).rejects.toThrow(/append-only/);
    await expect(db.deleteFrom('ledger_entries').execute()).rejects.toThrow(/append-only/);
  });
});
