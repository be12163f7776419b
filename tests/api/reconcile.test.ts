/**
 * Reconciliation (issue 14): the recent orders re-fetched through the platform adapter, and what
 * no delivery brought queued and awarded once — through the local adapter, and the Admin API
 * adapter's requests checked against a fake fetch (no network).
 */
import { describe, expect, it } from 'vitest';
import { ApiError } from '../../server/errors';
import { ADMIN_API_VERSION, LocalOrders, nextLink, ShopifyOrders, type Fetch } from '../../server/platform/orders';
import { webhookHmac } from '../../server/webhook-hmac';
import { AUTH, makeApp, SHOP } from '../support/app';
import { orderBody, placeOrderData } from '../support/factories';

const NOW = new Date('2026-06-16T12:00:00Z');
type Result = { checked: number; missing: Record<string, number>; queued: number; skipped: number; truncated: boolean; since: string };

async function setup() {
  const platform = new LocalOrders();
  const t = await makeApp({ platformOrders: platform, now: () => NOW });
  await t.call('POST', '/api/kinds/earning.place_order/docs', { data: placeOrderData({ earnPoint: 1, rateMoney: 1 }) });
  const reconcile = async (body: unknown = {}) => {
    const res = await t.call('POST', '/api/webhook-deliveries/reconcile', body);
    expect(res.status).toBe(200);
    const { data } = (await res.json()) as { data: Result };
    await t.queue.drain();
    return data;
  };
  const points = async (customerId: string) => {
    const res = await t.call('GET', `/api/customers/${customerId}`);
    return res.status === 404 ? 0 : ((await res.json()) as { data: { points: number } }).data.points;
  };
  const customer = (n: number) => ({ id: `${6100000000000000000n + BigInt(n)}`, email: `c${n}@example.com`, first_name: 'C', last_name: String(n) });
  return { ...t, platform, reconcile, points, customer };
}

describe('reconciliation with the platform', () => {
  it('queues and awards what dropped deliveries missed, once, and a second run queues nothing', async () => {
    const { platform, deliverOrder, deliver, reconcile, points, customer, db } = await setup();
    const delivered = orderBody({ customer: customer(1) });
    const dropped = orderBody({ customer: customer(2) });
    const refundDropped = orderBody({ customer: customer(3) }, [{ price: '60.00' }, { price: '40.00' }]);
    const cancelledNeverSeen = orderBody({ customer: customer(4), cancelled_at: '2026-06-15T13:00:00-04:00' });
    expect((await deliverOrder(delivered)).status).toBe(200);
    expect((await deliverOrder(refundDropped)).status).toBe(200);
    const refundLine = (refundDropped.line_items as { id: string }[])[0]!.id;
    platform.add(SHOP, delivered);
    platform.add(SHOP, dropped);
    platform.add(SHOP, { ...refundDropped, refunds: [{ id: '8800000000000000001', order_id: refundDropped.id, refund_line_items: [{ line_item_id: refundLine, quantity: 1 }] }] });
    platform.add(SHOP, cancelledNeverSeen);
    platform.add(SHOP, orderBody({ customer: customer(5), created_at: '2026-06-01T12:00:00Z' })); // outside the 72 h window

    const first = await reconcile();
    expect(first).toMatchObject({ checked: 4, queued: 4, skipped: 0, truncated: false, since: '2026-06-13T12:00:00.000Z' });
    expect(first.missing).toEqual({ 'orders/create': 2, 'refunds/create': 1, 'orders/cancelled': 1 });
    expect(await points(customer(1).id)).toBe(100);
    expect(await points(customer(2).id)).toBe(100);
    expect(await points(customer(3).id)).toBe(40);
    expect(await points(customer(4).id)).toBe(0);
    expect(await points(customer(5).id)).toBe(0);

    const second = await reconcile();
    expect(second).toMatchObject({ checked: 4, queued: 0 });
    expect(second.missing).toEqual({ 'orders/create': 0, 'refunds/create': 0, 'orders/cancelled': 0 });
    // The platform's own late redelivery of a reconciled order is a duplicate.
    const late = (await (await deliverOrder(dropped)).json()) as { data: { duplicate: boolean } };
    expect(late.data.duplicate).toBe(true);
    await deliver('orders/cancelled', { id: cancelledNeverSeen.id });
    expect(await points(customer(2).id)).toBe(100);
    expect(await points(customer(4).id)).toBe(0);
    const reconciled = await db.selectFrom('webhook_deliveries').select('webhook_id').where('webhook_id', 'like', 'reconcile:%').execute();
    expect(reconciled.map((r) => r.webhook_id).sort()).toEqual([
      `reconcile:orders/cancelled:${String(cancelledNeverSeen.id)}`,
      `reconcile:orders/create:${String(dropped.id)}`,
      `reconcile:orders/create:${String(cancelledNeverSeen.id)}`,
      'reconcile:refunds/create:8800000000000000001',
    ]);
  });

  it('does not queue an order whose delivery is still waiting in the queue', async () => {
    const t = await setup();
    await t.queue.stop(); // stored, not processed
    const order = orderBody({ customer: t.customer(6) });
    const raw = JSON.stringify(order);
    const stored = await t.app.request('/api/webhooks/orders/create', { method: 'POST', headers: { 'X-Shopify-Shop-Domain': SHOP, 'X-Shopify-Hmac-Sha256': webhookHmac(raw, AUTH.apiSecret) }, body: raw });
    expect(stored.status).toBe(200);
    t.platform.add(SHOP, order);
    const res = await t.call('POST', '/api/webhook-deliveries/reconcile', {});
    const { data } = (await res.json()) as { data: Result };
    expect(data).toMatchObject({ checked: 1, queued: 0 });
    expect(data.missing['orders/create']).toBe(0);
    expect(await t.db.selectFrom('webhook_deliveries').select('id').execute()).toHaveLength(1);
  });

  it('refuses a window outside 1 … 720 hours with the field path', async () => {
    const { call } = await setup();
    for (const sinceHours of [0, 721, 1.5, '24']) {
      const res = await call('POST', '/api/webhook-deliveries/reconcile', { sinceHours });
      expect(res.status).toBe(422);
      const body = (await res.json()) as { error: { details: { path: string; message: string }[] } };
      expect(body.error.details[0]).toEqual({ path: '/sinceHours', message: 'Must be a whole number of hours from 1 to 720' });
    }
  });

  it('needs the session token', async () => {
    const { app } = await setup();
    const res = await app.request('/api/webhook-deliveries/reconcile', { method: 'POST', body: '{}' });
    expect(res.status).toBe(401);
  });
});

describe('the Admin API orders adapter', () => {
  const page = (orders: unknown[], next?: string) =>
    new Response(JSON.stringify({ orders }).replace(/"id":"(\d{16,})"/g, '"id":$1'), { status: 200, headers: { 'Content-Type': 'application/json', ...(next ? { Link: `<${next}>; rel="next"` } : {}) } });

  it('exchanges the session token, then pages through orders.json with the access token', async () => {
    const calls: { url: string; init: RequestInit | undefined }[] = [];
    const second = `https://${SHOP}/admin/api/${ADMIN_API_VERSION}/orders.json?limit=250&page_info=abc`;
    const fake: Fetch = (url, init) => {
      calls.push({ url, init });
      if (url.endsWith('/admin/oauth/access_token')) return Promise.resolve(Response.json({ access_token: 'shpat_offline', scope: 'read_orders' }));
      if (url === second) return Promise.resolve(page([{ id: '5100000000000000002', created_at: '2026-06-15T13:00:00Z' }]));
      return Promise.resolve(page([{ id: '5100000000000000001', created_at: '2026-06-15T12:00:00Z' }], second));
    };
    const adapter = new ShopifyOrders({ apiKey: 'key', apiSecret: 'secret' }, fake);
    const found = await adapter.recentOrders(SHOP, { createdAtMin: '2026-06-13T12:00:00.000Z', limit: 1000, sessionToken: 'session.jwt' });

    expect(found.orders.map((o) => o.id)).toEqual(['5100000000000000001', '5100000000000000002']); // exact beyond 2^53
    expect(found.truncated).toBe(false);
    expect(calls).toHaveLength(3);
    expect(calls[0]!.url).toBe(`https://${SHOP}/admin/oauth/access_token`);
    expect(calls[0]!.init?.method).toBe('POST');
    expect(JSON.parse(String(calls[0]!.init?.body))).toEqual({
      client_id: 'key',
      client_secret: 'secret',
      grant_type: 'urn:ietf:params:oauth:grant-type:token-exchange',
      subject_token: 'session.jwt',
      subject_token_type: 'urn:ietf:params:oauth:token-type:id_token',
      requested_token_type: 'urn:shopify:params:oauth:token-type:offline-access-token',
    });
    const list = new URL(calls[1]!.url);
    expect(list.pathname).toBe(`/admin/api/${ADMIN_API_VERSION}/orders.json`);
    expect(Object.fromEntries(list.searchParams)).toEqual({ status: 'any', created_at_min: '2026-06-13T12:00:00.000Z', order: 'created_at asc', limit: '250' });
    expect(new Headers(calls[1]!.init?.headers).get('X-Shopify-Access-Token')).toBe('shpat_offline');
    expect(calls[2]!.url).toBe(second);
  });

  it('stops at the limit and says more remain', async () => {
    const fake: Fetch = (url) =>
      Promise.resolve(url.endsWith('access_token') ? Response.json({ access_token: 't' }) : page([{ id: 1, created_at: 'x' }, { id: 2, created_at: 'x' }], `https://${SHOP}/next`));
    const found = await new ShopifyOrders({ apiKey: 'k', apiSecret: 's' }, fake).recentOrders(SHOP, { createdAtMin: 'x', limit: 2, sessionToken: 't' });
    expect(found.orders).toHaveLength(2);
    expect(found.truncated).toBe(true);
  });

  it('turns refusals and outages into 401 and 502 errors, and asks for the session token', async () => {
    const refusing = new ShopifyOrders({ apiKey: 'k', apiSecret: 's' }, () => Promise.resolve(new Response('{"errors":"bad"}', { status: 400 })));
    await expect(refusing.recentOrders(SHOP, { createdAtMin: 'x', limit: 1, sessionToken: 't' })).rejects.toMatchObject({ status: 502, code: 'platform_unavailable' });
    const unauthorized = new ShopifyOrders({ apiKey: 'k', apiSecret: 's' }, (url) => Promise.resolve(url.endsWith('access_token') ? Response.json({ access_token: 't' }) : new Response('', { status: 401 })));
    await expect(unauthorized.recentOrders(SHOP, { createdAtMin: 'x', limit: 1, sessionToken: 't' })).rejects.toMatchObject({ status: 401, code: 'platform_unauthorized' });
    const offline = new ShopifyOrders({ apiKey: 'k', apiSecret: 's' }, () => Promise.reject(new TypeError('fetch failed')));
    await expect(offline.recentOrders(SHOP, { createdAtMin: 'x', limit: 1, sessionToken: 't' })).rejects.toBeInstanceOf(ApiError);
    await expect(offline.recentOrders(SHOP, { createdAtMin: 'x', limit: 1 })).rejects.toMatchObject({ status: 401 });
  });

  it('answers the admin a 502 with the reason when the platform is down, queueing nothing', async () => {
    const t = await makeApp({ platformOrders: new ShopifyOrders(AUTH, () => Promise.reject(new TypeError('fetch failed'))) });
    const res = await t.call('POST', '/api/webhook-deliveries/reconcile', {});
    expect(res.status).toBe(502);
    expect(((await res.json()) as { error: { code: string; message: string } }).error).toEqual({ code: 'platform_unavailable', message: 'The platform could not be reached: fetch failed' });
    expect(await t.db.selectFrom('webhook_deliveries').select('id').execute()).toEqual([]);
  });

  it('reads the next page from a Link header', () => {
    expect(nextLink('<https://a/orders.json?page_info=p>; rel="previous", <https://a/orders.json?page_info=n>; rel="next"')).toBe('https://a/orders.json?page_info=n');
    expect(nextLink('<https://a/orders.json?page_info=p>; rel="previous"')).toBeNull();
    expect(nextLink(null)).toBeNull();
  });
});
