/**
 * Platform webhooks, authenticated by HMAC instead of a session token. The shop comes from
 * `X-Shopify-Shop-Domain`, trusted only because the HMAC proves the platform sent the body.
 */
import { Hono } from 'hono';
import type { AppDeps } from '../deps';
import { ApiError } from '../errors';
import { parseExact } from '../json';
import { isValidWebhookHmac } from '../webhook-hmac';
import { ingestOrder } from '../services/orders';

export function webhookRoutes(deps: AppDeps): Hono {
  const app = new Hono();
  app.post('/webhooks/orders/create', async (c) => {
    const raw = await c.req.text();
    if (!isValidWebhookHmac(raw, c.req.header('X-Shopify-Hmac-Sha256'), deps.auth.apiSecret)) {
      throw new ApiError(401, 'invalid_hmac', 'The webhook signature does not match');
    }
    const shopId = (c.req.header('X-Shopify-Shop-Domain') ?? '').trim().toLowerCase();
    if (!shopId) throw new ApiError(400, 'missing_shop_domain', 'The X-Shopify-Shop-Domain header is required');
    const result = await ingestOrder(deps, shopId, parseExact(raw));
    return c.json({ data: { orderId: result.orderId, duplicate: result.duplicate, pointsAwarded: result.pointsAwarded } });
  });
  return app;
}
