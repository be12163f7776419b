/**
 * The storefront API's gate (issue 11): every `/proxy/*` request must carry a valid, fresh app-proxy
 * signature, else 401. The shop comes from the signed `shop` parameter and the shopper from the
 * signed `logged_in_customer_id` (empty or absent = a guest), never from anything else the
 * browser chooses.
 */
import type { MiddlewareHandler } from 'hono';
import { ApiError } from '../errors';
import { checkProxyQuery, parseProxyQuery } from './signature';

/** Hono environment of `/proxy/*` routes: the verified shop and shopper (null for a guest). */
export type ProxyEnv = { Variables: { shopId: string; customerId: string | null } };

const messages = {
  missing_signature: 'The app-proxy signature is missing',
  invalid_signature: 'The app-proxy signature does not match',
  stale_timestamp: 'The app-proxy timestamp is more than 90 seconds from the server clock',
  missing_shop: 'The app-proxy request names no shop',
} as const;

/** Verifies the app-proxy signature under `secret`; `now` is injectable for tests. Throws ApiError 401. */
export function requireProxySignature(secret: string, now: () => Date = () => new Date()): MiddlewareHandler<ProxyEnv> {
  return async (c, next) => {
    const query = parseProxyQuery(new URL(c.req.url).search);
    const refusal = checkProxyQuery(query, secret, Math.floor(now().getTime() / 1000));
    if (refusal) throw new ApiError(401, refusal, messages[refusal]);
    c.set('shopId', (query.shop?.[0] ?? '').trim().toLowerCase());
    const customer = query.logged_in_customer_id?.[0]?.trim();
    c.set('customerId', customer ? customer : null);
    await next();
  };
}
