/**
 * The storefront API under `/proxy/*` (issue 11; contract in docs/storefront-api.md). Every route
 * here runs behind the gate (server/proxy/middleware.ts): the signature, so `c.get('shopId')` and
 * `c.get('customerId')` are verified, the rate limit (429 with `Retry-After`), the body limit, the
 * request log and the security headers.
 *
 * The storefront API is an app of its own that createApp (server/app.ts) hands every `/proxy/*`
 * request to before the admin's middleware and router: a shopper's page view pays only the gate
 * and its route. Area modules add their routes to the returned app.
 */
import { Hono } from 'hono';
import type { AppDeps } from '../deps';
import type { WebhookQueue } from '../webhooks/queue';
import { handleError, notFound } from '../errors';
import { eventProxyRoutes } from './events';
import { storefrontGate, type ProxyEnv } from './middleware';
import { proxyRateLimitsFromEnv } from './rate-limit';
import { redeemProxyRoutes } from './redeem';
import { referralProxyRoutes } from './referral';
import { shopperProxyRoutes } from './shopper';
import { widgetProxyRoutes } from './widget';
import { translationProxyRoutes } from '../routes/translations';
import { InstalledShops } from '../store/shops';

/** Where the storefront API is served. */
export const PROXY_PREFIX = '/proxy';

/**
 * Whether a request URL (absolute, as a fetch Request has it) is the storefront API's: its path is
 * `/proxy/…`. Reads the string only (no URL parse): it runs on every request the server gets.
 */
export function isStorefrontUrl(url: string): boolean {
  const scheme = url.indexOf('://');
  const path = scheme < 0 ? 0 : url.indexOf('/', scheme + 3);
  return path >= 0 && url.startsWith(`${PROXY_PREFIX}/`, path);
}

/**
 * Builds the storefront API, routes under `/proxy` (`queue` takes the visit pings): the gate (limits from the environment, the
 * app secret, `deps.now`, `deps.logger`), then the shopper calls; errors in the app's one shape
 * (server/errors.ts), an unknown path 404 `not_found` (after the gate: a bad signature is a 401
 * whatever the path).
 */
export function proxyRoutes(deps: AppDeps, queue: Pick<WebhookQueue, 'enqueue' | 'kick'>, installed = new InstalledShops(deps.db)): Hono<ProxyEnv> {
  const routes = new Hono<ProxyEnv>();
  routes.use('*', storefrontGate({ secret: deps.auth.apiSecret, limits: proxyRateLimitsFromEnv(), ...(deps.now ? { now: deps.now } : {}), ...(deps.logger ? { logger: deps.logger } : {}) }));
  // Who the platform says is asking: lets the widget tell a guest from a signed-in shopper.
  routes.get('/whoami', (c) => c.json({ data: { shop: c.get('shopId'), customerId: c.get('customerId') } }));
  routes.route('/', shopperProxyRoutes(deps));
  routes.route('/', eventProxyRoutes(deps, queue, installed)); // the visit ping is queued (server/services/visits.ts)
  routes.route('/', redeemProxyRoutes(deps));
  routes.route('/', referralProxyRoutes(deps));
  routes.route('/', widgetProxyRoutes(deps));
  routes.route('/', translationProxyRoutes(deps)); // texts of any translation variant (server/routes/translations.ts)
  routes.all('*', () => {
    throw notFound('not_found', 'No such storefront API call');
  });
  const app = new Hono<ProxyEnv>();
  app.onError(handleError);
  app.route(PROXY_PREFIX, routes);
  return app;
}
