/**
 * Request and answer headers on the hot paths. Served by @hono/node-server, a request's fetch
 * `Headers` object is built on first use from Node's parsed headers, and an answer's when a header
 * is added to it, which costs more than the storefront's cheapest calls (`npm run bench:storefront`);
 * these read and write Node's own instead.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
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

/**
 * Node's response of `c` when served by @hono/node-server (its headers set now are merged into the
 * answer when it is written, without a fetch `Headers` object), else undefined (`app.request()`).
 */
export function nodeResponse(c: Context): ServerResponse | undefined {
  return (c.env as { outgoing?: ServerResponse } | undefined)?.outgoing;
}
