/**
 * Orders delivered to the app the way the platform delivers them (signed `orders/create` webhooks to
 * the demo shop), for the browser tests that need customers with points. Ids are unique per spec
 * file and run: each file names its own `series` (1–99), so two files never make the same order or
 * customer, even within one millisecond.
 */
import { createHmac } from 'node:crypto';
import { expect, type APIRequestContext } from '@playwright/test';

/** The demo mode's app secret (server/config.ts DEMO): it signs webhooks when no secret is set. */
export const DEMO_SECRET = 'demo-api-secret-do-not-use-in-production';
/** The shop demo mode signs in as. */
export const DEMO_SHOP = 'demo-shop.myshopify.com';

/** Posts a webhook `body` for `topic` signed as the platform signs it; expects it stored (200). */
export async function postSignedWebhook(request: APIRequestContext, topic: string, body: string): Promise<void> {
  const res = await request.post(`/api/webhooks/${topic}`, {
    headers: { 'Content-Type': 'application/json', 'X-Shopify-Shop-Domain': DEMO_SHOP, 'X-Shopify-Hmac-Sha256': createHmac('sha256', DEMO_SECRET).update(body).digest('base64') },
    data: body,
  });
  expect(res.status(), `POST /api/webhooks/${topic}`).toBe(200);
}

/** The customer of an order. */
export interface OrderCustomer {
  id: string;
  email: string;
  firstName: string;
  lastName: string;
}

/** An order to deliver: one line item of `price` (major units, USD). */
export interface OrderSpec {
  id: string;
  lineItemId: string;
  name: string;
  price: string;
  customer: OrderCustomer;
  /** When it was placed (now). */
  createdAt?: Date;
}

/** Delivers `order` as a signed, paid `orders/create` webhook; expects it stored (200). */
export async function deliverOrder(request: APIRequestContext, order: OrderSpec): Promise<void> {
  const body = JSON.stringify({
    id: order.id,
    name: order.name,
    currency: 'USD',
    created_at: (order.createdAt ?? new Date()).toISOString(),
    financial_status: 'paid',
    line_items: [{ id: order.lineItemId, product_id: 1, title: 'Board', price: order.price, quantity: 1 }],
    customer: { id: order.customer.id, email: order.customer.email, first_name: order.customer.firstName, last_name: order.customer.lastName },
  });
  await postSignedWebhook(request, 'orders/create', body);
}

/**
 * Platform ids unique to one spec file's `series` (1–99) and this run: `customer(n)`, `order(n)` and
 * `lineItem(n)` for n up to 9,999, as the platform's 19-digit ids.
 */
export function idSeries(series: number): { customer: (n: number) => string; order: (n: number) => string; lineItem: (n: number) => string; run: number } {
  if (!Number.isInteger(series) || series < 1 || series > 99) throw new Error(`idSeries: series ${series} is not 1–99`);
  const run = Date.now() % 100_000_000;
  const id = (base: bigint) => (n: number) => `${base + BigInt(series) * 10n ** 12n + BigInt(run) * 10_000n + BigInt(n)}`;
  return { customer: id(6_300_000_000_000_000_000n), order: id(8_000_000_000_000_000_000n), lineItem: id(9_000_000_000_000_000_000n), run };
}
