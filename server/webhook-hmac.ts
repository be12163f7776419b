/**
 * Webhook authenticity: `X-Shopify-Hmac-Sha256` is the base64 HMAC-SHA256 of the raw request body
 * keyed with the app secret. Compared in constant time.
 */
import { createHmac, timingSafeEqual } from 'node:crypto';

/** The header value the platform would send for `rawBody`. */
export function webhookHmac(rawBody: string | Uint8Array, secret: string): string {
  return createHmac('sha256', secret).update(rawBody).digest('base64');
}

/**
 * True when `header` is the HMAC of `rawBody` under any of `secrets` (the current one and, during a
 * rotation, the previous one). Pass the body's bytes as received: decoding it first would change a
 * body with a byte-order mark or a byte that is not UTF-8, and the platform signed the bytes.
 */
export function isValidWebhookHmacAny(rawBody: Uint8Array, header: string | undefined, secrets: readonly (string | undefined)[]): boolean {
  return secrets.some((secret) => secret !== undefined && secret !== '' && isValidWebhookHmac(rawBody, header, secret));
}

/** True when `header` is the HMAC of `rawBody` under `secret`. */
export function isValidWebhookHmac(rawBody: string | Uint8Array, header: string | undefined, secret: string): boolean {
  if (!header) return false;
  const expected = Buffer.from(webhookHmac(rawBody, secret), 'base64');
  const given = Buffer.from(header, 'base64');
  return given.length === expected.length && timingSafeEqual(given, expected);
}
