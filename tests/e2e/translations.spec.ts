/**
 * The translation editor in Debian's Chromium against the real server in demo mode (issue 13; spec
 * 001 §2, §7): on a 390 px phone, embedded, the merchant opens a French text by its `field`
 * parameter, a text that drops a placeholder is refused on its field, a French text saves with the
 * spec's message, and the storefront answers it (`GET /proxy/widget` through the demo app proxy).
 * The demo shop's translation is put back as it was at the end (browser tests share one shop).
 */
import { expect, test, type Page } from '@playwright/test';

async function signIn(page: Page): Promise<void> {
  await page.goto('/auth/login');
  await page.getByRole('button', { name: 'Sign in' }).click();
  await expect(page.getByRole('heading', { name: 'Programs', exact: true })).toBeVisible();
}

/** Calls the admin API with the page's session token. */
async function api(page: Page, method: 'GET' | 'POST', path: string, body?: unknown): Promise<{ status: number; json: Record<string, unknown> }> {
  return page.evaluate(
    async ([m, p, b]) => {
      const headers: Record<string, string> = { Authorization: `Bearer ${sessionStorage.getItem('loyalty.sessionToken')}`, 'Content-Type': 'application/json' };
      const res = await fetch(p as string, { method: m as string, headers, body: b === undefined ? undefined : JSON.stringify(b) });
      return { status: res.status, json: (await res.json()) as Record<string, unknown> };
    },
    [method, path, body] as const,
  );
}

test('a French text saved in the editor reaches the storefront; a dropped placeholder is refused on its field', async ({ page, request }) => {
  await page.setViewportSize({ width: 390, height: 844 });
  await signIn(page);
  const before = await api(page, 'GET', '/api/translation');
  const original = before.json.data as Record<string, unknown>;
  const text = `Nos récompenses ${Date.now() % 100000}`;
  try {
    await page.goto('/embed/settings/translations/editor?shop=demo-shop.myshopify.com&type=widget-design&languageCode=fr&field=panel.title');
    const title = page.locator('#translation-field-panel\\.title');
    await expect(title).toBeFocused();
    await expect(page.getByRole('tab', { name: 'Embed content' })).toHaveAttribute('aria-selected', 'true');
    await expect.poll(() => page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth)).toBeLessThanOrEqual(0);

    // The placeholder rule, on its field.
    await page.getByRole('tab', { name: 'Welcome box' }).click();
    const balance = page.locator('#translation-field-welcome\\.balance');
    await balance.fill('Vous avez des points');
    await page.getByRole('button', { name: 'Save' }).click();
    await expect(page.getByTestId('translation-field-welcome.balance').getByRole('alert')).toContainText('{{points}}');
    await balance.fill('');

    await page.getByRole('tab', { name: 'Embed content' }).click();
    await title.fill(text);
    await page.getByRole('button', { name: 'Save' }).click();
    await expect(page.getByText('Translations saved')).toBeVisible();
    await expect(page.getByRole('button', { name: 'Save' })).toHaveCount(0);

    const widget = (await (await request.get('/apps/loyalty/widget?language=fr-FR')).json()) as { data: { language: string; texts: Record<string, string> } };
    expect(widget.data.language).toBe('fr');
    expect(widget.data.texts['panel.title']).toBe(text);
    // Other languages keep their own texts.
    const english = (await (await request.get('/apps/loyalty/widget?language=en')).json()) as { data: { texts: Record<string, string> } };
    expect(english.data.texts['panel.title']).toBe('Rewards');

    // A reload reads the saved text back.
    await page.reload();
    await expect(page.locator('#translation-field-panel\\.title')).toHaveValue(text);
  } finally {
    const now = await api(page, 'GET', '/api/translation');
    const restored = await api(page, 'POST', '/api/translation', { ...original, version: now.json.version });
    expect(restored.status).toBe(200);
  }
});

test('/translations lists the eight variants and opens the editor, embedded too', async ({ page }) => {
  await page.setViewportSize({ width: 390, height: 844 });
  await signIn(page);
  await page.goto('/translations');
  await expect(page.getByRole('heading', { name: 'Translations', level: 1 })).toBeVisible();
  await expect(page.getByRole('link', { name: /^Edit texts:/ })).toHaveCount(8);
  await expect.poll(() => page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth)).toBeLessThanOrEqual(0);
  await page.getByRole('link', { name: 'Edit texts: Referral' }).click();
  await expect(page.getByRole('heading', { name: 'Translate: Referral' })).toBeVisible();
  await expect(page).toHaveURL(/type=referral/);

  // Embedded, on the phone: the same screen, no sideways scroll.
  await page.goto('/embed/translations?shop=demo-shop.myshopify.com');
  await expect(page.getByRole('heading', { name: 'Translations', level: 1 })).toBeVisible();
  await expect.poll(() => page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth)).toBeLessThanOrEqual(0);
});

test('a shop that detects the browser language shows a German browser the widget in German on an English page', async ({ page, browser }) => {
  await signIn(page);
  const before = await api(page, 'GET', '/api/translation');
  const original = before.json.data as Record<string, unknown>;
  const shopper = await browser.newContext({ locale: 'de-DE' });
  try {
    // The default (the page's language, which the platform picks from the visitor's IP): English here.
    const store = await shopper.newPage();
    await store.goto('/demo-store');
    await expect(store.locator('#loyalty-widget').getByRole('button', { name: 'Rewards' })).toBeVisible();

    const saved = await api(page, 'POST', '/api/translation', { ...original, detectMethod: 'browser_language', version: before.json.version });
    expect(saved.status).toBe(200);
    await store.reload();
    await store.locator('#loyalty-widget').getByRole('button', { name: 'Prämien' }).click();
    await expect(store.locator('#loyalty-widget').getByRole('dialog', { name: 'Prämien' })).toBeVisible();
  } finally {
    await shopper.close();
    const now = await api(page, 'GET', '/api/translation');
    const restored = await api(page, 'POST', '/api/translation', { ...original, version: now.json.version });
    expect(restored.status).toBe(200);
  }
});
