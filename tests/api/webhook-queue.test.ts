/**
 * Webhooks off the request path (issue 14): stored before the 200, processed from the queue per
 * order in arrival order, retried, dead-lettered, and never applied twice after a crash.
 */
import { afterEach, describe, expect, it, vi } from 'vitest';
import { ApiError } from '../../server/errors';
import { ingestOrder } from '../../server/services/orders';
import { WEBHOOK_TOPICS } from '../../server/webhooks/topics';
import { WebhookQueue } from '../../server/webhooks/queue';
import { createApp } from '../../server/app';
import { webhookHmac } from '../../server/webhook-hmac';
import { AUTH, makeApp, SHOP } from '../support/app';
import { orderBody, placeOrderData } from '../support/factories';

type Delivery = { id: string; status: string; attempts: number; lastError: string | null; result: unknown };

afterEach(() => vi.restoreAllMocks());

/** An app whose queue only runs when the test says so, with the given tuning. */
async function stoppedQueueApp(options: ConstructorParameters<typeof WebhookQueue>[1] = {}) {
  const t = await makeApp();
  await t.call('POST', '/api/kinds/earning.place_order/docs', { data: placeOrderData({ earnPoint: 1, rateMoney: 1 }) });
  await t.queue.stop(); // only the queue under test processes (the admin routes below kick t.queue)
  const deps = { db: t.db, registry: (await import('../support/app')).repoRegistry(), auth: AUTH };
  const queue = new WebhookQueue(deps, options);
  await queue.stop(); // kicks are ignored until start()
  const app = createApp({ ...deps, queue });
  const post = (topic: string, body: unknown, webhookId?: string) => {
    const raw = JSON.stringify(body);
    return app.request(`/api/webhooks/${topic}`, {
      method: 'POST',
      headers: { 'X-Shopify-Shop-Domain': SHOP, 'X-Shopify-Hmac-Sha256': webhookHmac(raw, AUTH.apiSecret), ...(webhookId ? { 'X-Shopify-Webhook-Id': webhookId } : {}) },
      body: raw,
    });
  };
  const run = async () => {
    while (await queue.runOnce()) {
      // until none is ready
    }
  };
  const points = async (order: Record<string, unknown>) => {
    const res = await t.call('GET', `/api/customers/${(order.customer as { id: string }).id}`);
    return res.status === 404 ? 0 : ((await res.json()) as { data: { points: number } }).data.points;
  };
  const deliveries = async (status?: string) => ((await (await t.call('GET', `/api/webhook-deliveries${status ? `?status=${status}` : ''}`)).json()) as { data: Delivery[] }).data;
  return { ...t, queue, post, run, points, deliveries };
}

describe('the webhook queue', () => {
  it('stores the delivery and answers 200 before anything is processed', async () => {
    const { post, run, points, deliveries } = await stoppedQueueApp();
    const order = orderBody();
    const res = await post('orders/create', order);
    expect(res.status).toBe(200);
    expect(((await res.json()) as { data: { status: string } }).data.status).toBe('queued');
    expect(await points(order)).toBe(0);
    expect((await deliveries('queued')).length).toBe(1);
    await run();
    expect(await points(order)).toBe(100);
    expect((await deliveries('done'))[0]?.result).toMatchObject({ pointsAwarded: 100, duplicate: false });
  });

  it('stores a redelivery with the same webhook id once', async () => {
    const { post, deliveries } = await stoppedQueueApp();
    const order = orderBody();
    await post('orders/create', order, 'wh-1');
    const again = await post('orders/create', order, 'wh-1');
    expect(((await again.json()) as { data: { duplicate: boolean } }).data.duplicate).toBe(true);
    expect((await deliveries()).length).toBe(1);
  });

  it("keeps one order's deliveries in arrival order while a failing one waits for its retry", async () => {
    const { post, run, points, db, deliveries } = await stoppedQueueApp({ backoffSeconds: () => 60 });
    // (The cancellation overtaking its order would be parked and still net 0; the order of
    // processing is what is checked here, through the attempts of the deliveries left waiting.)
    const first = orderBody();
    const other = orderBody({ customer: { id: '6000000000000000002', email: 'grace@example.com', first_name: 'Grace', last_name: 'Hopper' } });
    vi.spyOn(WEBHOOK_TOPICS['orders/create']!, 'process').mockRejectedValueOnce(new Error('database busy'));
    await post('orders/create', first);
    await post('orders/cancelled', { id: first.id });
    await post('orders/create', other);
    await run();
    // The first order failed and waits 60 s; its cancellation must not overtake it; another order goes ahead.
    expect(await points(other)).toBe(100);
    const queued = await deliveries('queued');
    expect(queued.map((d) => d.attempts).sort()).toEqual([0, 1]);
    await db.updateTable('webhook_deliveries').set({ available_at: new Date(Date.now() - 1000).toISOString() }).execute();
    await run();
    expect(await points(first)).toBe(0); // awarded 100, then the cancellation took it back
    expect(await deliveries('queued')).toEqual([]);
  });

  it('dead-letters a delivery the processor refuses, lists it, and retries it on request', async () => {
    const { post, run, points, deliveries, call } = await stoppedQueueApp();
    const order = orderBody();
    vi.spyOn(WEBHOOK_TOPICS['orders/create']!, 'process').mockRejectedValueOnce(new ApiError(422, 'unprocessable', 'refused for good'));
    await post('orders/create', order);
    await run();
    const dead = await deliveries('dead');
    expect(dead).toEqual([expect.objectContaining({ status: 'dead', attempts: 1, lastError: 'unprocessable: refused for good' })]);
    const retry = await call('POST', `/api/webhook-deliveries/${dead[0]!.id}/retry`);
    expect(retry.status).toBe(200);
    await run();
    expect(await points(order)).toBe(100);
    expect((await call('POST', `/api/webhook-deliveries/${dead[0]!.id}/retry`)).status).toBe(409);
  });

  it('dead-letters a delivery after its last attempt fails', async () => {
    const { post, run, deliveries } = await stoppedQueueApp({ maxAttempts: 3, backoffSeconds: () => 0 });
    vi.spyOn(WEBHOOK_TOPICS['orders/create']!, 'process').mockRejectedValue(new Error('still down'));
    await post('orders/create', orderBody());
    await run();
    expect(await deliveries('dead')).toEqual([expect.objectContaining({ attempts: 3, lastError: 'still down' })]);
  });

  it('takes over a delivery whose worker died, and never awards twice', async () => {
    const { post, run, points, db, deps } = await (async () => {
      const t = await stoppedQueueApp();
      return { ...t, deps: { db: t.db, registry: (await import('../support/app')).repoRegistry(), auth: AUTH } };
    })();
    const order = orderBody();
    await post('orders/create', order);
    // A worker claimed it, applied the order, and was killed before marking the delivery done.
    await ingestOrder(deps, SHOP, JSON.parse(JSON.stringify(order)) as unknown);
    await db.updateTable('webhook_deliveries').set({ attempts: 1, locked_until: new Date(Date.now() - 1).toISOString() }).execute();
    await run();
    expect(await points(order)).toBe(100);
    const rows = await db.selectFrom('ledger_entries').select('id').where('source_id', '=', order.id as string).execute();
    expect(rows.length).toBe(1);
  });

  it('does not take a delivery another worker holds', async () => {
    const { post, run, db, deliveries } = await stoppedQueueApp();
    await post('orders/create', orderBody());
    await db.updateTable('webhook_deliveries').set({ attempts: 1, locked_until: new Date(Date.now() + 60_000).toISOString() }).execute();
    await run();
    expect((await deliveries('queued')).length).toBe(1);
  });

  it('refuses an unknown topic with 404 and a delivery for a shop that never installed with 404', async () => {
    const { post, app } = await stoppedQueueApp();
    expect((await post('products/create', { id: 1 })).status).toBe(404);
    const raw = JSON.stringify(orderBody());
    const res = await app.request('/api/webhooks/orders/create', { method: 'POST', headers: { 'X-Shopify-Shop-Domain': 'stranger.myshopify.com', 'X-Shopify-Hmac-Sha256': webhookHmac(raw, AUTH.apiSecret) }, body: raw });
    expect(res.status).toBe(404);
  });

  it('claims a batch of ready deliveries in one go, one per order, and releases the unprocessed on stop', async () => {
    const { post, queue, db, points } = await stoppedQueueApp({ claimBatch: 3 });
    const orders = [orderBody(), orderBody(), orderBody(), orderBody()];
    for (const o of orders) await post('orders/create', o);
    await post('orders/cancelled', { id: orders[0]!.id }); // waits behind its order: not in the first batch
    expect(await queue.runOnce()).toBe(true);
    const rows = await db.selectFrom('webhook_deliveries').select(['order_key', 'topic', 'status', 'attempts', 'locked_until']).orderBy('seq').execute();
    expect(rows.map((r) => [r.status, r.attempts, r.locked_until !== null])).toEqual([
      ['done', 1, false],
      ['queued', 1, true], // claimed with the first, not processed yet
      ['queued', 1, true],
      ['queued', 0, false], // beyond the batch
      ['queued', 0, false], // the cancellation of the first order
    ]);
    await queue.stop();
    const released = await db.selectFrom('webhook_deliveries').select(['status', 'attempts', 'locked_until']).where('status', '=', 'queued').execute();
    expect(released.every((r) => r.attempts === 0 && r.locked_until === null)).toBe(true);
    while (await queue.runOnce()) {
      // the rest, after the release
    }
    // One customer: four orders of 100 points, the first cancelled.
    expect(await points(orders[0]!)).toBe(300);
    const done = await db.selectFrom('webhook_deliveries').select('status').where('status', '=', 'done').execute();
    expect(done).toHaveLength(5);
  });
});
