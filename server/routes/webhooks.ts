/**
 * Platform webhooks, authenticated by HMAC instead of a session token. The shop comes from
 * `X-Shopify-Shop-Domain`, trusted only because the HMAC proves the platform sent the body.
 * A delivery is verified on its raw bytes, checked for a shape it can be processed in, stored
 * durably and answered 200; processing happens from the queue (server/webhooks/queue.ts).
 */
import { Hono, type Context } from 'hono';
import type { AppDeps } from '../deps';
import { ApiError } from '../errors';
import { parseExact } from '../json';
import { isValidWebhookHmacAny } from '../webhook-hmac';
import { rawBody } from '../request-headers';
import { isShopDomain } from '../auth';
import { InstalledShops } from '../store/shops';
import { webhookTopic } from '../webhooks/topics';
import type { WebhookQueue } from '../webhooks/queue';

/** Decodes whole bodies (no streaming state): one for every request. */
const UTF8 = new TextDecoder('utf-8');

/**
 * The verified delivery: shop domain, the body's text and its parse with exact ids. The HMAC is
 * checked on the body's bytes as received (current or previous secret), before anything decodes
 * them. Throws ApiError 401 `invalid_hmac`, 400 `missing_shop_domain` / `invalid_json`.
 */
async function verifiedDelivery(deps: AppDeps, c: Context): Promise<{ shopId: string; text: string; body: unknown }> {
  const raw = await rawBody(c);
  if (!isValidWebhookHmacAny(raw, c.req.header('X-Shopify-Hmac-Sha256'), [deps.auth.apiSecret, deps.auth.previousApiSecret])) {
    throw new ApiError(401, 'invalid_hmac', 'The webhook signature does not match');
  }
  const shopId = (c.req.header('X-Shopify-Shop-Domain') ?? '').trim().toLowerCase();
  if (!shopId) throw new ApiError(400, 'missing_shop_domain', 'The X-Shopify-Shop-Domain header is required');
  if (!isShopDomain(shopId)) throw new ApiError(400, 'invalid_shop_domain', 'X-Shopify-Shop-Domain must be a <name>.myshopify.com domain');
  // TextDecoder drops a leading byte-order mark; a byte that is not UTF-8 becomes U+FFFD inside a string.
  const text = UTF8.decode(raw);
  return { shopId, text, body: parseExact(text) };
}

/**
 * `POST /api/webhooks/<topic>` for every topic of server/webhooks/topics.ts. Answers
 * `{ data: { deliveryId, status: 'queued', duplicate } }` once the delivery is stored; 404
 * `unknown_topic` / `unknown_shop`, 400 with the field path for a body that cannot be processed.
 */
export function webhookRoutes(deps: AppDeps, queue: WebhookQueue, installed = new InstalledShops(deps.db)): Hono {
  const app = new Hono();
  // The check at the door needs no query for a busy shop (server/store/shops.ts).
  app.post('/webhooks/:topic{[a-z_]+/[a-z_]+}', async (c) => {
    const name = c.req.param('topic');
    const topic = webhookTopic(name);
    if (!topic) throw new ApiError(404, 'unknown_topic', `The app does not handle ${name} webhooks`);
    const { shopId, text, body } = await verifiedDelivery(deps, c);
    if (!(await installed.has(shopId))) throw new ApiError(404, 'unknown_shop', `The shop ${shopId} has not installed the app`);
    const { orderKey } = topic.prepare(body);
    const webhookId = c.req.header('X-Shopify-Webhook-Id')?.trim().slice(0, 255) || null;
    const { id, duplicate } = await queue.enqueue({ shopId, topic: name, webhookId, orderKey, body: text, parsed: body });
    queue.kick();
    return c.json({ data: { deliveryId: id, status: 'queued', duplicate } });
  });
  return app;
}
