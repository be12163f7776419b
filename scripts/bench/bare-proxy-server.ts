/**
 * The bare baseline for bench:storefront: a server on the same stack (Hono on @hono/node-server)
 * that does only what any app-proxy endpoint must: parse the query and verify its signature and
 * timestamp with the app's own check (server/proxy/signature.ts), then answer a constant JSON.
 * No database, no shop, no shopper. Environment: PORT, SECRET.
 */
import { serve } from '@hono/node-server';
import { Hono } from 'hono';
import { checkProxyQuery, parseProxyQuery } from '../../server/proxy/signature';

const secret = process.env.SECRET ?? '';
const app = new Hono();
app.get('/healthz', (c) => c.json({ ok: true }));
app.all('/proxy/*', (c) => {
  const query = parseProxyQuery(new URL(c.req.url).search);
  const refusal = checkProxyQuery(query, secret, Math.floor(Date.now() / 1000));
  if (refusal) return c.json({ error: { code: refusal, message: 'refused' } }, 401);
  return c.json({ data: { ok: true } });
});
serve({ fetch: app.fetch, port: Number(process.env.PORT ?? 4700) });
