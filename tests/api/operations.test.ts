/**
 * Operations (issue 14): liveness and readiness, structured request logs that never carry a
 * credential or a shopper's personal data, and a clean stop on SIGTERM.
 */
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Writable } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { createApp } from '../../server/app';
import { createLogger } from '../../server/logging';
import { ensureShop } from '../../server/store/shops';
import { webhookHmac } from '../../server/webhook-hmac';
import { signSessionToken } from '../../server/auth';
import { AUTH, DEMO, makeApp, repoRegistry, SHOP, openTestDatabase, signedProxyPath } from '../support/app';
import { startServer } from '../support/server-process';
import { orderBody, placeOrderData } from '../support/factories';

/** An app whose log lines are collected as parsed JSON. */
async function loggedApp() {
  const lines: Record<string, unknown>[] = [];
  const sink = new Writable({
    write(chunk: Buffer, _encoding, done) {
      for (const line of chunk.toString('utf8').split('\n').filter(Boolean)) lines.push(JSON.parse(line) as Record<string, unknown>);
      done();
    },
  });
  const db = await openTestDatabase();
  await ensureShop(db, SHOP, new Date().toISOString());
  const app = createApp({ db, registry: repoRegistry(), auth: AUTH, logger: createLogger('info', sink) });
  return { app, db, lines, text: () => JSON.stringify(lines) };
}

describe('health', () => {
  it('answers /healthz and /readyz while the database answers', async () => {
    const { app } = await makeApp();
    expect((await app.request('/healthz')).status).toBe(200);
    expect(await (await app.request('/readyz')).json()).toEqual({ status: 'ready', database: 'ok' });
  });

  it('answers /readyz 503 when the database is gone, /healthz still 200', async () => {
    const { app, db } = await makeApp();
    await db.destroy();
    expect((await app.request('/readyz')).status).toBe(503);
    expect((await app.request('/healthz')).status).toBe(200);
  });
});

describe('request logs', () => {
  it('writes one JSON line per request with request id, shop, status and duration', async () => {
    const { app, lines } = await loggedApp();
    const token = await signSessionToken(AUTH, SHOP);
    const res = await app.request('/api/shops', { headers: { Authorization: `Bearer ${token}`, 'X-Request-Id': 'req-123' } });
    expect(res.headers.get('X-Request-Id')).toBe('req-123');
    expect(lines).toContainEqual(expect.objectContaining({ requestId: 'req-123', method: 'GET', path: '/api/shops', status: 200, shop: SHOP, ms: expect.any(Number) }));
  });

  it('names the webhook topic and id and never logs the HMAC, the body or the shopper', async () => {
    const { app, text, lines } = await loggedApp();
    const token = await signSessionToken(AUTH, SHOP);
    await app.request('/api/kinds/earning.place_order/docs', { method: 'POST', headers: { Authorization: `Bearer ${token}`, 'Content-Type': 'application/json' }, body: JSON.stringify({ data: placeOrderData() }) });
    const raw = JSON.stringify(orderBody({}, [{ price: '100.00' }]));
    const hmac = webhookHmac(raw, AUTH.apiSecret);
    await app.request('/api/webhooks/orders/create', {
      method: 'POST',
      headers: { 'X-Shopify-Shop-Domain': SHOP, 'X-Shopify-Topic': 'orders/create', 'X-Shopify-Webhook-Id': 'wh-42', 'X-Shopify-Hmac-Sha256': hmac },
      body: raw,
    });
    expect(lines).toContainEqual(expect.objectContaining({ path: '/api/webhooks/orders/create', status: 200, topic: 'orders/create', webhookId: 'wh-42' }));
    const all = text();
    for (const secret of [hmac, token, 'ada@example.com', 'Lovelace', AUTH.apiSecret]) expect(all).not.toContain(secret);
  });

  it('logs a 500 with its error but answers without internals', async () => {
    const { app, db, lines } = await loggedApp();
    const token = await signSessionToken(AUTH, SHOP);
    await db.destroy();
    const res = await app.request('/api/shops', { headers: { Authorization: `Bearer ${token}` } });
    expect(res.status).toBe(500);
    expect(JSON.stringify(await res.json())).not.toMatch(/destroy|driver|sqlite/i);
    expect(lines).toContainEqual(expect.objectContaining({ level: 50, status: 500, err: expect.objectContaining({ message: expect.any(String) }) }));
  });
});

describe('SIGTERM', () => {
  it('stops taking work, finishes, closes the database and exits 0', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'sigterm-'));
    const server = await startServer({ DATABASE_PATH: join(dir, 'db.sqlite'), DATABASE_URL: '', SHOPIFY_API_SECRET: '', LOG_LEVEL: 'info' });
    expect((await fetch(`${server.url}/healthz`)).status).toBe(200);
    // Over HTTP the storefront API's headers go on Node's response (server/proxy/middleware.ts):
    // answered, refused and unknown calls all carry them, and the request line is logged.
    for (const [path, status] of [['/whoami', 200], ['/no-such-call', 404]] as const) {
      const res = await fetch(`${server.url}${signedProxyPath(path, '42', { shop: DEMO.shopDomain, secret: DEMO.apiSecret })}`, { headers: { 'X-Request-Id': `req-${status}` } });
      expect([res.status, res.headers.get('X-Content-Type-Options'), res.headers.get('Referrer-Policy'), res.headers.get('X-Request-Id')]).toEqual([status, 'nosniff', 'strict-origin-when-cross-origin', `req-${status}`]);
    }
    const refused = await fetch(`${server.url}/proxy/whoami?shop=${DEMO.shopDomain}`);
    expect([refused.status, refused.headers.get('X-Content-Type-Options')]).toEqual([401, 'nosniff']);
    server.child.kill('SIGTERM');
    expect(await server.exited).toBe(0);
    const output = server.output();
    expect(output).toContain('listening');
    expect(output).toContain('"msg":"stopped"');
    expect(output).toContain('"requestId":"req-200","method":"GET","path":"/proxy/whoami","status":200');
  }, 30_000);
});
