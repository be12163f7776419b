/**
 * Request headers on the hot paths. Served by @hono/node-server, a request's fetch `Headers` object
 * is built on first use from Node's parsed headers, which costs more than the storefront's
 * cheapest calls (`npm run bench:storefront`); this reads Node's own parsed headers instead.
 */
import type { IncomingMessage } from 'node:http';
import type { Context } from 'hono';

/**
 * The request header `name` (lower case), several values joined by `, `; undefined when absent.
 * Read from Node's parsed headers under @hono/node-server, else through Hono (`app.request()` in tests).
 */
export function incomingHeader(c: Context, name: string): string | undefined {
  const incoming = (c.env as { incoming?: IncomingMessage } | undefined)?.incoming;
  if (incoming) {
    const value = incoming.headers[name];
    return Array.isArray(value) ? value.join(', ') : value;
  }
  return c.req.header(name);
}
