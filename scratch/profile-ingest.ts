// In-process: store N journaled order deliveries, then process them with the queue's group commit on one thread.
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { loadRegistry } from '../engine/registry';
import { openDatabase } from '../server/db/database';
import { ensureShop } from '../server/store/shops';
import { insertDocument } from '../server/store/documents';
import { WebhookQueue, nextSeq } from '../server/webhooks/queue';
import { LocalDiscounts } from '../server/platform/discounts';
import { parseExact } from '../server/json';
import { platformOrder, prng } from '../scripts/bench/orders';
import { PROGRAM_DATA } from '../scripts/bench/programs';

import SQLite from 'better-sqlite3';
const timing = new Map<string, { n: number; ms: number }>();
if (process.env.SQL_TIMING) {
  const proto = Object.getPrototypeOf(new SQLite(':memory:').prepare('select 1')) as Record<string, (...a: unknown[]) => unknown>;
  for (const name of ['run', 'get', 'all']) {
    const original = proto[name]!;
    proto[name] = function (this: { source: string }, ...args: unknown[]) {
      const t = performance.now();
      try { return original.apply(this, args); } finally {
        const k = this.source.replace(/\s+/g, ' ').slice(0, 140);
        const e = timing.get(k) ?? { n: 0, ms: 0 };
        e.n++; e.ms += performance.now() - t; timing.set(k, e);
      }
    };
  }
}
if (process.env.V7) {
  const { randomBytes } = await import('node:crypto');
  (globalThis.crypto as { randomUUID: () => string }).randomUUID = () => {
    const b = randomBytes(16);
    const ms = Date.now();
    b.writeUIntBE(ms, 0, 6);
    b[6] = (b[6]! & 0x0f) | 0x70;
    b[8] = (b[8]! & 0x3f) | 0x80;
    const h = b.toString('hex');
    return `${h.slice(0, 8)}-${h.slice(8, 12)}-${h.slice(12, 16)}-${h.slice(16, 20)}-${h.slice(20)}`;
  };
}
const ROOT = join(import.meta.dirname, '..');
const SHOP = 'bench-shop.myshopify.com';
const N = Number(process.env.N ?? 1500);
const ROUNDS = Number(process.env.ROUNDS ?? 3);
const path = join(mkdtempSync(join(tmpdir(), 'prof-ingest-')), 'db.sqlite');
{
  const registry = loadRegistry(join(ROOT, 'schemas'));
  const db = await openDatabase(path);
  const now = new Date().toISOString();
  await ensureShop(db, SHOP, now, { currency: 'USD', iana_timezone: 'America/New_York', plan: 'enterprise_2025', settings: JSON.stringify({ shopifyPlan: 'shopify_plus' }) });
  const kind = registry.get('earning.place_order')!;
  for (const data of PROGRAM_DATA) {
    const outcome = kind.validate({ status: true, statusUseCondition: true, ...data });
    if (!outcome.ok) throw new Error('bad program');
    await insertDocument(db, SHOP, kind.id, kind.version, outcome.data, now);
  }
  await db.destroy();
}
const serving = await openDatabase(path);
const db = await openDatabase(path, { checkpointer: false, spinOnBusy: true, groupCommit: true });
const registry = loadRegistry(join(ROOT, 'schemas'), { compile: 'lazy' });
const queue = new WebhookQueue({ db, registry, auth: { apiKey: 'k', apiSecret: 's', demo: true }, platformDiscounts: new LocalDiscounts() }, { lockSeconds: 30, claimBatch: Number(process.env.CLAIM ?? 16) });
const random = prng(7);
let n = 0;
for (let round = 0; round < ROUNDS; round++) {
  const records = Array.from({ length: N }, () => {
    n++;
    const body = JSON.stringify(platformOrder(n, Math.floor(random() * 2000), random));
    return { id: crypto.randomUUID(), seq: nextSeq(), receivedAt: new Date().toISOString(), shopId: SHOP, topic: 'orders/create', webhookId: `w-${n}`, orderKey: String(13_000_000 + n), body };
  });
  const t0 = performance.now();
  await queue.storeRecords(records, (r) => parseExact(r.body));
  const t1 = performance.now();
  queue.start();
  await queue.drain();
  const t2 = performance.now();
  const done = await db.selectFrom('webhook_deliveries').select((eb) => eb.fn.countAll().as('c')).where('status', '=', 'done').executeTakeFirst();
  console.log(`round ${round}: store ${((t1 - t0) / N).toFixed(3)} ms/order, process ${((t2 - t1) / N).toFixed(3)} ms/order; done ${String(done?.c)}`);
}
await queue.stop();
if (process.env.SQL_TIMING) {
  const all = [...timing].sort((a, b) => b[1].ms - a[1].ms);
  const total = all.reduce((n, [, e]) => n + e.ms, 0);
  console.log('SQL total', total.toFixed(0), 'ms', (total / n).toFixed(3), 'ms/order');
  for (const [k, e] of all.slice(0, 40)) console.log(e.ms.toFixed(0).padStart(6), 'ms', String(e.n).padStart(6), (e.ms / e.n * 1000).toFixed(0).padStart(6), 'us ', k);
}
await db.destroy();
