/**
 * The storefront API under `/proxy/*` (issue 11; contract in docs/storefront-api.md). Every route
 * here runs behind requireProxySignature, so `c.get('shopId')` and `c.get('customerId')` are verified,
 * and behind the rate limit (429 with `Retry-After`).
 * Area modules add their routes to the returned app.
 */
import { Hono } from 'hono';
import type { AppDeps } from '../deps';
import { eventProxyRoutes } from './events';
import { requireProxySignature, type ProxyEnv } from './middleware';
import { proxyRateLimit, proxyRateLimitsFromEnv } from './rate-limit';
import { redeemProxyRoutes } from './redeem';
import { referralProxyRoutes } from './referral';
import { shopperProxyRoutes } from './shopper';
import { widgetProxyRoutes } from './widget';
import { translationProxyRoutes } from '../routes/translations';

/**
 * Builds `/proxy/*`: signature check, then the rate limit per shopper and per shop
 * (server/proxy/rate-limit.ts, limits from the environment), then the shopper calls.
 */
export function proxyRoutes(deps: AppDeps): Hono<ProxyEnv> {
  const app = new Hono<ProxyEnv>();
  app.use('*', requireProxySignature(deps.auth.apiSecret, deps.now));
  app.use('*', proxyRateLimit(proxyRateLimitsFromEnv(), deps.now));
  // Who the platform says is asking: lets the widget tell a guest from a signed-in shopper.
  app.get('/whoami', (c) => c.json({ data: { shop: c.get('shopId'), customerId: c.get('customerId') } }));
  app.route('/', shopperProxyRoutes(deps));
  app.route('/', eventProxyRoutes(deps));
  app.route('/', redeemProxyRoutes(deps));
  app.route('/', referralProxyRoutes(deps));
  app.route('/', widgetProxyRoutes(deps));
  app.route('/', translationProxyRoutes(deps)); // texts of any translation variant (server/routes/translations.ts)
  return app;
}
