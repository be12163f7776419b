/**
 * Platform webhooks, authenticated by HMAC instead of a session token. The shop comes from
 * `X-Shopify-Shop-Domain`, trusted only because the HMAC proves the platform sent the body.
 */
import { Hono, type Context } from 'hono';
import type { AppDeps } from '../deps';
import { ApiError } from '../errors';
import { parseExact } from '../json';
import { isValidWebhookHmacAny } from '../webhook-hmac';
import { isShopDomain } from '../auth';
import { ingestOrder } from '../services/orders';
import { ingestCancellation, ingestRefund } from '../services/refunds';

/**
 * The verified delivery: shop domain and the body parsed with exact ids. The HMAC is checked on the
 * body's bytes as received (current or previous secret), before anything decodes them. Throws
 * ApiError 401 `invalid_hmac`, 400 `missing_shop_domain` / `invalid_json`.
 */
async function verifiedDelivery(deps: AppDeps, c: Context): Promise<{ shopId: string; body: unknown }> {
  const raw = new Uint8Array(await c.req.arrayBuffer());
  if (!isValidWebhookHmacAny(raw, c.req.header('X-Shopify-Hmac-Sha256'), [deps.auth.apiSecret, deps.auth.previousApiSecret])) {
    throw new ApiError(401, 'invalid_hmac', 'The webhook signature does not match');
  }
  const shopId = (c.req.header('X-Shopify-Shop-Domain') ?? '').trim().toLowerCase();
  if (!shopId) throw new ApiError(400, 'missing_shop_domain', 'The X-Shopify-Shop-Domain header is required');
  if (!isShopDomain(shopId)) throw new ApiError(400, 'invalid_shop_domain', 'X-Shopify-Shop-Domain must be a <name>.myshopify.com domain');
  // TextDecoder drops a leading byte-order mark; a byte that is not UTF-8 becomes U+FFFD inside a string.
  return { shopId, body: parseExact(new TextDecoder('utf-8').decode(raw)) };
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
