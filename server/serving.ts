/**
 * Serving the admin (issue 12 "Serving the admin"): compressed answers and cache headers.
 * - `compressResponses()` — brotli when the client accepts it, else gzip, for text-like answers
 *   (HTML, JS, CSS, JSON, SVG) of at least 1 KiB; hashed build assets are compressed once.
 * - `IMMUTABLE` for `/assets/*` (vite names them by content hash: a changed file is a new name) and
 *   `htmlAnswer()` for the app's page: `no-cache` with an ETag, so a browser revalidates every time
 *   and gets 304 until a new build ships.
 */
import { createHash } from 'node:crypto';
import { promisify } from 'node:util';
import { brotliCompress, constants, gzip as gzipCompress } from 'node:zlib';
import type { Context, MiddlewareHandler } from 'hono';

/** Cache-Control of content-hashed build assets. */
export const IMMUTABLE = 'public, max-age=31536000, immutable';

const COMPRESSIBLE = /^(?:text\/|application\/(?:json|javascript|xml|manifest\+json)|image\/svg\+xml)/i;
const MIN_BYTES = 1024;

/** Which encoding the client prefers among those we offer: `br`, then `gzip`; null for neither. */
export function chooseEncoding(acceptEncoding: string | undefined): 'br' | 'gzip' | null {
  const offered = new Map<string, number>();
  for (const part of (acceptEncoding ?? '').split(',')) {
    const [name = '', ...params] = part.trim().toLowerCase().split(';');
    const q = params.map((p) => p.trim()).find((p) => p.startsWith('q='));
    offered.set(name, q ? Number(q.slice(2)) : 1);
  }
  const ok = (name: string) => (offered.get(name) ?? offered.get('*') ?? 0) > 0;
  return ok('br') ? 'br' : ok('gzip') ? 'gzip' : null;
}

const brotli = promisify(brotliCompress);
const gzip = promisify(gzipCompress);
/** Compressed build assets by encoding and path: their names change with their content, so each is compressed once. */
const assetCache = new Map<string, Uint8Array<ArrayBuffer>>();
const ASSET_CACHE_LIMIT = 500;

async function compress(bytes: Uint8Array, encoding: 'br' | 'gzip'): Promise<Uint8Array<ArrayBuffer>> {
  // Quality 5 keeps brotli's cost per answer near gzip's while still smaller.
  return new Uint8Array(encoding === 'br' ? await brotli(bytes, { params: { [constants.BROTLI_PARAM_QUALITY]: 5 } }) : await gzip(bytes));
}

/**
 * Swaps the answer for one with `headers` (a full copy of the old ones, changed). Hono copies the old
 * answer's headers onto a new one, which would put back the uncompressed Content-Length, so the old
 * answer is dropped first.
 */
function replaceResponse(c: Context, body: BodyInit | null, old: Response, headers: Headers): void {
  c.res = undefined;
  c.res = new Response(body, { status: old.status, statusText: old.statusText, headers });
}

/**
 * Answers never compressed, whatever the client accepts: the platform's webhook deliveries and the
 * storefront API (`/proxy/*`) are small JSON answers read by programs, many per second.
 */
const UNCOMPRESSED_PATHS = /^\/(?:api\/webhooks|proxy)(?:\/|$)/;

/**
 * Adds `Vary: Accept-Encoding` to the answer in place, which keeps @hono/node-server's lightweight
 * answer (written in one go); an answer whose headers cannot change (a fetched one) is replaced.
 */
function addVary(c: Context, res: Response): void {
  try {
    res.headers.append('Vary', 'Accept-Encoding');
  } catch {
    const headers = new Headers(res.headers);
    headers.append('Vary', 'Accept-Encoding');
    replaceResponse(c, res.body, res, headers);
  }
}

/**
 * Middleware: compresses text-like answers (HTML, JS, CSS, JSON, SVG) of at least 1 KiB; leaves alone
 * what is already encoded, ranged, tiny, marked no-transform, a CSV download (exports stream as
 * they are written and are not buffered here), a webhook's answer or a storefront API answer
 * (`/proxy/*`). Build assets are compressed once and kept.
 *
 * It decides from the status and headers before it reads the body: reading `Response.body` of
 * @hono/node-server's lightweight answer (what `c.json` makes) turns it into a web-standard Response
 * that is streamed out, headers and body in two writes. That cost every webhook answer about 0.3 ms
 * of the serving thread (bench:ingest profile, 2026-11-29).
 */
export function compressResponses(): MiddlewareHandler {
  return async (c, next) => {
    await next();
    if (UNCOMPRESSED_PATHS.test(c.req.path)) return;
    const res = c.res;
    if (c.req.method === 'HEAD' || res.status === 204 || res.status === 206 || res.status === 304) return;
    const type = res.headers.get('Content-Type') ?? '';
    const length = res.headers.get('Content-Length');
    if (res.headers.has('Content-Encoding') || !COMPRESSIBLE.test(type) || /^text\/csv/i.test(type) || (length !== null && Number(length) < MIN_BYTES)) return;
    if (/no-transform/i.test(res.headers.get('Cache-Control') ?? '')) return;
    const encoding = chooseEncoding(c.req.header('Accept-Encoding'));
    if (!encoding) {
      addVary(c, res);
      return;
    }
    if (!res.body) return;
    const headers = new Headers(res.headers);
    headers.append('Vary', 'Accept-Encoding');
    const cacheKey = c.req.path.startsWith('/assets/') && res.status === 200 ? `${encoding}:${c.req.path}` : null;
    let body = cacheKey ? assetCache.get(cacheKey) : undefined;
    if (!body) {
      const raw = new Uint8Array(await res.arrayBuffer());
      if (raw.byteLength < MIN_BYTES) {
        replaceResponse(c, raw, res, headers);
        return;
      }
      body = await compress(raw, encoding);
      if (cacheKey && assetCache.size < ASSET_CACHE_LIMIT) assetCache.set(cacheKey, body);
    }
    headers.set('Content-Encoding', encoding);
    headers.set('Content-Length', String(body.byteLength));
    replaceResponse(c, body, res, headers);
  };
}

/** Middleware for `/assets/*`: a found asset is cached for a year as immutable (its name is its content's hash). */
export function immutableAssets(): MiddlewareHandler {
  return async (c, next) => {
    await next();
    if (c.res.status === 200) c.res.headers.set('Cache-Control', IMMUTABLE);
  };
}

/** The strong ETag of a text. */
export function etagOf(text: string): string {
  return `"${createHash('sha256').update(text).digest('base64url').slice(0, 27)}"`;
}

/**
 * The app's HTML page with revalidation: `Cache-Control: no-cache` and its ETag; 304 when the
 * browser already holds this build's page.
 */
export function htmlAnswer(c: Context, html: string, etag: string): Response {
  c.header('Cache-Control', 'no-cache');
  c.header('ETag', etag);
  const given = c.req.header('If-None-Match');
  if (given && given.split(',').some((t) => t.trim() === etag || t.trim() === `W/${etag}`)) return c.body(null, 304);
  return c.html(html);
}
