/**
 * The app served by @hono/node-server over a real socket, as in production (the other API tests
 * call `app.request()`, which has no Node request or response): a webhook body read straight from
 * Node's request stream (server/request-headers.ts rawBody) is the bytes sent, a chunked body still
 * meets the route's limit, and answers are written whole or compressed as server/serving.ts says.
 */
import { request } from 'node:http';
import type { AddressInfo } from 'node:net';
import { serve, type ServerType } from '@hono/node-server';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { webhookHmac } from '../../server/webhook-hmac';
import { WEBHOOK_BODY_LIMIT } from '../../server/limits';
import { AUTH, makeApp, SHOP, type TestApp } from '../support/app';

interface Answer {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  body: Buffer;
}

let server: ServerType;
let port = 0;
let app: TestApp;

beforeAll(async () => {
  app = await makeApp();
  server = serve({ fetch: app.app.fetch, port: 0 });
  await new Promise((resolve) => server.once('listening', resolve));
  port = (server.address() as AddressInfo).port;
});

afterAll(async () => {
  await new Promise((resolve) => server.close(resolve));
  await app.db.destroy();
});

/** Sends `body` (whole with a Content-Length, or in `chunks` without one) and reads the answer. */
function send(method: string, path: string, headers: Record<string, string>, body?: Buffer, chunks?: Buffer[]): Promise<Answer> {
  return new Promise((resolve, reject) => {
    // A fresh connection each time: the 413 below ends its connection mid-body.
    const req = request({ agent: false, host: '127.0.0.1', port, method, path, headers: { ...headers, ...(body ? { 'Content-Length': String(body.length) } : {}) } }, (res) => {
      const parts: Buffer[] = [];
      res.on('data', (part: Buffer) => parts.push(part));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body: Buffer.concat(parts) }));
    });
    req.on('error', reject);
    if (body) req.end(body);
    else {
      for (const chunk of chunks ?? []) req.write(chunk);
      req.end();
    }
  });
}

const orderBody = (id: number, note: string): Buffer => Buffer.from(JSON.stringify({ id, name: `#${id}`, note, currency: 'USD', total_price: '10.00', subtotal_price: '10.00', line_items: [], customer: null }));

const webhookHeaders = (raw: Buffer, id: string): Record<string, string> => ({
  'Content-Type': 'application/json',
  'Accept-Encoding': 'br, gzip',
  'X-Shopify-Topic': 'orders/create',
  'X-Shopify-Shop-Domain': SHOP,
  'X-Shopify-Webhook-Id': id,
  'X-Shopify-Hmac-Sha256': webhookHmac(raw, AUTH.apiSecret),
});

describe('webhooks over a socket', () => {
  it('verifies the signature on the bytes received with a Content-Length, BOM included, and stores the text', async () => {
    const raw = Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), orderBody(7_001, 'über – naïve')]);
    const answer = await send('POST', '/api/webhooks/orders/create', webhookHeaders(raw, 'served-1'), raw);
    expect(answer.status).toBe(200);
    const { data } = JSON.parse(answer.body.toString('utf8')) as { data: { deliveryId: string; duplicate: boolean } };
    expect(data.duplicate).toBe(false);
    const stored = await app.db.selectFrom('webhook_delivery_bodies').select('body').where('delivery_id', '=', data.deliveryId).executeTakeFirstOrThrow();
    expect(stored.body).toContain('über – naïve');
  });

  it('refuses a body whose bytes were changed after signing', async () => {
    const raw = orderBody(7_002, 'signed');
    const headers = webhookHeaders(raw, 'served-2');
    const answer = await send('POST', '/api/webhooks/orders/create', headers, orderBody(7_002, 'signeD'));
    expect(answer.status).toBe(401);
    expect(answer.body.toString('utf8')).toContain('invalid_hmac');
  });

  it('reads a chunked body (no Content-Length) through the limit, in pieces as sent', async () => {
    const raw = orderBody(7_003, 'chunked');
    const answer = await send('POST', '/api/webhooks/orders/create', webhookHeaders(raw, 'served-3'), undefined, [raw.subarray(0, 10), raw.subarray(10, 200), raw.subarray(200)]);
    expect(answer.status).toBe(200);
  });

  it('refuses a chunked body once it passes the limit', async () => {
    const piece = Buffer.alloc(1024 * 1024, 0x20);
    const pieces = Array.from({ length: Math.ceil(WEBHOOK_BODY_LIMIT / piece.length) + 1 }, () => piece);
    const answer = await send('POST', '/api/webhooks/orders/create', webhookHeaders(piece, 'served-4'), undefined, pieces);
    expect(answer.status).toBe(413);
  });

  it('answers a webhook in one piece with its length, from a sender that accepts no encoding', async () => {
    const raw = orderBody(7_005, 'x'.repeat(2_000));
    const { 'Accept-Encoding': _accepts, ...headers } = webhookHeaders(raw, 'served-5');
    const answer = await send('POST', '/api/webhooks/orders/create', headers, raw);
    expect(answer.status).toBe(200);
    expect(answer.headers['content-encoding']).toBeUndefined();
    expect(answer.headers['content-length']).toBe(String(answer.body.length));
    expect(answer.headers['transfer-encoding']).toBeUndefined();
  });
});

describe('answers over a socket (server/serving.ts)', () => {
  it('compresses a JSON answer of 1 KiB or more for a client that accepts brotli, and says it varies', async () => {
    const answer = await send('GET', '/api/kinds', { Authorization: `Bearer ${app.token}`, 'Accept-Encoding': 'br' });
    expect(answer.status).toBe(200);
    expect(answer.headers['content-encoding']).toBe('br');
    expect(answer.headers.vary).toContain('Accept-Encoding');
  });

  it('writes a small answer whole, with its length and Vary, for a client that accepts no encoding', async () => {
    const answer = await send('GET', '/healthz', {});
    expect(answer.status).toBe(200);
    expect(JSON.parse(answer.body.toString('utf8'))).toEqual({ status: 'ok' });
    expect(answer.headers['content-length']).toBe(String(answer.body.length));
    expect(answer.headers.vary).toContain('Accept-Encoding');
  });
});
