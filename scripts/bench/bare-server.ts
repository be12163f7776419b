/**
 * The bare baseline for bench:ingest: a server on the same stack (Hono on @hono/node-server,
 * better-sqlite3 in WAL mode, a fresh file) that does only what any webhook receiver must:
 * read the body, verify its HMAC on the raw bytes, parse the JSON and insert the delivery into a
 * table. No shop lookup, no queue, no rules, no ledger. Environment: PORT, DATABASE_PATH, SECRET.
 */
import { createHmac, timingSafeEqual } from 'node:crypto';
import { serve } from '@hono/node-server';
import SQLite from 'better-sqlite3';
import { Hono } from 'hono';

const secret = process.env.SECRET ?? '';
const sqlite = new SQLite(process.env.DATABASE_PATH ?? ':memory:');
sqlite.pragma('journal_mode = WAL');
// The same durability as the app's default (server/config.ts sqliteSynchronous).
sqlite.pragma(`synchronous = ${process.env.SQLITE_SYNCHRONOUS?.toLowerCase() === 'full' ? 'FULL' : 'NORMAL'}`);
sqlite.exec('create table if not exists deliveries (id text primary key, shop text not null, topic text not null, body text not null, received_at text not null)');
const insert = sqlite.prepare('insert into deliveries (id, shop, topic, body, received_at) values (?, ?, ?, ?, ?)');

const app = new Hono();
app.get('/healthz', (c) => c.json({ ok: true }));
app.post('/api/webhooks/:a/:b', async (c) => {
  const raw = Buffer.from(await c.req.arrayBuffer());
  const expected = createHmac('sha256', secret).update(raw).digest();
  const given = Buffer.from(c.req.header('X-Shopify-Hmac-Sha256') ?? '', 'base64');
  if (given.length !== expected.length || !timingSafeEqual(given, expected)) return c.json({ error: 'invalid_hmac' }, 401);
  const text = raw.toString('utf8');
  JSON.parse(text);
  insert.run(crypto.randomUUID(), c.req.header('X-Shopify-Shop-Domain') ?? '', `${c.req.param('a')}/${c.req.param('b')}`, text, new Date().toISOString());
  return c.json({ ok: true });
});
serve({ fetch: app.fetch, port: Number(process.env.PORT ?? 4600) });
