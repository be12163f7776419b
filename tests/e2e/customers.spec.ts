/**
 * Customers in Chromium against the real server in demo mode (issue 10): orders arrive as signed
 * webhooks, the customers appear in the list; the merchant searches, sorts, opens a profile,
 * adjusts points and sees the balance and the activity change, excludes the customer and lets
 * them join again; the list fits a 390 px phone.
 */
import { createHmac } from 'node:crypto';
import { expect, test, type APIRequestContext, type Page } from '@playwright/test';

const SECRET = 'demo-api-secret-do-not-use-in-production';
const SHOP = 'demo-shop.myshopify.com';
const run = Date.now() % 1_000_000_000;

/** Delivers an order webhook as the platform would, for a customer unique to this run. */
async function deliverOrder(request: APIRequestContext, n: number, price: string): Promise<string> {
  const email = `e2e.${run}.${n}@example.com`;
  const body = JSON.stringify({
    id: `${8000000000000000000n + BigInt(run) * 100n + BigInt(n)}`,
    name: `#E2E${n}`,
    currency: 'USD',
    created_at: new Date().toISOString(),
    financial_status: 'paid',
    line_items: [{ id: `${9100000000000000000n + BigInt(run) * 100n + BigInt(n)}`, product_id: 1, title: 'Board', price, quantity: 1 }],
    customer: { id: `${6300000000000000000n + BigInt(run) * 100n + BigInt(n)}`, email, first_name: 'Runner', last_name: `E2e${n}` },
  });
  const res = await request.post('/api/webhooks/orders/create', {
    headers: { 'Content-Type': 'application/json', 'X-Shopify-Shop-Domain': SHOP, 'X-Shopify-Hmac-Sha256': createHmac('sha256', SECRET).update(body).digest('base64') },
    data: body,
  });
  expect(res.status()).toBe(200);
  return email;
}

async function signIn(page: Page): Promise<void> {
  await page.goto('/auth/login');
  await page.getByRole('button', { name: 'Sign in' }).click();
  await expect(page.getByRole('heading', { name: 'Programs', exact: true })).toBeVisible();
}

test('a merchant finds a customer, adjusts their points and excludes and readmits them', async ({ page, request }) => {
  const emails = [await deliverOrder(request, 1, '120.00'), await deliverOrder(request, 2, '480.00')];
  await signIn(page);
  await page.getByRole('link', { name: 'Customers' }).click();
  await expect(page.getByRole('heading', { name: 'Customers', exact: true })).toBeVisible();

  // Processing is queued: search until the customer has arrived.
  await expect(async () => {
    await page.getByRole('searchbox', { name: 'Search customers' }).fill(emails[1]!);
    await page.getByRole('button', { name: 'Search' }).click();
    await expect(page.getByRole('link', { name: 'Runner E2e2' })).toBeVisible({ timeout: 1000 });
  }).toPass({ timeout: 15_000 });
  await page.getByRole('searchbox', { name: 'Search customers' }).fill('');
  await page.getByRole('button', { name: 'Search' }).click();
  await page.getByLabel('Sort by').selectOption('points_asc');
  await expect(page).toHaveURL(/sort=points_asc/);

  await page.getByRole('searchbox', { name: 'Search customers' }).fill(emails[1]!);
  await page.getByRole('button', { name: 'Search' }).click();
  await page.getByRole('link', { name: 'Runner E2e2' }).click();
  await expect(page.getByRole('heading', { name: 'Runner E2e2' })).toBeVisible();
  const available = page.locator('.stat-grid__item', { hasText: 'Available points' });
  const before = Number((await available.locator('dd').innerText()).replace(/\D/g, ''));
  await expect(page.getByText(/Place an order: \d+ points = \$480\.00 ÷/)).toBeVisible();

  await page.getByRole('button', { name: 'Adjust points' }).click();
  await page.getByLabel('Points', { exact: true }).fill(String(-(before + 1)));
  await page.getByRole('button', { name: 'Save adjustment' }).click();
  await expect(page.getByText(`At most ${before} points can be subtracted`)).toBeVisible();
  await page.getByLabel('Points', { exact: true }).fill('100');
  await page.getByLabel('Admin note').fill('Missed campaign bonus');
  await page.getByRole('button', { name: 'Save adjustment' }).click();
  await expect(page.getByText('Points adjusted')).toBeVisible();
  await expect(available.locator('dd')).toHaveText((before + 100).toLocaleString('en-US'));
  await expect(page.getByText('Adjusted by staff: Missed campaign bonus')).toBeVisible();

  await page.getByRole('button', { name: 'Exclude from program' }).click();
  await page.getByRole('dialog').getByLabel('Note (optional)').fill('Chargeback');
  await page.getByRole('dialog').getByRole('button', { name: 'Exclude from program' }).click();
  await expect(page.getByText('Left Program')).toBeVisible();
  await expect(page.getByText('Excluded from the program — Chargeback')).toBeVisible();
  await page.getByRole('button', { name: 'Let join again' }).click();
  await page.getByRole('dialog').getByRole('button', { name: 'Let join again' }).click();
  await expect(page.getByText('Joined the program again')).toBeVisible();
});

test('the customers list fits a phone without sideways scrolling', async ({ page }) => {
  await page.setViewportSize({ width: 390, height: 844 });
  await signIn(page);
  await page.goto('/customers');
  await expect(page.getByRole('heading', { name: 'Customers', exact: true })).toBeVisible();
  expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
});
