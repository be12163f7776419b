/**
 * The storefront API under `/proxy/*` (issue 11; contract in docs/storefront-api.md). Every route
 * here runs behind requireProxySignature, so `c.var.shopId` and `c.var.customerId` are verified.
 * Area modules add their routes to the returned app.
 */
import { Hono } from 'hono';
import type { AppDeps } from '../deps';
import { requireProxySignature, type ProxyEnv } from './middleware';

/** Builds `/proxy/*`: signature check, then the shopper calls. */
export function proxyRoutes(deps: AppDeps): Hono<ProxyEnv> {
  const app = new Hono<ProxyEnv>();
  app.use('*', requireProxySignature(deps.auth.apiSecret, deps.now));
  // Who the platform says is asking: lets the widget tell a guest from a signed-in shopper.
  app.get('/whoami', (c) => c.json({ data: { shop: c.var.shopId, customerId: c.var.customerId } }));
  return app;
}
