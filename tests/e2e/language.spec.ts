/**
 * The language switch in Chromium (spec 000 §4): choosing French in the page header turns the
 * chrome and a form's labels French at once, the choice survives a reload (shop setting and local
 * storage), and switching back restores English. The shop's language is put back to English
 * afterwards so the other browser tests read English.
 */
import { expect, test } from '@playwright/test';

test.afterEach(async ({ request }) => {
  const { token } = (await (await request.post('/auth/demo-login')).json()) as { token: string };
  const res = await request.post('/api/lp/settings', { headers: { Authorization: `Bearer ${token}` }, data: { primaryLanguageInApp: 'en' } });
  expect(res.status()).toBe(200);
});

test('French applies at once, reaches the form labels, survives a reload and switches back', async ({ page }) => {
  await page.goto('/auth/login');
  await page.getByRole('button', { name: 'Sign in' }).click();
  await expect(page.getByRole('heading', { name: 'Programs', exact: true })).toBeVisible();

  await page.getByLabel('Language', { exact: true }).selectOption('fr');
  await expect(page.getByRole('heading', { name: 'Programmes' })).toBeVisible();
  await expect(page.getByRole('tab', { name: 'Parrainage' })).toBeVisible();
  await expect(page.locator('html')).toHaveAttribute('lang', 'fr');

  // A form's labels come from the template, translated by the server.
  await page.getByRole('row', { name: /Place an order/ }).getByRole('link', { name: 'Modifier' }).first().click();
  await expect(page.getByLabel('Nom du programme')).toBeVisible();
  await expect(page.getByText('Points gagnés', { exact: true })).toBeVisible();

  await page.reload();
  await expect(page.getByLabel('Nom du programme')).toBeVisible();
  await expect(page.getByLabel('Langue', { exact: true })).toHaveValue('fr');

  await page.getByLabel('Langue', { exact: true }).selectOption('en');
  await expect(page.getByLabel('Program name')).toBeVisible();
  await expect(page.locator('html')).toHaveAttribute('lang', 'en');
});
