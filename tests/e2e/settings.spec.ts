/**
 * Settings, the developer zone and the embedded chrome in Debian's Chromium against the real server
 * in demo mode (issue 12): a settings section saves and survives a reload, the recommended apps
 * list reorders with the keyboard and keeps its order, `/embed` draws no chrome of its own, and
 * none of these screens scrolls sideways on a 390 px phone.
 */
import { expect, test, type Page } from '@playwright/test';
import { deliverOrder, idSeries } from './support/orders';

async function signIn(page: Page): Promise<void> {
  await page.goto('/auth/login');
  await page.getByRole('button', { name: 'Sign in' }).click();
  await expect(page.getByRole('heading', { name: 'Programs', exact: true })).toBeVisible();
}

/** Replaces the recommended apps with `titles`, in that order, through the API (the demo user is staff). */
async function seedApps(page: Page, titles: string[]): Promise<void> {
  await page.evaluate(async (names) => {
    const headers = { Authorization: `Bearer ${sessionStorage.getItem('loyalty.sessionToken')}`, 'Content-Type': 'application/json' };
    const list = (await (await fetch('/api/recommended-apps', { headers })).json()) as { data: { id: string }[] };
    for (const app of list.data) await fetch(`/api/recommended-apps/${app.id}`, { method: 'DELETE', headers });
    for (const title of names) {
      const body = { title, description: `${title} helps your shop.`, img: 'https://cdn.example.com/logo.png', appStoreUrl: `https://apps.example.com/${encodeURIComponent(title)}`, type: 'appInstall', isActive: true };
      await fetch('/api/recommended-apps', { method: 'POST', headers, body: JSON.stringify(body) });
    }
  }, titles);
}

const rowTitles = (page: Page) => page.getByTestId('recommended-app').locator('.devzone-apps__title').allInnerTexts();

async function noSidewaysScroll(page: Page): Promise<number> {
  return page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);
}

test('a settings section saves and reads back after a reload', async ({ page }) => {
  await signIn(page);
  await page.goto('/settings');
  await expect(page.getByRole('heading', { name: 'Settings', level: 1 })).toBeVisible();
  const order = page.locator('#settings-order');
  const rate = order.getByLabel('Points exchange rate');
  await expect(rate).toHaveValue('1');
  await rate.fill('0');
  await order.getByRole('button', { name: 'Save Order' }).click();
  await expect(page.getByText('Error saving exchange rate')).toBeVisible();
  await expect(order.getByText('Must be greater than 0')).toBeVisible();

  await rate.fill('2.5');
  await order.getByRole('button', { name: 'Save Order' }).click();
  await expect(page.getByText('Settings saved')).toBeVisible();
  const general = page.locator('#settings-general');
  await general.getByLabel('Plural').fill('stars');
  await general.getByRole('button', { name: 'Save General' }).click();
  await expect(general.getByRole('button', { name: 'Save General' })).toBeDisabled();

  await page.reload();
  await expect(page.locator('#settings-order').getByLabel('Points exchange rate')).toHaveValue('2.5');
  await expect(page.locator('#settings-general').getByLabel('Plural')).toHaveValue('stars');

  // Put the shared demo shop back as the other browser tests expect it (rate 1, "points").
  await page.locator('#settings-order').getByLabel('Points exchange rate').fill('1');
  await page.locator('#settings-order').getByRole('button', { name: 'Save Order' }).click();
  await expect(page.locator('#settings-order').getByRole('button', { name: 'Save Order' })).toBeDisabled();
  await page.locator('#settings-general').getByLabel('Plural').fill('points');
  await page.locator('#settings-general').getByRole('button', { name: 'Save General' }).click();
  await expect(page.locator('#settings-general').getByRole('button', { name: 'Save General' })).toBeDisabled();
});

test('going from sandbox to live asks first', async ({ page }) => {
  await signIn(page);
  await page.goto('/settings');
  const prelaunch = page.locator('#settings-prelaunch');
  await prelaunch.getByLabel('Sandbox: only customers on the test list earn points').check();
  await prelaunch.getByRole('button', { name: 'Save Pre-launch' }).click();
  await expect(page.getByText('Settings saved')).toBeVisible();
  await prelaunch.getByLabel('Live: all customers earn points').check();
  await prelaunch.getByRole('button', { name: 'Save Pre-launch' }).click();
  const dialog = page.getByRole('dialog', { name: 'Switch to live mode?' });
  await expect(dialog).toBeVisible();
  await dialog.getByRole('button', { name: 'Go live' }).click();
  await expect(dialog).toBeHidden();
  await page.reload();
  await expect(page.locator('#settings-prelaunch').getByLabel('Live: all customers earn points')).toBeChecked();
});

test('the recommended apps list reorders with the keyboard and keeps the order', async ({ page }) => {
  await signIn(page);
  await seedApps(page, ['Alpha', 'Bravo', 'Charlie']);
  await page.goto('/dev_zone/recommended_apps_manager');
  await expect(page.getByRole('heading', { name: 'Recommended Apps Manager' })).toBeVisible();
  await expect.poll(() => rowTitles(page)).toEqual(['Alpha', 'Bravo', 'Charlie']);

  const handle = page.getByRole('button', { name: 'Move Alpha (position 1)' });
  await handle.focus();
  // dnd-kit measures between steps: each key waits for the previous step's announcement.
  const live = page.getByRole('status');
  await page.keyboard.press('Space');
  await expect(live.filter({ hasText: /Picked up item 1\.|Item 1 is over position 1\./ })).toHaveCount(1);
  // On a loaded machine the first arrow can land before the sensor has measured the list (the
  // item stays over position 1): press again only while it has not moved, never past position 2.
  const overSecond = live.filter({ hasText: 'Item 1 is over position 2.' });
  await expect(async () => {
    if ((await overSecond.count()) === 0) await page.keyboard.press('ArrowDown');
    await expect(overSecond).toHaveCount(1, { timeout: 2_000 });
  }).toPass({ timeout: 15_000 });
  await page.keyboard.press('Space');
  await expect(page.getByText('Priority updated successfully')).toBeVisible();
  await expect.poll(() => rowTitles(page)).toEqual(['Bravo', 'Alpha', 'Charlie']);

  await page.reload();
  await expect.poll(() => rowTitles(page)).toEqual(['Bravo', 'Alpha', 'Charlie']);
  // The dashboard shows them in the same order.
  await page.goto('/');
  await expect(page.getByRole('heading', { name: 'Dashboard', level: 1 })).toBeVisible();
  await expect.poll(() => page.locator('.recommended-apps__item .devzone-apps__title').allInnerTexts()).toEqual(['Bravo', 'Alpha', 'Charlie']);
});

test('the empty recommended apps list says how to add one', async ({ page }) => {
  await signIn(page);
  await seedApps(page, []);
  await page.goto('/dev_zone/recommended_apps_manager');
  await expect(page.getByText('No apps found. Click "Create New App" to add recommended apps.')).toBeVisible();
});

test('under /embed the app draws no top bar or side navigation and hands the admin a ui-nav-menu', async ({ page }) => {
  await signIn(page);
  await page.goto('/embed/settings?shop=demo-shop.myshopify.com');
  await expect(page.getByRole('heading', { name: 'Settings', level: 1 })).toBeVisible();
  await expect(page.locator('header.topbar')).toHaveCount(0);
  await expect(page.getByRole('navigation', { name: 'Main' })).toHaveCount(0);
  await expect(page.locator('ui-nav-menu a[rel="home"]')).toHaveAttribute('href', '/embed');
  await expect(page.locator('ui-nav-menu')).toBeHidden();
  // `/` is the dashboard, embedded as standalone.
  await page.goto('/embed?shop=demo-shop.myshopify.com');
  await expect(page.getByRole('heading', { name: 'Dashboard', level: 1 })).toBeVisible();
});

test('settings and the dev zone fit a 390 px phone without sideways scrolling', async ({ page }) => {
  await page.setViewportSize({ width: 390, height: 844 });
  await signIn(page);
  await seedApps(page, ['A very long recommended application name that has to wrap somewhere', 'Bravo']);
  for (const path of ['/settings', '/embed/settings?shop=demo-shop.myshopify.com', '/dev_zone', '/dev_zone/recommended_apps_manager', '/embed/dev_zone/recommended_apps_manager?shop=demo-shop.myshopify.com']) {
    await page.goto(path);
    await expect(page.locator('h1').first()).toBeVisible();
    if (path.includes('recommended_apps_manager')) await expect(page.getByTestId('recommended-app')).toHaveCount(2);
    expect(await noSidewaysScroll(page), path).toBeLessThanOrEqual(0);
  }
});

test('webhook deliveries: an order is listed, storefront visits only when asked for, on a phone and embedded', async ({ page, request }) => {
  const ids = idSeries(6);
  const customer = { id: ids.customer(1), email: `deliveries-${ids.run}@example.com`, firstName: 'Dee', lastName: 'Livery' };
  await deliverOrder(request, { id: ids.order(1), lineItemId: ids.lineItem(1), name: `#D${ids.run}`, price: '42.00', customer });
  // A signed-in shopper's page view, through the demo's app proxy: queued as the app's own topic.
  const ping = await request.post(`/apps/loyalty/visit?loyalty_demo_customer=${customer.id}`, { headers: { 'Idempotency-Key': `deliveries-${ids.run}` } });
  expect(ping.status()).toBe(202);
  await signIn(page);
  await page.goto('/settings/webhooks');
  const table = page.getByRole('table', { name: 'Webhook deliveries' });
  await expect(table.getByRole('row').filter({ hasText: ids.order(1) })).toBeVisible();
  await expect(table.getByText('Storefront visit')).toHaveCount(0);
  await page.getByRole('checkbox', { name: /Include storefront visits/ }).check();
  await expect(page).toHaveURL(/source=all/);
  await expect(table.getByText('Storefront visit').first()).toBeVisible();
  // The choice survives a reload (it is in the address).
  await page.reload();
  await expect(page.getByRole('checkbox', { name: /Include storefront visits/ })).toBeChecked();
  for (const path of ['/settings/webhooks?source=all', '/embed/settings/webhooks?shop=demo-shop.myshopify.com&source=all']) {
    await page.setViewportSize({ width: 390, height: 844 });
    await page.goto(path);
    await expect(page.getByRole('table', { name: 'Webhook deliveries' }).getByText('Storefront visit').first()).toBeVisible();
    expect(await noSidewaysScroll(page), path).toBeLessThanOrEqual(0);
    if (path.startsWith('/embed')) await expect(page.locator('header.topbar')).toHaveCount(0);
  }
});
