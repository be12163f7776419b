/**
 * App-proxy authenticity (issue 11, DESIGN.md "shopper ──► app proxy ──► /proxy/*"). The platform
 * forwards a storefront request to the app with the query it received plus `shop`,
 * `logged_in_customer_id`, `path_prefix`, `timestamp` (Unix seconds) and `signature`: the hex
 * HMAC-SHA256, keyed with the app secret, of every other parameter as `key=value` sorted by key
 * and joined with no separator, a repeated key's values joined by `,`.
 */
import { createHmac, timingSafeEqual } from 'node:crypto';

/** Seconds a signed request may be away from the server's clock before it counts as a replay. */
export const PROXY_TIMESTAMP_TOLERANCE_SECONDS = 90;

/** Query parameters as the platform sends them: each key with every value it carries, in order. */
export type ProxyQuery = Record<string, string[]>;

/** The message the platform signs: `k=v` pairs (multi-values joined by `,`) sorted by key, no separator. */
export function proxySignatureMessage(query: ProxyQuery): string {
  return Object.keys(query)
    .filter((key) => key !== 'signature')
    .sort()
    .map((key) => `${key}=${(query[key] ?? []).join(',')}`)
    .join('');
}

/** The `signature` the platform would add to `query` under `secret` (lower-case hex). */
export function proxySignature(query: ProxyQuery, secret: string): string {
  return createHmac('sha256', secret).update(proxySignatureMessage(query)).digest('hex');
}

/** Why a proxied request was refused, or null when it is authentic and fresh. */
export type ProxyRefusal = 'missing_signature' | 'invalid_signature' | 'stale_timestamp' | 'missing_shop';

/**
 * Checks `query` (with its `signature`) under `secret` in constant time, then its `timestamp`
 * against `nowSeconds` (±90 s), then that it names a shop. Returns the refusal or null.
 */
export function checkProxyQuery(query: ProxyQuery, secret: string, nowSeconds: number): ProxyRefusal | null {
  const given = query.signature?.[0];
  if (!given) return 'missing_signature';
  const expected = Buffer.from(proxySignature(query, secret), 'hex');
  const actual = Buffer.from(given, 'hex');
  if (actual.length !== expected.length || !timingSafeEqual(actual, expected)) return 'invalid_signature';
  const timestamp = Number(query.timestamp?.[0]);
  if (!Number.isFinite(timestamp) || Math.abs(nowSeconds - timestamp) > PROXY_TIMESTAMP_TOLERANCE_SECONDS) return 'stale_timestamp';
  if (!query.shop?.[0]) return 'missing_shop';
  return null;
}

/** Parses a URL's query string into ProxyQuery (repeated keys keep every value, in order). */
export function parseProxyQuery(search: string): ProxyQuery {
  const query: ProxyQuery = {};
  for (const [key, value] of new URLSearchParams(search)) (query[key] ??= []).push(value);
  return query;
}
