/**
 * Storefront API calls under `/proxy/*` (issue 11, docs/storefront-api.md): the shopper's referral
 * link. Mounted by server/proxy/routes.ts behind the app-proxy signature check.
 */
import { Hono } from 'hono';
import type { AppDeps } from '../deps';
import { referralLink } from '../services/referrals';
import type { ProxyEnv } from './middleware';

/**
 * `GET /proxy/referral[?device_id=<widget device id>]` → `{ data: { url, code } }`, created on the
 * first call; `{ data: null }` for a guest or when the shop's referral program is off. The device
 * id (signed with the rest of the query by the platform's proxy) is kept hashed for anti-cheat.
 * 409 `referral_limit` "You have reached the referral limit" when the plan allows no new link, 409
 * / 500 `referral_link_failed` "Failed to create referral link" otherwise.
 */
export function referralProxyRoutes(deps: AppDeps): Hono<ProxyEnv> {
  const app = new Hono<ProxyEnv>();
  app.get('/referral', async (c) => {
    const customerId = c.get('customerId');
    if (!customerId) return c.json({ data: null });
    const deviceId = c.req.query('device_id');
    const link = await referralLink(deps, c.get('shopId'), customerId, { createCustomer: true, ...(deviceId ? { deviceId } : {}) });
    return c.json({ data: link ? { url: link.url, code: link.code } : null });
  });
  return app;
}
