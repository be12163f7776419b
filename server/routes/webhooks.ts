/**
 * Platform webhooks, authenticated by HMAC instead of a session token. The shop comes from
 * `X-Shopify-Shop-Domain`, trusted only because the HMAC proves the platform sent the body.
 */
import { Hono, type Context } from 'hono';
import type { AppDeps } from '../deps';
import { ApiError } from '../errors';
import { parseExact } from '../json';
import { isValidWebhookHmac } from '../webhook-hmac';
import { ingestOrder } from '../services/orders';
import { ingestCancellation, ingestRefund } from '../services/refunds';

/** The verified delivery: shop domain and the body parsed with exact ids. Throws 401/400 otherwise. */
async function verifiedDelivery(deps: AppDeps, c: Context): Promise<{ shopId: string; body: unknown }> {
  const raw = await c.req.text();
  if (!isValidWebhookHmac(raw, c.req.header('X-Shopify-Hmac-Sha256'), deps.auth.apiSecret)) {
    throw new ApiError(401, 'invalid_hmac', 'The webhook signature does not match');
  }
  const shopId = (c.req.header('X-Shopify-Shop-Domain') ?? '').trim().toLowerCase();
  if (!shopId) throw new ApiError(400, 'missing_shop_domain', 'The X-Shopify-Shop-Domain header is required');
  return { shopId, body: parseExact(raw) };
}

export function webhookRoutes(deps: AppDeps): Hono {
  const app = new Hono();
  app.post('/webhooks/orders/create', async (c) => {
    const { shopId, body } = await verifiedDelivery(deps, c);
    const result = await ingestOrder(deps, shopId, body);
    return c.json({ data: { orderId: result.orderId, duplicate: result.duplicate, pointsAwarded: result.pointsAwarded } });
  });
  app.post('/webhooks/refunds/create', async (c) => {
    const { shopId, body } = await verifiedDelivery(deps, c);
    return c.json({ data: await ingestRefund(deps, shopId, body) });
  });
  app.post('/webhooks/orders/cancelled', async (c) => {
    const { shopId, body } = await verifiedDelivery(deps, c);
    return c.json({ data: await ingestCancellation(deps, shopId, body) });
  });
  return app;
}
