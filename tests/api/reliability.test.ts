/**
 * Issue 14's outside-probe findings, one behaviour each: real-world order shapes earn exactly,
 * reversals arrive in any order, and bad or oversized input gets a 4xx with a path, never a 500.
 */
import { describe, expect, it } from 'vitest';
import { signSessionToken } from '../../server/auth';
import { createApp } from '../../server/app';
import { webhookHmac } from '../../server/webhook-hmac';
import { AUTH, makeApp, repoRegistry, SHOP, openTestDatabase } from '../support/app';
import { orderBody, placeOrderData } from '../support/factories';

type Balance = { data: { points: number } };
type Evaluation = { data: { orderSkipped: string | null; totalPoints: number } };
type ErrorBody = { error: { code: string; message: string; details?: { path: string; message: string }[] } };

async function shopWithProgram(program: Record<string, unknown> = {}) {
  const t = await makeApp();
  const created = await t.call('POST', '/api/kinds/earning.place_order/docs', { data: placeOrderData({ earnPoint: 1, rateMoney: 1, ...program }) });
  expect(created.status).toBe(201);
  const points = async (order: Record<string, unknown>) => {
    const id = (order.customer as { id: string }).id;
    const res = await t.call('GET', `/api/customers/${id}`);
    return res.status === 404 ? 0 : ((await res.json()) as Balance).data.points;
  };
  return { ...t, points };
}

/** One $120.00 line whose price includes $20.00 VAT, and $12.00 shipping including $2.00 VAT. */
function taxInclusiveOrder(): Record<string, unknown> {
  const order = orderBody({ taxes_included: true, total_tax: '22.00', total_shipping_price_set: { shop_money: { amount: '12.00', currency_code: 'USD' } } }, [{ price: '120.00' }]);
  (order.line_items as Record<string, unknown>[])[0]!.tax_lines = [{ price: '20.00', rate: 0.2, title: 'VAT' }];
  order.shipping_lines = [{ price: '12.00', tax_lines: [{ price: '2.00', rate: 0.2, title: 'VAT' }] }];
  return order;
}

describe('tax-inclusive prices (taxes_included)', () => {
  it('earns on the price without the tax inside it', async () => {
    const { deliverOrder, points } = await shopWithProgram();
    const order = taxInclusiveOrder();
    await deliverOrder(order);
    expect(await points(order)).toBe(100);
  });

  it('counts tax once when the program earns on taxes, and shipping net of its own tax', async () => {
    const { deliverOrder, points } = await shopWithProgram({ earnPointTax: true, earnPointShippingFee: true });
    const order = taxInclusiveOrder();
    await deliverOrder(order);
    expect(await points(order)).toBe(100 + 10 + 22);
  });
});

describe('shipping and tax points on a cancellation or full refund', () => {
  // $100 line + $50 shipping + $30 tax at 1 point per $10 with shipping and tax: 18 points, 10 of them on the line.
  const order = () => orderBody({ total_tax: '30.00', total_shipping_price_set: { shop_money: { amount: '50.00', currency_code: 'USD' } } }, [{ id: '41', price: '100.00' }]);
  const program = { earnPoint: 1, rateMoney: 10, earnPointTax: true, earnPointShippingFee: true };

  it('a cancellation takes back all 18, not only the line share of 10', async () => {
    const { deliverOrder, deliver, points } = await shopWithProgram(program);
    const o = order();
    await deliverOrder(o);
    expect(await points(o)).toBe(18);
    await deliver('orders/cancelled', { id: o.id });
    expect(await points(o)).toBe(0);
  });

  it('a refund of every line takes back the shipping and tax shares too; a partial one does not', async () => {
    const { deliverOrder, deliver, points } = await shopWithProgram(program);
    const o = orderBody({ total_tax: '30.00', total_shipping_price_set: { shop_money: { amount: '50.00', currency_code: 'USD' } } }, [{ id: '51', price: '50.00', quantity: 2 }]);
    await deliverOrder(o);
    expect(await points(o)).toBe(18);
    await deliver('refunds/create', { id: 801, order_id: o.id, refund_line_items: [{ line_item_id: 51, quantity: 1 }] });
    expect(await points(o)).toBe(13);
    await deliver('refunds/create', { id: 802, order_id: o.id, refund_line_items: [{ line_item_id: 51, quantity: 1 }] });
    expect(await points(o)).toBe(0);
  });
});

describe('refunds and cancellations that arrive before their order', () => {
  it('parks a refund and applies it when the order arrives: the same ledger as in order', async () => {
    const inOrder = await shopWithProgram();
    const early = await shopWithProgram();
    const o = orderBody({}, [{ id: '61', price: '30.00', quantity: 3 }, { id: '62', price: '40.00' }]);
    const refund = { id: 901, order_id: o.id, refund_line_items: [{ line_item_id: 61, quantity: 2 }] };

    await inOrder.deliverOrder(o);
    await inOrder.deliver('refunds/create', refund);

    const parked = await early.deliver('refunds/create', refund);
    expect(((await parked.json()) as { data: { parked: boolean } }).data.parked).toBe(true);
    expect(await early.points(o)).toBe(0);
    await early.deliverOrder(o);

    expect(await early.points(o)).toBe(await inOrder.points(o));
    expect(await early.points(o)).toBe(70);
  });

  it('a redelivered parked refund is a duplicate and is still applied once', async () => {
    const { deliver, deliverOrder, points } = await shopWithProgram();
    const o = orderBody({}, [{ id: '63', price: '100.00' }]);
    const refund = { id: 902, order_id: o.id, refund_line_items: [{ line_item_id: 63, quantity: 1 }] };
    await deliver('refunds/create', refund);
    const again = await deliver('refunds/create', refund);
    expect(((await again.json()) as { data: { duplicate: boolean } }).data.duplicate).toBe(true);
    await deliverOrder(o);
    expect(await points(o)).toBe(0);
  });

  it('a cancellation that came first leaves the late order with no points', async () => {
    const { deliver, deliverOrder, points } = await shopWithProgram();
    const o = orderBody({}, [{ id: '64', price: '100.00' }]);
    await deliver('orders/cancelled', { id: o.id });
    await deliverOrder(o);
    expect(await points(o)).toBe(0);
  });
});

describe('order currency', () => {
  it('skips an order whose amounts are in another currency than the shop and says why', async () => {
    const { deliverOrder, call, points } = await shopWithProgram();
    const o = orderBody({ currency: 'JPY', total_shipping_price_set: undefined }, [{ price: '10000' }]);
    await deliverOrder(o);
    expect(await points(o)).toBe(0);
    const evaluation = (await (await call('GET', `/api/orders/${o.id as string}/evaluation`)).json()) as Evaluation;
    expect(evaluation.data.orderSkipped).toBe('currency_mismatch');
  });

  it('earns on shop_money when the shopper paid in another presentment currency', async () => {
    const { deliverOrder, points } = await shopWithProgram();
    const o = orderBody({ currency: 'USD', presentment_currency: 'EUR' }, [{ price: '92.00' }]);
    (o.line_items as Record<string, unknown>[])[0]!.price_set = { shop_money: { amount: '100.00', currency_code: 'USD' }, presentment_money: { amount: '92.00', currency_code: 'EUR' } };
    await deliverOrder(o);
    expect(await points(o)).toBe(100);
  });
});

describe('bad order values answer 400 with the field path, never 500', () => {
  const cases: [string, (o: Record<string, unknown>) => void, string][] = [
    ['created_at that is not a date', (o) => (o.created_at = 'not a date'), '/created_at'],
    ['quantity 1e308', (o) => ((o.line_items as Record<string, unknown>[])[0]!.quantity = 1e308), '/line_items/0/quantity'],
    ['a negative quantity', (o) => ((o.line_items as Record<string, unknown>[])[0]!.quantity = -1), '/line_items/0/quantity'],
    ['price 99999999999999999999.99', (o) => ((o.line_items as Record<string, unknown>[])[0]!.price = '99999999999999999999.99'), '/line_items/0/price'],
  ];
  for (const [name, spoil, path] of cases) {
    it(`refuses ${name}`, async () => {
      const { deliverOrder, points } = await shopWithProgram();
      const o = orderBody();
      spoil(o);
      // JSON.stringify writes 1e308 as 1e+308, a valid JSON number, as the platform would.
      const res = await deliverOrder(o);
      expect(res.status).toBe(400);
      expect(((await res.json()) as ErrorBody).error.details?.[0]?.path).toBe(path);
      expect(await points(o)).toBe(0);
    });
  }

  it('caps the points of an absurd but parseable amount at one billion, a whole number', async () => {
    const { deliverOrder, points } = await shopWithProgram({ earnPoint: 100, rateMoney: 1 });
    const o = orderBody({}, [{ price: '9999999999999.99' }]);
    await deliverOrder(o);
    const awarded = await points(o);
    expect(awarded).toBe(1_000_000_000);
    expect(Number.isInteger(awarded)).toBe(true);
  });
});

describe('settings bodies with inherited property names', () => {
  for (const key of ['toString', '__proto__', 'constructor', 'hasOwnProperty']) {
    it(`answers 422 naming /${key}`, async () => {
      const { call } = await makeApp();
      const res = await call('POST', '/api/lp/settings', `{"${key}": "fr"}`);
      expect(res.status).toBe(422);
      expect(((await res.json()) as ErrorBody).error.details?.[0]?.path).toBe(`/${key}`);
    });
  }
});

describe('webhook signatures over the raw bytes', () => {
  async function post(body: Uint8Array<ArrayBuffer>, hmac: string) {
    const { app, points, queue } = await shopWithProgram();
    const res = await app.request('/api/webhooks/orders/create', {
      method: 'POST',
      headers: { 'Content-Type': 'application/json', 'X-Shopify-Shop-Domain': SHOP, 'X-Shopify-Hmac-Sha256': hmac },
      body,
    });
    await queue.drain();
    return { res, points };
  }

  it('accepts a body with a byte-order mark and a byte that is not UTF-8, signed as sent', async () => {
    const o = orderBody({ note: 'X' });
    const json = new TextEncoder().encode(JSON.stringify(o));
    const at = json.indexOf('X'.charCodeAt(0), json.indexOf(new TextEncoder().encode('"note"')[1]!));
    json[at] = 0xff; // a lone byte that is not UTF-8, inside the note string
    const body = new Uint8Array([0xef, 0xbb, 0xbf, ...json]);
    const { res, points } = await post(body, webhookHmac(body, AUTH.apiSecret));
    expect(res.status).toBe(200);
    expect(await points(o)).toBe(100);
  });

  it('accepts the previous secret during a rotation and nothing else', async () => {
    const db = await openTestDatabase();
    const { ensureShop } = await import('../../server/store/shops');
    await ensureShop(db, SHOP, new Date().toISOString());
    const app = createApp({ db, registry: repoRegistry(), auth: { ...AUTH, previousApiSecret: 'old-secret' } });
    const raw = JSON.stringify(orderBody());
    const send = (secret: string) =>
      app.request('/api/webhooks/orders/create', { method: 'POST', headers: { 'X-Shopify-Shop-Domain': SHOP, 'X-Shopify-Hmac-Sha256': webhookHmac(raw, secret) }, body: raw });
    expect((await send('old-secret')).status).toBe(200);
    expect((await send('someone-else')).status).toBe(401);
  });

  it('refuses a shop header that is not a shop domain even with a valid signature', async () => {
    const { deliverOrder } = await shopWithProgram();
    const res = await deliverOrder(orderBody(), { shop: 'evil.example.com' });
    expect(res.status).toBe(400);
  });
});

describe('body limits before reading', () => {
  it('refuses an unsigned 6 MB webhook with 413 from its declared length', async () => {
    const { app } = await makeApp();
    const res = await app.request('/api/webhooks/orders/create', {
      method: 'POST',
      headers: { 'X-Shopify-Shop-Domain': SHOP, 'Content-Length': String(6 * 1024 * 1024) },
      body: new Uint8Array(6 * 1024 * 1024),
    });
    expect(res.status).toBe(413);
    expect(((await res.json()) as ErrorBody).error.code).toBe('body_too_large');
  });

  it('cuts off a streamed body without a length once it passes the limit', async () => {
    const { app } = await makeApp();
    const chunk = new Uint8Array(1024 * 1024);
    let sent = 0;
    const stream = new ReadableStream<Uint8Array>({
      pull(controller) {
        sent += 1;
        if (sent > 50) controller.close();
        else controller.enqueue(chunk);
      },
    });
    const res = await app.request('/api/webhooks/orders/create', { method: 'POST', headers: { 'X-Shopify-Shop-Domain': SHOP }, body: stream, duplex: 'half' } as RequestInit);
    expect(res.status).toBe(413);
    expect(sent).toBeLessThan(50);
  });

  it('refuses a 1 MB document body with 413', async () => {
    const { call } = await makeApp();
    const res = await call('POST', '/api/kinds/earning.place_order/docs', JSON.stringify({ data: { title: 'x'.repeat(1024 * 1024) } }));
    expect(res.status).toBe(413);
  });
});

describe('session tokens for hosts that are not shops', () => {
  it('answers 401 and creates no shop row for https://evil.example.com', async () => {
    const { app, db } = await makeApp();
    const token = await signSessionToken(AUTH, 'evil.example.com');
    const res = await app.request('/api/shops', { headers: { Authorization: `Bearer ${token}` } });
    expect(res.status).toBe(401);
    const rows = await db.selectFrom('shops').select('id').where('id', '=', 'evil.example.com').execute();
    expect(rows).toEqual([]);
  });
});

describe('security headers', () => {
  async function appWithUi() {
    const { mkdtempSync, writeFileSync } = await import('node:fs');
    const { tmpdir } = await import('node:os');
    const { join } = await import('node:path');
    const uiDir = mkdtempSync(join(tmpdir(), 'ui-'));
    writeFileSync(join(uiDir, 'index.html'), '<!doctype html><title>t</title>');
    const db = await openTestDatabase();
    return createApp({ db, registry: repoRegistry(), auth: AUTH, uiDir });
  }

  it('lets only the shop admin and the unified admin frame the embedded app', async () => {
    const app = await appWithUi();
    const res = await app.request(`/embed/programs?shop=${SHOP}`);
    expect(res.headers.get('Content-Security-Policy')).toContain(`frame-ancestors https://${SHOP} https://admin.shopify.com`);
    expect(res.headers.get('X-Content-Type-Options')).toBe('nosniff');
  });

  it('lets nobody frame the standalone admin, and ignores a shop parameter that is not a shop', async () => {
    const app = await appWithUi();
    const standalone = await app.request('/programs');
    expect(standalone.headers.get('Content-Security-Policy')).toContain("frame-ancestors 'none'");
    const spoofed = await app.request('/embed?shop=evil.example.com');
    expect(spoofed.headers.get('Content-Security-Policy')).not.toContain('evil.example.com');
  });

  it('sends nosniff on API answers too', async () => {
    const { call } = await makeApp();
    expect((await call('GET', '/api/shops')).headers.get('X-Content-Type-Options')).toBe('nosniff');
  });
});

describe('bounded documents', () => {
  it('refuses a list longer than its template allows with the field path', async () => {
    const { call } = await makeApp();
    const tiers = Array.from({ length: 101 }, (_, i) => `tier-${i}`);
    const res = await call('POST', '/api/kinds/earning.place_order/docs', { data: placeOrderData({ customerEligibility: 'specific_tiers', eligibleTiers: tiers }) });
    expect(res.status).toBe(422);
    expect(((await res.json()) as ErrorBody).error.details?.map((d) => d.path)).toContain('/eligibleTiers');
  });

  it('refuses a title longer than 255 characters with the field path', async () => {
    const { call } = await makeApp();
    const res = await call('POST', '/api/kinds/earning.place_order/docs', { data: placeOrderData({ title: 'x'.repeat(256) }) });
    expect(res.status).toBe(422);
    expect(((await res.json()) as ErrorBody).error.details?.map((d) => d.path)).toContain('/title');
  });
});
