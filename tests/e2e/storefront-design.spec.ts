/**
 * The storefront design and branding in Chromium (issue 13; spec 000 §2, spec 001 §2, §6), against
 * the running server in demo mode: content blocks reordered by keyboard drag and drop in the admin
 * reach the shop's widget after a reload; a storefront page (FAQs) shows in the live preview as it
 * is typed and in the widget once saved; a free-plan shop is refused advanced CSS with the plan
 * that unlocks it. Every test puts back what it changed in the shared demo shop.
 */
import { expect as baseExpect, test, type APIRequestContext, type Page } from '@playwright/test';

const expect = baseExpect.configure({ timeout: 20_000 });
test.describe.configure({ timeout: 180_000 });

const DESIGN = 'storefront.widget_design';
const run = Date.now() % 1_000_000_000;

async function bearer(request: APIRequestContext): Promise<Record<string, string>> {
  const { token } = (await (await request.post('/auth/demo-login')).json()) as { token: string };
  return { Authorization: `Bearer ${token}` };
}

interface Doc {
  id: string;
  version: number;
  data: Record<string, unknown>;
}

/** The shop's one document of a singleton kind, or null. */
async function singleton(request: APIRequestContext, kind: string): Promise<Doc | null> {
  const res = await request.get(`/api/kinds/${kind}/docs`, { headers: await bearer(request) });
  return ((await res.json()) as { data: Doc[] }).data[0] ?? null;
}

/** Puts a singleton back as it was: its old data, or no document at all. */
async function restore(request: APIRequestContext, kind: string, before: Doc | null): Promise<void> {
  const headers = await bearer(request);
  const now = await singleton(request, kind);
  if (!now) return;
  if (!before) {
    expect((await request.delete(`/api/kinds/${kind}/docs/${now.id}`, { headers })).status()).toBe(200);
    return;
  }
  const res = await request.put(`/api/kinds/${kind}/docs/${now.id}`, { headers, data: { data: before.data, version: now.version } });
  expect(res.status()).toBe(200);
}

async function signIn(page: Page): Promise<void> {
  await page.goto('/auth/login');
  await page.getByRole('button', { name: 'Sign in' }).click();
  await page.waitForURL((url) => !url.pathname.startsWith('/auth'));
}

/** Buys `plan` through the plans page and the local billing adapter's approval page (as billing.spec.ts does). */
async function buy(page: Page, plan: string): Promise<void> {
  await page.goto('/subscription');
  await expect(page.getByRole('heading', { name: 'Pricing plans' })).toBeVisible();
  await page.getByRole('button', { name: `Choose ${plan}`, exact: true }).click();
  await expect(page.getByRole('heading', { name: 'Approve the test charge' })).toBeVisible();
  await page.getByRole('button', { name: 'Approve' }).click();
  await expect(page.getByText(`${plan} plan activated`).first()).toBeVisible();
}

/** The `data-block` ids of the shop's widget panel, in display order, as a guest sees them. */
async function widgetBlocks(page: Page): Promise<string[]> {
  await page.goto('/demo-store');
  await page.locator('#loyalty-widget').getByRole('button', { name: 'Rewards' }).click();
  const panel = page.locator('#loyalty-widget').getByRole('dialog');
  await expect(panel.locator('[data-block]').first()).toBeVisible();
  return panel.locator('[data-block]').evaluateAll((els) => els.map((el) => el.getAttribute('data-block') ?? ''));
}

test('content blocks reordered by keyboard drag and drop in the admin show in that order in the widget after reload', async ({ page, browser, request }) => {
  const before = await singleton(request, DESIGN);
  try {
    // Start from the default block order (whatever another test saved), keeping the rest of the design.
    const headers = await bearer(request);
    const blocks = ['welcome', 'earn', 'redeem', 'coupons', 'history', 'tiers', 'referral'].map((id) => ({ id, visible: true, items: id === 'history' ? 5 : 10 }));
    const start = before
      ? await request.put(`/api/kinds/${DESIGN}/docs/${before.id}`, { headers, data: { data: { ...before.data, blocks }, version: before.version } })
      : await request.post(`/api/kinds/${DESIGN}/docs`, { headers, data: { data: { blocks } } });
    expect(start.ok()).toBe(true);

    const shopper = await browser.newPage();
    expect((await widgetBlocks(shopper)).filter((b) => b === 'welcome' || b === 'earn')).toEqual(['welcome', 'earn']);

    await signIn(page);
    await page.goto('/storefront');
    await expect(page.getByRole('heading', { name: 'Widget design' })).toBeVisible();
    const handle = page.getByRole('button', { name: 'Move Welcome, position 1 of 7' });
    await handle.focus();
    // Space picks the block up, ArrowDown moves it, Space drops it; each step waits until dnd-kit shows
    // it (the handle pressed, the row shifted), so a loaded machine never drops before the move was measured.
    await page.keyboard.press('Space');
    await expect(handle).toHaveAttribute('aria-pressed', 'true');
    const row = page.locator('li[data-block="welcome"]');
    await page.keyboard.press('ArrowDown');
    await expect.poll(() => row.evaluate((el) => (el as HTMLElement).style.transform)).toMatch(/^translate3d\(0(px)?, [1-9]\d*px, 0(px)?\)$/);
    // The row moving is not enough on a loaded machine: the drop target is what dnd-kit announces.
    await expect(page.getByRole('status').filter({ hasText: 'Welcome is over position 2.' })).toHaveCount(1);
    await page.keyboard.press('Space');
    await expect(page.getByRole('button', { name: 'Move Welcome, position 2 of 7' })).toBeVisible();
    // The preview follows before saving.
    const preview = page.frameLocator('iframe[title="The rewards widget as shoppers see it"]').locator('#loyalty-widget');
    await expect.poll(() => preview.locator('[data-block]').evaluateAll((els) => els.map((el) => el.getAttribute('data-block')).slice(0, 2))).toEqual(['earn', 'welcome']);

    await page.getByRole('button', { name: 'Save' }).click();
    await expect(page.getByRole('button', { name: 'Save' })).toBeHidden();

    expect((await widgetBlocks(shopper)).filter((b) => b === 'welcome' || b === 'earn')).toEqual(['earn', 'welcome']);
    await shopper.close();
  } finally {
    await restore(request, DESIGN, before);
  }
});

test('a FAQ typed on /storefront/faqs shows in the preview unsaved and in the widget once saved; the page fits a phone under /embed', async ({ page, browser, request }) => {
  const before = await singleton(request, 'storefront.faqs');
  const question = `Do points expire? ${run}`;
  try {
    await signIn(page);
    await page.goto('/storefront/faqs');
    await expect(page.getByRole('heading', { name: 'FAQs' })).toBeVisible();
    const field = page.locator('#root_questions_0_question');
    await field.fill(question);
    const preview = page.frameLocator('iframe[title="The rewards widget as shoppers see it"]').locator('#loyalty-widget');
    await expect(preview.locator('[data-block="faqs"]')).toContainText(question);

    // Not on the storefront before Save.
    const shopper = await browser.newPage();
    await shopper.goto('/demo-store');
    await shopper.locator('#loyalty-widget').getByRole('button', { name: 'Rewards' }).click();
    await expect(shopper.locator('#loyalty-widget').getByRole('dialog')).toBeVisible();
    await expect(shopper.locator('#loyalty-widget').getByText(question)).toHaveCount(0);

    await page.getByRole('button', { name: 'Save' }).click();
    await expect(page.getByRole('button', { name: 'Save' })).toBeHidden();

    await shopper.reload();
    await shopper.locator('#loyalty-widget').getByRole('button', { name: 'Rewards' }).click();
    const faqs = shopper.locator('#loyalty-widget').locator('[data-block="faqs"]');
    await expect(faqs).toContainText(question);
    await faqs.getByText(question).click();
    await expect(faqs.getByText('Create an account, then earn points')).toBeVisible();
    await shopper.close();

    // The same page embedded and on a phone: no sideways scroll; the branding hub too.
    await page.setViewportSize({ width: 390, height: 844 });
    for (const path of ['/embed/storefront/faqs', '/embed/storefront/branding']) {
      await page.goto(path);
      await expect(page.getByRole('heading', { level: 1 })).toBeVisible();
      expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
    }
    await expect(page.getByRole('heading', { name: 'Referrals' })).toBeVisible();
    await expect(page.getByRole('heading', { name: 'Reward reminder' })).toBeVisible();
    // Spec 000 §2: checkout discount and the legacy signup widget only for shops that have them.
    await expect(page.getByRole('heading', { name: 'Checkout discount' })).toHaveCount(0);
    await expect(page.getByRole('heading', { name: 'Legacy sign-up widget' })).toHaveCount(0);
  } finally {
    await restore(request, 'storefront.faqs', before);
  }
});

test('a free-plan shop is refused advanced CSS with the plan that unlocks it', async ({ page, request }) => {
  const headers = await bearer(request);
  const shop = async () => ((await (await request.get('/api/shops', { headers })).json()) as { shop: { plan: string } }).shop.plan;
  expect(await shop()).toBe('advanced_2025');
  const before = await singleton(request, DESIGN);
  try {
    // To the free plan: buy Ultimate (the demo shop's Advanced has no subscription to cancel), then cancel.
    await signIn(page);
    await buy(page, 'Ultimate');
    expect((await request.post('/api/subscription/cancel', { headers })).ok()).toBe(true);
    expect(await shop()).toBe('free');

    await page.goto('/storefront');
    await expect(page.getByRole('heading', { name: 'Widget design' })).toBeVisible();
    const badge = page.getByRole('link', { name: 'Available on Essential' });
    await expect(badge).toBeVisible();
    await expect(badge).toHaveAttribute('href', '/subscription?plan=pro_3_2025');
    await page.locator('#root_advancedCss').fill(`.launcher { outline: 2px solid red } /* ${run} */`);
    await page.getByRole('button', { name: 'Save' }).click();
    await expect(page.getByText('Advanced CSS is available on the Essential plan.').first()).toBeVisible();
    expect((await singleton(request, DESIGN))?.data.advancedCss ?? '').not.toContain(String(run));
    // Discard, so leaving the page needs no answer.
    await page.getByRole('button', { name: 'Discard' }).click();
  } finally {
    // Back on Advanced, as the other browser tests expect (an upgrade resumes paused programs).
    if ((await shop()) !== 'advanced_2025') await buy(page, 'Advanced');
    expect(await shop()).toBe('advanced_2025');
    await restore(request, DESIGN, before);
  }
});

test('the widget opens by itself on the instant popup pages once per visit, stays off restricted pages, and the preview shows the membership card', async ({ page, browser, request }) => {
  const before = await singleton(request, DESIGN);
  const headers = await bearer(request);
  /** Saves the design with `changes` over what it was. */
  const save = async (changes: Record<string, unknown>) => {
    const now = await singleton(request, DESIGN);
    const res = now
      ? await request.put(`/api/kinds/${DESIGN}/docs/${now.id}`, { headers, data: { data: { ...(before?.data ?? {}), ...changes }, version: now.version } })
      : await request.post(`/api/kinds/${DESIGN}/docs`, { headers, data: { data: changes } });
    expect(res.ok(), await res.text()).toBe(true);
  };
  try {
    await save({ instantPopup: { enabled: true, desktop: true, mobile: true, pages: 'custom', customPaths: '/pages/rewards\n/demo-store' }, pageRestriction: { mode: 'none', paths: '' } });
    const shopperContext = await browser.newContext();
    const shopper = await shopperContext.newPage();
    await shopper.goto('/demo-store');
    await expect(shopper.locator('#loyalty-widget').getByRole('dialog', { name: 'Rewards' })).toBeVisible();
    // Once per browser session: the next page view does not open it again.
    await shopper.reload();
    await expect(shopper.locator('#loyalty-widget').getByRole('button', { name: 'Rewards' })).toBeVisible();
    await expect(shopper.locator('#loyalty-widget').getByRole('dialog')).toBeHidden();

    await save({ pageRestriction: { mode: 'hide_on', paths: '/cart\n/demo-store' } });
    const widgetConfig = shopper.waitForResponse((res) => res.url().includes('/apps/loyalty/widget'));
    await shopper.reload();
    await widgetConfig;
    await expect(shopper.locator('#loyalty-widget')).toBeAttached();
    await expect(shopper.locator('#loyalty-widget').getByRole('button')).toHaveCount(0);
    await shopperContext.close();

    await signIn(page);
    await page.goto('/storefront');
    await expect(page.getByRole('heading', { name: 'Widget design' })).toBeVisible();
    const preview = page.frameLocator('iframe[title="The rewards widget as shoppers see it"]').locator('#loyalty-widget');
    await expect(preview.getByRole('dialog')).toBeVisible();
    await expect(preview.locator('[data-block="membership-card"]')).toHaveCount(0);
    await page.getByRole('switch', { name: 'Show the membership card' }).click();
    await expect(preview.locator('[data-block="membership-card"]')).toContainText('Hi Alex');
    await page.getByRole('button', { name: 'Discard' }).click();
  } finally {
    await restore(request, DESIGN, before);
  }
});

test('the live preview says it is loading, shows an error with Try again when the widget never starts, and recovers', async ({ page }) => {
  await signIn(page);
  // The widget's bundle fails to load (a deploy in progress, a blocked script): the frame's page
  // loads, the widget never says it runs.
  await page.route('**/widget/loader.js', (route) => route.fulfill({ status: 503, body: 'unavailable' }));
  await page.goto('/storefront');
  const stage = page.locator('.widget-preview-stage');
  await expect(stage.getByRole('status')).toHaveText('Loading the preview…');
  await expect(stage.getByRole('alert')).toContainText('The preview could not load.');
  await expect(stage).toHaveAttribute('aria-busy', 'false');
  // The bundle is back: Try again loads a new frame, and the widget shows in it.
  await page.unroute('**/widget/loader.js');
  await stage.getByRole('button', { name: 'Try again' }).click();
  const preview = page.frameLocator('iframe[title="The rewards widget as shoppers see it"]').locator('#loyalty-widget');
  await expect(preview.getByRole('dialog')).toBeVisible();
  await expect(stage.getByRole('alert')).toHaveCount(0);
  await expect(stage.getByRole('status')).toHaveCount(0);
});
