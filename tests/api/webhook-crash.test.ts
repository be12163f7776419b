/**
 * Issue 14 "Done when": a `kill -9` of the server while 500 deliveries are queued, then a restart
 * and the platform's redelivery of all 500, ends with every order awarded exactly once.
 */
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import SQLite from 'better-sqlite3';
import { describe, expect, it } from 'vitest';
import { DEMO } from '../../server/config';
import { webhookHmac } from '../../server/webhook-hmac';
import { orderBody } from '../support/factories';
import { freePort, spawnServer, startServer } from '../support/server-process';

const ORDERS = 500;

/** A server's environment on the SQLite file; `workers` 0 = web only (deliveries stay queued). */
function serverEnv(databasePath: string, workers = 1): Record<string, string> {
  return { DATABASE_PATH: databasePath, DATABASE_URL: '', SHOPIFY_API_SECRET: '', LOG_LEVEL: 'warn', WEBHOOK_LOCK_SECONDS: '1', WEBHOOK_WORKERS: String(workers) };
}

/** Sends every delivery, 16 at a time; resolves with the HTTP statuses. */
async function deliverAll(port: number, bodies: string[]): Promise<number[]> {
  const statuses: number[] = [];
  let next = 0;
  const worker = async () => {
    while (next < bodies.length) {
      const i = next++;
      const raw = bodies[i]!;
      const res = await fetch(`http://localhost:${port}/api/webhooks/orders/create`, {
        method: 'POST',
        headers: { 'Content-Type': 'application/json', 'X-Shopify-Shop-Domain': DEMO.shopDomain, 'X-Shopify-Hmac-Sha256': webhookHmac(raw, DEMO.apiSecret), 'X-Shopify-Webhook-Id': `wh-${i}` },
        body: raw,
      });
      statuses.push(res.status);
    }
  };
  await Promise.all(Array.from({ length: 16 }, worker));
  return statuses;
}

describe('kill -9 during 500 queued deliveries', () => {
  it('after a restart and redelivery, every order is awarded exactly once', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'crash-'));
    const databasePath = join(dir, 'db.sqlite');
    const port = await freePort();
    const bodies = Array.from({ length: ORDERS }, (_, i) =>
      JSON.stringify(orderBody({ id: String(8_000_000_000_000_000_000n + BigInt(i)), customer: { id: String(1000 + (i % 50)), email: `c${i % 50}@example.com`, first_name: 'C', last_name: String(i % 50) } })),
    );

    // 500 deliveries accepted and queued by a web-only instance…
    let server = await startServer(serverEnv(databasePath, 0), port);
    expect(new Set(await deliverAll(port, bodies))).toEqual(new Set([200]));
    server.child.kill('SIGTERM');
    await server.exited;
    const peek = new SQLite(databasePath, { readonly: true });
    const count = (status: string) => (peek.prepare('select count(*) as n from webhook_deliveries where status = ?').get(status) as { n: number }).n;
    expect(count('queued')).toBe(ORDERS);

    // …then a worker starts on them and is killed with SIGKILL part-way through.
    server = await spawnServer(serverEnv(databasePath), port);
    // The worker thread starts a moment after the first answer (seconds on a loaded machine):
    // wait for it to get going, not for a fixed number of polls.
    for (const until = Date.now() + 60_000; Date.now() < until && count('done') < 100; ) await new Promise((r) => setTimeout(r, 10));
    server.child.kill('SIGKILL');
    await server.exited;
    const doneAtKill = count('done');
    peek.close();
    expect(doneAtKill).toBeGreaterThan(0);
    expect(doneAtKill).toBeLessThan(ORDERS);

    server = await startServer(serverEnv(databasePath), port);
    expect(new Set(await deliverAll(port, bodies))).toEqual(new Set([200]));
    const db = new SQLite(databasePath, { readonly: true });
    for (let i = 0; i < 300; i++) {
      const queued = (db.prepare("select count(*) as n from webhook_deliveries where status != 'done'").get() as { n: number }).n;
      if (queued === 0) break;
      await new Promise((r) => setTimeout(r, 100));
    }
    server.child.kill('SIGTERM');
    await server.exited;

    const deliveries = db.prepare('select status, count(*) as n from webhook_deliveries group by status').all() as { status: string; n: number }[];
    expect(deliveries).toEqual([{ status: 'done', n: ORDERS }]);
    const awards = db.prepare("select source_id, count(*) as n from ledger_entries where source_type = 'order' and points > 0 group by source_id").all() as { source_id: string; n: number }[];
    expect(awards.length).toBe(ORDERS);
    expect(awards.every((a) => a.n === 1)).toBe(true);
    db.close();
  }, 120_000);
});
