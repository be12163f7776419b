/**
 * Demo mode's stand-in for the platform's app proxy: the storefront widget calls
 * `/apps/loyalty/<path>` on the shop's domain; the platform signs the query and forwards it to
 * `/proxy/<path>`. Here, only when the server runs in demo mode, `/apps/loyalty/*` does the same
 * for the demo shop, taking the shopper from the `loyalty_demo_customer` cookie or query
 * parameter (a guest when absent), so the widget runs against a local server exactly as it would
 * behind the platform. Never mounted outside demo mode.
 */
import { Hono } from 'hono';
import { getCookie } from 'hono/cookie';
import { proxySignature, parseProxyQuery } from './signature';

/** Where the stand-in forwards: the app's own `fetch` (e.g. `app.request`). */
export type Forward = (path: string, init: RequestInit) => Response | Promise<Response>;

/** The local app proxy for `shopDomain`, signing with `secret`. */
export function localAppProxy(shopDomain: string, secret: string, forward: Forward, now: () => Date = () => new Date()): Hono {
  const app = new Hono();
  app.all('/apps/loyalty/*', async (c) => {
    const url = new URL(c.req.url);
    const path = url.pathname.slice('/apps/loyalty'.length) || '/';
    const query = parseProxyQuery(url.search);
    const shopper = query.loyalty_demo_customer?.[0] ?? getCookie(c, 'loyalty_demo_customer') ?? '';
    delete query.loyalty_demo_customer;
    delete query.signature;
    query.shop = [shopDomain];
    query.logged_in_customer_id = [shopper];
    query.path_prefix = ['/apps/loyalty'];
    query.timestamp = [String(Math.floor(now().getTime() / 1000))];
    const signed = new URLSearchParams();
    for (const [key, values] of Object.entries(query)) for (const value of values) signed.append(key, value);
    signed.append('signature', proxySignature(query, secret));
    const headers = new Headers(c.req.raw.headers);
    const body = c.req.method === 'GET' || c.req.method === 'HEAD' ? undefined : await c.req.arrayBuffer();
    return forward(`/proxy${path}?${signed.toString()}`, { method: c.req.method, headers, body });
  });
  return app;
}
