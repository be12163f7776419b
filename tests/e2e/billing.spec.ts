/**
 * Plans and billing in Chromium against the real server in demo mode (issue 12): the merchant buys
 * a plan through the local billing adapter (its confirmation page is the app's own), it is
 * verified and activated; then downgrades through /downSell (a milestone program is reported
 * paused), and cancels back to the free plan. The session survives a new tab (cookie, spec 000
 * §9) and ends with sign-out; the plans page fits a 390 px phone under /embed.
 */
import { expect as baseExpect, test, type Page } from '@playwright/test';

// The shared 2-core machine can be slow to hand out the lazily loaded screens: wait longer than the default.
const expect = baseExpect.configure({ timeout: 30_000 });
test.describe.configure({ timeout: 240_000 });

async function signIn(page: Page): Promise<void> {
  await page.goto('/auth/login');
  await page.getByRole('button', { name: 'Sign in' }).click();
  await expect(page.getByRole('heading', { name: 'Programs', exact: true })).toBeVisible();
}

/** Approves the local test charge and waits for the verified activation. */
async function approveCharge(page: Page, plan: string): Promise<void> {
  await expect(page.getByText('Redirecting to Shopify')).toBeVisible();
  await expect(page.getByRole('heading', { name: 'Approve the test charge' })).toBeVisible();
  await page.getByRole('button', { name: 'Approve' }).click();
  await expect(page.getByText(`${plan} plan activated`).first()).toBeVisible();
}

test('a merchant buys a plan, downgrades it and cancels it', async ({ page, request }) => {
  await signIn(page);
  // A milestone program (an Advanced feature) on the demo shop's Advanced plan.
  const { token } = (await (await request.post('/auth/demo-login')).json()) as { token: string };
  const created = await request.post('/api/kinds/earning.milestone/docs', { headers: { Authorization: `Bearer ${token}` }, data: { data: { title: 'E2E milestones', status: true } } });
  expect(created.status()).toBe(201);

  // Buy Ultimate.
  await page.goto('/subscription');
  await expect(page.getByRole('heading', { name: 'Pricing plans' })).toBeVisible();
  const advanced = page.getByRole('listitem').filter({ has: page.getByRole('heading', { name: 'Advanced', exact: true }) });
  await expect(advanced.getByText('Current plan').first()).toBeVisible();
  await page.getByRole('button', { name: 'Choose Ultimate' }).click();
  await approveCharge(page, 'Ultimate');
  await page.getByRole('link', { name: 'Billing' }).last().click();
  await expect(page.getByRole('heading', { name: 'Billing', exact: true })).toBeVisible();
  await expect(page.getByText('$499 a month')).toBeVisible();
  await expect(page.getByText(/Free trial ends on/)).toBeVisible();

  // Downgrade to Essential through /downSell: the milestone program pauses.
  await page.goto('/subscription');
  await page.getByRole('button', { name: 'Downgrade to Essential', exact: true }).click();
  await expect(page).toHaveURL(/\/downSell\?plan=pro_3_2025/);
  await expect(page.getByRole('heading', { name: 'Before you downgrade' })).toBeVisible();
  await expect(page.getByText('1 program(s) will pause')).toBeVisible();
  await expect(page.getByText('E2E milestones')).toBeVisible();
  await page.getByRole('button', { name: 'Downgrade to Essential' }).click();
  await approveCharge(page, 'Essential');
  await expect(page.getByText('1 program(s) paused by your plan')).toBeVisible();

  // A link opened in a new tab stays signed in (the session cookie).
  const tab = await page.context().newPage();
  await tab.goto('/billing-dashboard');
  await expect(tab.getByRole('heading', { name: 'Billing', exact: true })).toBeVisible();
  await expect(tab.getByText('Essential', { exact: true }).first()).toBeVisible();
  const history = tab.getByRole('table', { name: 'Billing history' });
  await expect(history.getByRole('row')).toHaveCount(3);
  await expect(history.getByText('Replaced')).toBeVisible();

  // Cancel: back to the free plan.
  await tab.getByRole('link', { name: 'Cancel subscription' }).click();
  await expect(tab.getByRole('heading', { name: 'Before you cancel' })).toBeVisible();
  await tab.getByRole('button', { name: 'Cancel subscription' }).click();
  await expect(tab.getByText('Free Plan activated')).toBeVisible();
  await expect(tab.getByText('No paid subscription: the shop is on the free plan.')).toBeVisible();
  await expect(tab.getByText('Starter', { exact: true })).toBeVisible();
  const shop = (await (await request.get('/api/shops', { headers: { Authorization: `Bearer ${token}` } })).json()) as { shop: { plan: string } };
  expect(shop.shop.plan).toBe('free');

  // Sign-out ends the session in every tab.
  await tab.getByRole('button', { name: 'Sign out' }).click();
  await expect(tab).toHaveURL(/\/auth\/login/);
  const another = await page.context().newPage();
  await another.goto('/programs');
  await expect(another).toHaveURL(/\/auth\/login/);
  await expect(another.getByRole('button', { name: 'Sign in' })).toBeVisible();

  // Leave the shared demo shop as the other browser tests expect it: on Advanced again (an upgrade
  // from the free plan resumes the paused program), and without this test's program.
  await signIn(another);
  await another.goto('/subscription');
  await another.getByRole('button', { name: 'Choose Advanced', exact: true }).click();
  await approveCharge(another, 'Advanced');
  const restored = (await (await request.get('/api/shops', { headers: { Authorization: `Bearer ${token}` } })).json()) as { shop: { plan: string } };
  expect(restored.shop.plan).toBe('advanced_2025');
  const milestone = ((await created.json()) as { data: { id: string } }).data.id;
  expect((await request.delete(`/api/kinds/earning.milestone/docs/${milestone}`, { headers: { Authorization: `Bearer ${token}` } })).status()).toBe(200);
});

test('the plans page and the billing dashboard fit a phone under /embed', async ({ page }) => {
  await page.setViewportSize({ width: 390, height: 844 });
  await page.goto('/embed/auth/login');
  await page.getByRole('button', { name: 'Sign in' }).click();
  await expect(page.getByRole('heading', { name: 'Programs', exact: true })).toBeVisible();
  for (const path of ['/embed/subscription', '/embed/billing-dashboard', '/embed/customize_plan']) {
    await page.goto(path);
    await expect(page.getByRole('heading', { level: 1 })).toBeVisible();
    await expect(page.getByText("The page you're looking for couldn't be found")).toHaveCount(0);
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
  }
  await page.goto('/embed/subscription');
  await page.getByRole('tab', { name: 'Yearly' }).click();
  await expect(page.getByText('$5,988')).toBeVisible();
});

test('an offer is claimed from the plans page through the local billing adapter, and the onboarding call is booked', async ({ page, request }) => {
  await signIn(page);
  const { token } = (await (await request.post('/auth/demo-login')).json()) as { token: string };
  await page.goto('/settings/subscription/plans');
  const offers = page.locator('.card').filter({ has: page.getByRole('heading', { name: 'Offers' }) });
  // The demo shop is on Advanced: the sale is 20%_3M on Ultimate (PL10), and Advanced includes the onboarding call (PL14).
  await expect(offers.getByRole('heading', { name: '20% off Ultimate for 3 months' })).toBeVisible();
  await offers.getByLabel('Good times to call, or what to cover (optional)').fill('Mornings');
  await offers.getByRole('button', { name: 'Book the call' }).click();
  await expect(page.getByText('Onboarding call requested')).toBeVisible();
  await expect(offers.getByRole('button', { name: 'Send the request again' })).toBeVisible();

  await offers.getByRole('button', { name: 'Claim offer' }).click();
  await expect(page.getByText('Claim offer successfully')).toBeVisible();
  await expect(page.getByRole('heading', { name: 'Approve the test charge' })).toBeVisible();
  await expect(page.getByText('20% off for 3 months (20%_3M)')).toBeVisible();
  await page.getByRole('button', { name: 'Approve' }).click();
  await expect(page.getByText('Ultimate plan activated').first()).toBeVisible();
  const claimed = (await (await request.get('/api/subscription', { headers: { Authorization: `Bearer ${token}` } })).json()) as { data: { plan: string; subscription: { discountCode: string } } };
  expect(claimed.data).toMatchObject({ plan: 'enterprise_2025', subscription: { discountCode: '20%_3M' } });

  // Back on Advanced, as the other browser tests expect the demo shop.
  await page.goto('/subscription');
  await page.getByRole('button', { name: 'Downgrade to Advanced', exact: true }).click();
  await page.getByRole('button', { name: 'Downgrade to Advanced' }).click();
  await approveCharge(page, 'Advanced');
  const restored = (await (await request.get('/api/shops', { headers: { Authorization: `Bearer ${token}` } })).json()) as { shop: { plan: string } };
  expect(restored.shop.plan).toBe('advanced_2025');
});
