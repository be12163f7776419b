/**
 * Redemption in Chromium against the real server in demo mode (issue 11): a shopper redeems a
 * reward through the local app proxy, the merchant sees the coupon on the customer's profile,
 * revokes it with a note after confirmation and sees the points come back; the card fits a
 * 390 px phone.
 */
import { expect, test, type APIRequestContext, type Page } from '@playwright/test';
import { deliverOrder as deliverSignedOrder, idSeries } from './support/orders';

const ids = idSeries(3);
const run = ids.run;
const CUSTOMER = ids.customer(1);

/** A customer arrives with an order webhook, as the platform would send it. */
async function deliverOrder(request: APIRequestContext): Promise<void> {
  await deliverSignedOrder(request, { id: ids.order(1), lineItemId: ids.lineItem(1), name: '#R1', price: '100.00', customer: { id: CUSTOMER, email: `redeem.${run}@example.com`, firstName: 'Rita', lastName: 'Redeemer' } });
}

async function signIn(page: Page): Promise<void> {
  await page.goto('/auth/login');
  await page.getByRole('button', { name: 'Sign in' }).click();
  await expect(page).not.toHaveURL(/\/auth\/login/, { timeout: 30_000 });
}

test('a shopper redeems a reward and the merchant revokes the coupon with a note', async ({ page, request }) => {
  // The webhook processing thread starts (and compiles) on its first delivery: allow it time.
  test.setTimeout(120_000);
  await deliverOrder(request);
  const { token } = (await (await request.post('/auth/demo-login')).json()) as { token: string };
  const auth = { Authorization: `Bearer ${token}`, 'Content-Type': 'application/json' };
  // The order is processed from the queue: wait for the customer, then give them 1,000 points.
  await expect(async () => {
    const res = await request.post(`/api/customers/${CUSTOMER}/adjust`, { headers: auth, data: { points: 1000, adminNote: 'e2e' } });
    expect(`${res.status()} ${await res.text()}`).toMatch(/^200 /);
  }).toPass({ timeout: 60_000 });
  const created = await request.post('/api/kinds/redeem.amount_discount/docs', {
    headers: auth,
    data: {
      data: {
        title: '$5 off',
        status: true,
        redeemPoint: 500,
        discountAmount: 5,
        coupon: { couponExpiry: 'permanent', purchaseType: 'one_time_purchase', salesChannel: 'online_store', prefix: 'E2E', minimumPurchase: 0 },
        customerAvailability: 'all',
        availableTiers: [],
        combinations: { orderDiscounts: false, productDiscounts: false, shippingDiscounts: false },
        automaticDiscount: false,
        appliesTo: 'entire_order',
        productIds: [],
        collectionIds: [],
      },
    },
  });
  expect(created.status()).toBe(201);
  const rewardId = ((await created.json()) as { data: { id: string } }).data.id;
  const redeemed = await request.post(`/apps/loyalty/redeem?loyalty_demo_customer=${CUSTOMER}`, { headers: { 'Content-Type': 'application/json', 'Idempotency-Key': `e2e-${run}` }, data: { rewardId } });
  expect(redeemed.status()).toBe(200);
  const { coupon, points } = ((await redeemed.json()) as { data: { coupon: { code: string }; points: number } }).data;
  expect(coupon.code).toMatch(/^E2E-[A-Z2-9]{10}$/);
  const before = points;

  await signIn(page);
  await page.setViewportSize({ width: 390, height: 844 });
  await page.goto(`/customers/profile/${CUSTOMER}`);
  const card = page.locator('.card', { has: page.getByRole('heading', { name: 'Coupons' }) });
  await expect(card.getByText(coupon.code)).toBeVisible();
  await expect(card.getByText('Available')).toBeVisible();
  expect(await page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth)).toBe(true);

  await card.getByRole('button', { name: 'Revoke' }).click();
  const dialog = page.getByRole('dialog', { name: `Revoke coupon ${coupon.code}?` });
  await dialog.getByLabel('Admin note (required)').fill('Asked by the shopper');
  await dialog.getByRole('button', { name: 'Revoke' }).click();
  await expect(card.getByText('Revoked', { exact: true })).toBeVisible();
  await expect(card.getByText(/Asked by the shopper/)).toBeVisible();
  const after = (await (await request.get(`/api/customers/${CUSTOMER}`, { headers: auth })).json()) as { data: { points: number } };
  expect(after.data.points).toBe(before + 500);
});
