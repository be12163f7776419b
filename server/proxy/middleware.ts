/**
 * The storefront API's gate (issue 11): every `/proxy/*` request must carry a valid, fresh app-proxy
 * signature, else 401. The shop comes from the signed `shop` parameter and the shopper from the
 * signed `logged_in_customer_id` (empty or absent = a guest), never from anything else the
 * browser chooses.
 *
 * The gate is the whole of what the storefront API runs before a route (server/proxy/routes.ts
 * serves `/proxy/*` outside the admin app's middleware): request id and log line, the signature,
 * the rate limit, the body limit, the security headers. One middleware instead of the admin's
 * five, because every shopper page view pays it (`npm run bench:storefront`).
 */
import type { MiddlewareHandler } from 'hono';
import { ApiError } from '../errors';
import { limitBody, PROXY_BODY_LIMIT } from '../limits';
import { createLogger, logAnswered, requestIdOf, requestLineLogger, type Logger } from '../logging';
import { nodeResponse } from '../request-headers';
import { BASE_SECURITY_HEADERS, setBaseSecurityHeaders } from '../security-headers';
import { ProxyRateLimiter, rateLimitedBody, type ProxyRateLimits } from './rate-limit';
import { checkProxyQuery, parseProxyQuery } from './signature';

/** Hono environment of `/proxy/*` routes: the verified shop and shopper (null for a guest). */
export type ProxyEnv = { Variables: { shopId: string; customerId: string | null } };

const messages = {
  missing_signature: 'The app-proxy signature is missing',
  invalid_signature: 'The app-proxy signature does not match',
  stale_timestamp: 'The app-proxy timestamp is more than 90 seconds from the server clock',
  missing_shop: 'The app-proxy request names no shop',
} as const;

/** What the gate needs: the app secret, the limits, the clock (injectable for tests) and the log. */
export interface GateOptions {
  secret: string;
  limits: ProxyRateLimits;
  now?: () => Date;
  logger?: Logger;
}

/** The query string of a request URL (`?a=1…`, or '' without one), without a URL parse. */
function searchOf(url: string): string {
  const at = url.indexOf('?');
  if (at < 0) return '';
  const hash = url.indexOf('#', at);
  return hash < 0 ? url.slice(at) : url.slice(at, hash);
}

/**
 * The `/proxy/*` gate. In order: a request id (the caller's `X-Request-Id` or a new one); the
 * signature under `secret` and its timestamp (401 `missing_signature`, `invalid_signature`,
 * `stale_timestamp`, `missing_shop`); the rate limit per shopper and per shop (429 `rate_limited`
 * with `Retry-After`); the body limit (64 KiB, 413 `body_too_large`); then the route. Every
 * answer, refusals included, carries `X-Request-Id`, nosniff and the referrer policy, and is
 * logged as one line (server/logging.ts). Errors thrown by routes are answered by the app's
 * error handler before the gate sees the answer.
 */
export function storefrontGate(options: GateOptions): MiddlewareHandler<ProxyEnv> {
  const { secret } = options;
  const now = options.now ?? (() => new Date());
  const logger = options.logger ?? createLogger('silent');
  const lines = requestLineLogger(logger);
  const limiter = new ProxyRateLimiter(options.limits);
  const bodyLimit = limitBody(PROXY_BODY_LIMIT);
  return async (c, next) => {
    const started = performance.now();
    const requestId = requestIdOf(c);
    // Served by Node: the headers go on Node's response now, merged in when the answer is written.
    const outgoing = nodeResponse(c);
    if (outgoing) {
      for (const name in BASE_SECURITY_HEADERS) outgoing.setHeader(name, BASE_SECURITY_HEADERS[name]!);
      outgoing.setHeader('X-Request-Id', requestId);
    }
    const at = now().getTime();
    const query = parseProxyQuery(searchOf(c.req.url));
    const refusal = checkProxyQuery(query, secret, Math.floor(at / 1000));
    if (refusal) {
      c.res = c.json({ error: { code: refusal, message: messages[refusal] } }, 401);
    } else {
      const shopId = (query.shop?.[0] ?? '').trim().toLowerCase();
      const customer = query.logged_in_customer_id?.[0]?.trim();
      const customerId = customer ? customer : null;
      c.set('shopId', shopId);
      c.set('customerId', customerId);
      const wait = limiter.take(shopId, customerId, at);
      if (wait > 0) {
        c.res = c.json(rateLimitedBody(wait), 429, { 'Retry-After': String(wait) });
      } else {
        try {
          await bodyLimit(c, next);
        } catch (e) {
          // The body limit's refusal (413) is thrown before any route runs.
          if (!(e instanceof ApiError)) throw e;
          c.res = c.json({ error: { code: e.code, message: e.message } }, e.status);
        }
      }
    }
    if (!outgoing) {
      setBaseSecurityHeaders(c.res.headers);
      c.res.headers.set('X-Request-Id', requestId);
    }
    logAnswered(logger, lines, c, requestId, started);
  };
}
