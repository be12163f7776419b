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

/**
 * The body's length in bytes when the request frames it by a Content-Length (a plain number of at
 * most 15 digits, and no Transfer-Encoding): Node's parser then reads exactly that many bytes, so
 * the length can be checked before anything is read (server/limits.ts) and the body read whole
 * (rawBody). Undefined for a chunked body or a length that is not a plain number.
 */
export function declaredLength(c: Context): number | undefined {
  const length = incomingHeader(c, 'content-length');
  if (length === undefined || !DIGITS.test(length) || incomingHeader(c, 'transfer-encoding') !== undefined) return undefined;
  return Number(length);
}

/** A Content-Length value (at most 15 digits, so it reads exactly as a number). */
const DIGITS = /^\d{1,15}$/;

/**
 * The request body's bytes as received. Served by @hono/node-server, a body framed by its
 * Content-Length (already checked against the route's limit by server/limits.ts) is read straight
 * from Node's request stream: `c.req.arrayBuffer()` first builds a fetch Request and a web stream
 * over it, which cost the webhook intake about 0.15 ms a delivery on the serving thread
 * (bench:ingest profile, 2026-11-29). A chunked body, one something already began to read, and
 * `app.request()` in tests go through Hono, whose body limit counts a chunked body as it is read.
 * Rejects with the stream's error when the client aborts.
 */
export function rawBody(c: Context): Promise<Uint8Array> {
  const incoming = (c.env as { incoming?: IncomingMessage } | undefined)?.incoming;
  if (!incoming || declaredLength(c) === undefined || incoming.readableDidRead) {
    return c.req.arrayBuffer().then((buffer) => new Uint8Array(buffer));
  }
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    incoming.on('data', (chunk: Buffer) => chunks.push(chunk));
    incoming.once('end', () => resolve(chunks.length === 1 ? chunks[0]! : Buffer.concat(chunks)));
    incoming.once('error', reject);
    incoming.once('aborted', () => reject(new Error('the client aborted the request')));
  });
}
