/**
 * Issue 14 "Several app processes against one database are safe": two spawned server processes on
 * one database (PostgreSQL when TEST_DATABASE_URL is set, which the gate's second API run does;
 * else one SQLite file). Every order is delivered to both at the same moment under two webhook ids
 * (two platform retries landing on two instances); each order is awarded exactly once.
 */
import type { ChildProcess } from 'node:child_process';
import { afterAll, describe, expect, it } from 'vitest';
import { signSessionToken } from '../../server/auth';
import { openDatabase } from '../../server/db/database';
import { webhookHmac } from '../../server/webhook-hmac';
import { AUTH, freshDatabaseLocation, SHOP } from '../support/app';
import { orderBody, placeOrderData } from '../support/factories';
import { spawnServer, waitUntilReady, type ServerProcess } from '../support/server-process';

const ORDERS = 20;
const children: ChildProcess[] = [];
afterAll(() => children.forEach((c) => c.kill('SIGKILL')));

/** Starts `server/main.ts` against `location` (a PostgreSQL URL or a SQLite file); resolves when /readyz answers 200. */
async function startOn(location: string): Promise<ServerProcess> {
  const postgres = location.startsWith('postgres');
  const server = await spawnServer({
    DATABASE_URL: postgres ? location : '',
    DATABASE_PATH: postgres ? '' : location,
    SHOPIFY_API_KEY: AUTH.apiKey,
    SHOPIFY_API_SECRET: AUTH.apiSecret,
    LOG_LEVEL: 'warn',
  });
  children.push(server.child);
  await waitUntilReady(server);
  return server;
}

describe('two server processes on one database', () => {
  it('receive the same orders at the same moment and award each exactly once', async () => {
    const location = await freshDatabaseLocation();
    const [a, b] = await Promise.all([startOn(location), startOn(location)]);
    const url = (i: number) => [a, b][i]!.url;

    const token = await signSessionToken(AUTH, SHOP);
    const created = await fetch(`${url(0)}/api/kinds/earning.place_order/docs`, {
      method: 'POST',
      headers: { Authorization: `Bearer ${token}`, 'Content-Type': 'application/json' },
      body: JSON.stringify({ data: placeOrderData({ earnPoint: 1, rateMoney: 1 }) }),
    });
    expect(created.status).toBe(201);

    const orders = Array.from({ length: ORDERS }, (_, i) =>
      orderBody({ id: String(7_100_000_000 + i), customer: { id: String(500 + (i % 4)), email: `two${i % 4}@example.com`, first_name: 'T', last_name: String(i % 4) } }),
    );
    const send = (server: number, order: Record<string, unknown>, webhookId: string) => {
      const raw = JSON.stringify(order);
      return fetch(`${url(server)}/api/webhooks/orders/create`, {
        method: 'POST',
        headers: { 'Content-Type': 'application/json', 'X-Shopify-Shop-Domain': SHOP, 'X-Shopify-Hmac-Sha256': webhookHmac(raw, AUTH.apiSecret), 'X-Shopify-Webhook-Id': webhookId },
        body: raw,
      }).then((r) => r.status);
    };
    const statuses = await Promise.all(orders.flatMap((order, i) => [send(0, order, `wh-a-${i}`), send(1, order, `wh-b-${i}`)]));
    expect(new Set(statuses)).toEqual(new Set([200]));

    const db = await openDatabase(location, location.startsWith('postgres') ? { max: 1 } : {});
    try {
      for (let i = 0; i < 300; i++) {
        const open = await db.selectFrom('webhook_deliveries').select((eb) => eb.fn.countAll<number>().as('n')).where('status', '!=', 'done').executeTakeFirstOrThrow();
        if (Number(open.n) === 0) break;
        await new Promise((r) => setTimeout(r, 100));
      }
      const deliveries = await db.selectFrom('webhook_deliveries').select(['status', 'webhook_id']).execute();
      expect(deliveries).toHaveLength(2 * ORDERS);
      expect(deliveries.every((d) => d.status === 'done')).toBe(true);
      const awards = await db.selectFrom('ledger_entries').select(['source_id', 'points']).where('source_type', '=', 'order').execute();
      expect(awards.map((r) => r.source_id).sort()).toEqual(orders.map((o) => o.id as string).sort());
      expect(awards.every((r) => r.points === 100)).toBe(true);
    } finally {
      await db.destroy();
    }

    a.child.kill('SIGTERM');
    b.child.kill('SIGTERM');
    expect(await Promise.all([a.exited, b.exited])).toEqual([0, 0]);
  }, 90_000);
});
