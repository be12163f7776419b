/**
 * The storefront widget in Chromium (issue 13): a plain page embeds it the way a theme does
 * (`/demo-store`, whose script tag loads `/widget/loader.js`), against the running server in demo
 * mode, whose local app proxy signs `/apps/loyalty/*` like the platform. A shopper who earned points
 * from a real order webhook sees the balance, the ways to earn and the rewards; the panel works by
 * keyboard; French texts follow the page's language; the bundle stays within its budget.
 */
import { gzipSync } from 'node:zlib';
import { expect, test, type APIRequestContext, type BrowserContext, type Page } from '@playwright/test';
import { deliverOrder as deliverSignedOrder, idSeries } from './support/orders';

const ids = idSeries(5);
const run = ids.run;

/**
 * A shopper unique to this run who placed one $250 order (the demo's place-order program: 10 points
 * per $100, so 20 points; other demo programs, e.g. a sign-up reward, may add theirs). Resolves with
 * the customer id and the balance the storefront API reports once the order was processed.
 */
async function shopperWithOrder(request: APIRequestContext, n: number): Promise<{ customerId: string; points: number }> {
  const customerId = ids.customer(n);
  await deliverSignedOrder(request, { id: ids.order(n), lineItemId: ids.lineItem(n), name: `#W${n}`, price: '250.00', customer: { id: customerId, email: `widget.${run}.${n}@example.com`, firstName: 'Wren', lastName: `W${n}` } });
  // The delivery is processed from the queue: wait until the storefront API shows the order's points.
  const balance = async () => ((await (await request.get(`/apps/loyalty/customer?loyalty_demo_customer=${customerId}`)).json()) as { data: { points: number } | null }).data?.points ?? 0;
  await expect.poll(balance, { timeout: 15_000 }).toBeGreaterThanOrEqual(20);
  return { customerId, points: await balance() };
}

async function asShopper(context: BrowserContext, customerId: string): Promise<void> {
  await context.addCookies([{ name: 'loyalty_demo_customer', value: customerId, url: test.info().project.use.baseURL ?? 'http://localhost' }]);
}

/** The widget's shadow root content, through Playwright's shadow-piercing locators. */
const widget = (page: Page) => page.locator('#loyalty-widget');

test('the launcher opens the panel with the shopper balance, ways to earn and rewards', async ({ page, context, request }) => {
  const { customerId, points } = await shopperWithOrder(request, 1);
  // The point label is a shop setting (another browser test may have changed it) and the demo's
  // earning programs may change too: read both from the storefront API the widget reads.
  const config = (await (await request.get('/apps/loyalty/widget')).json()) as { data: { shop: { pointLabel: { plural: string } } } };
  const earning = (await (await request.get(`/apps/loyalty/ways-to-earn?loyalty_demo_customer=${customerId}`)).json()) as { data: { title: string }[] };
  expect(earning.data.length).toBeGreaterThan(0);
  await asShopper(context, customerId);
  await page.goto('/demo-store');
  const launcher = widget(page).getByRole('button', { name: 'Rewards' });
  await expect(launcher).toBeVisible();
  await launcher.click();
  const panel = widget(page).getByRole('dialog', { name: 'Rewards' });
  await expect(panel).toBeVisible();
  await expect(panel.getByText('Hi Wren')).toBeVisible();
  await expect(panel.getByTestId('balance')).toHaveText(`${points} ${config.data.shop.pointLabel.plural}`);
  await expect(panel.locator('[data-block="earn"]')).toContainText(earning.data[0]!.title);
  await expect(panel.locator('[data-block="redeem"]')).toBeVisible();
  await expect(panel.locator('[data-block="history"]')).toContainText('Earned for order #W1');
});

test('the panel is reachable and closable by keyboard, keeps focus inside and fits a phone', async ({ page, context, request }) => {
  await page.setViewportSize({ width: 390, height: 844 });
  const { customerId } = await shopperWithOrder(request, 2);
  await asShopper(context, customerId);
  await page.goto('/demo-store');
  const launcher = widget(page).getByRole('button', { name: 'Rewards' });
  await launcher.focus();
  await page.keyboard.press('Enter');
  const panel = widget(page).getByRole('dialog', { name: 'Rewards' });
  await expect(panel).toBeVisible();
  await expect(panel.getByRole('button', { name: 'Close' })).toBeFocused();
  // Shift+Tab from the first control wraps to the last one inside the panel, not out to the page.
  await page.keyboard.press('Shift+Tab');
  const inside = await widget(page).evaluate((host) => host.shadowRoot?.activeElement?.closest('.panel') !== null);
  expect(inside).toBe(true);
  const box = await panel.boundingBox();
  expect(box).not.toBeNull();
  expect(box!.x).toBeGreaterThanOrEqual(0);
  expect(box!.x + box!.width).toBeLessThanOrEqual(390);
  expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
  await page.keyboard.press('Escape');
  await expect(panel).toBeHidden();
  await expect(launcher).toBeFocused();
});

test('a guest sees the sign-up prompt, in French when the page is French', async ({ page }) => {
  await page.goto('/demo-store?lang=fr');
  await widget(page).getByRole('button', { name: 'Récompenses' }).click();
  const panel = widget(page).getByRole('dialog', { name: 'Récompenses' });
  await expect(panel.getByText('Rejoignez notre programme de fidélité')).toBeVisible();
  await expect(panel.getByRole('link', { name: "S'inscrire" })).toBeVisible();
  await expect(panel.locator('[data-block="history"]')).toHaveCount(0);
});

test('the widget bundle is served with immutable caching and stays within 60 KB compressed', async ({ request }) => {
  const loader = await request.get('/widget/loader.js');
  expect(loader.status()).toBe(200);
  expect(loader.headers()['cache-control']).toContain('max-age=300');
  const src = /"(\/widget\/loyalty-widget\.[0-9a-f]{12}\.js)"/.exec(await loader.text())?.[1];
  expect(src).toBeDefined();
  const bundle = await request.get(src!);
  expect(bundle.status()).toBe(200);
  expect(bundle.headers()['cache-control']).toContain('immutable');
  const compressed = gzipSync(await bundle.body(), { level: 9 }).length;
  console.log(`widget bundle: ${(await bundle.body()).length} bytes, ${compressed} bytes gzip`);
  expect(compressed).toBeLessThanOrEqual(60 * 1024);
});

test('the admin preview follows each keystroke unsaved; saved design reaches the storefront and advanced CSS stays inside the widget', async ({ page, browser }) => {
  await page.goto('/auth/login');
  await page.getByRole('button', { name: 'Sign in' }).click();
  await page.waitForURL((url) => !url.pathname.startsWith('/auth'));
  await page.goto('/storefront');
  await expect(page.getByRole('heading', { name: 'Widget design' })).toBeVisible();
  const preview = page.frameLocator('iframe[title="The rewards widget as shoppers see it"]');
  const previewLauncher = preview.locator('#loyalty-widget').getByRole('button', { name: 'Rewards' });
  await expect(previewLauncher).toBeVisible();

  // Unsaved: the preview changes as the merchant edits.
  await page.locator('#root_colors_button').fill('#cc0000');
  await expect(previewLauncher).toHaveCSS('background-color', 'rgb(204, 0, 0)');
  await page.locator('#root_borderRadius').fill('4');
  await page.locator('#root_advancedCss').fill('body { display: none } html { background: black } .launcher { outline: 5px solid rgb(0, 128, 0) }');
  await expect(previewLauncher).toHaveCSS('outline-color', 'rgb(0, 128, 0)');

  // The shop's storefront still has the saved (default) design until Save.
  const shopper = await browser.newPage();
  await shopper.goto('/demo-store');
  await expect(shopper.locator('#loyalty-widget').getByRole('button', { name: 'Rewards' })).toHaveCSS('background-color', 'rgb(61, 78, 194)');

  // A slow save (a loaded server): the button stays named "Save" and busy until the answer is in,
  // so "hidden" below means saved, not merely started.
  await page.route('**/api/kinds/storefront.widget_design/docs**', async (route) => {
    if (route.request().method() !== 'GET') await new Promise((resolve) => setTimeout(resolve, 1500));
    await route.continue();
  });
  await page.getByRole('button', { name: 'Save' }).click();
  await expect(page.getByRole('button', { name: 'Save' })).toHaveAttribute('aria-busy', 'true');
  await expect(page.getByRole('button', { name: 'Save' })).toBeHidden();

  await shopper.reload();
  const launcher = shopper.locator('#loyalty-widget').getByRole('button', { name: 'Rewards' });
  await expect(launcher).toHaveCSS('background-color', 'rgb(204, 0, 0)');
  await expect(launcher).toHaveCSS('outline-color', 'rgb(0, 128, 0)');
  await launcher.click();
  await expect(shopper.locator('#loyalty-widget').getByRole('dialog')).toHaveCSS('border-radius', '4px');
  // The advanced CSS named the page's body and html: neither changed.
  expect(await shopper.evaluate(() => getComputedStyle(document.body).display)).toBe('block');
  expect(await shopper.evaluate(() => getComputedStyle(document.documentElement).backgroundColor)).not.toBe('rgb(0, 0, 0)');
  await expect(shopper.getByRole('heading', { name: 'Demo store' })).toBeVisible();
  await shopper.close();
});
