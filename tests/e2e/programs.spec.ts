/**
 * The merchant's path through the walking skeleton, in Debian's Chromium against the real server
 * in demo mode: sign in, create a place-order program, see it listed, edit it, turn it off, delete
 * it, and meet the 10-program limit on the 11th.
 */
import { expect, test, type Page } from '@playwright/test';

async function signIn(page: Page, path = '/auth/login'): Promise<void> {
  await page.goto(path);
  await page.getByRole('button', { name: 'Sign in' }).click();
  await expect(page.getByRole('heading', { name: 'Programs', exact: true })).toBeVisible();
}

/** Deletes every place-order program through the API, so each test starts from the same shop. */
async function clearPlaceOrderPrograms(page: Page): Promise<void> {
  await page.evaluate(async () => {
    const token = sessionStorage.getItem('loyalty.sessionToken');
    const headers = { Authorization: `Bearer ${token}`, 'Content-Type': 'application/json' };
    const list = (await (await fetch('/api/kinds/earning.place_order/docs', { headers })).json()) as { data: { id: string }[] };
    for (const doc of list.data) await fetch(`/api/kinds/earning.place_order/docs/${doc.id}`, { method: 'DELETE', headers });
  });
}

async function createThroughForm(page: Page, title: string): Promise<void> {
  await page.getByRole('button', { name: /Add program/ }).click();
  await page.getByRole('menuitem', { name: /Place an order/ }).click();
  const name = page.getByLabel('Program name');
  await expect(name).toBeVisible();
  await name.fill(title);
  await page.getByRole('button', { name: 'Save' }).click();
}

test('a merchant creates, edits, turns off and deletes a place-order program', async ({ page }) => {
  await signIn(page);
  await clearPlaceOrderPrograms(page);
  await page.reload();

  await createThroughForm(page, 'Spring orders');
  await expect(page.getByText('Program saved')).toBeVisible();
  await expect(page).toHaveURL(/\/programs\/point\/[0-9a-f-]{36}$/);

  await page.getByLabel('Points earned').fill('25');
  await page.getByRole('button', { name: 'Save' }).click();
  await expect(page.getByText('Program saved').first()).toBeVisible();
  await page.reload();
  await expect(page.getByLabel('Points earned')).toHaveValue('25');

  await page.goto('/programs');
  const row = page.getByRole('row', { name: /Spring orders/ });
  await expect(row).toContainText('Active');
  await row.getByRole('switch').click();
  await expect(row).toContainText('Inactive');

  await row.getByRole('button', { name: 'Delete Spring orders' }).click();
  await page.getByRole('dialog').getByRole('button', { name: 'Delete' }).click();
  await expect(page.getByRole('row', { name: /Spring orders/ })).toHaveCount(0);
});

test('the 11th place-order program is refused with the spec wording', async ({ page }) => {
  await signIn(page);
  await clearPlaceOrderPrograms(page);
  await page.reload();
  for (let i = 1; i <= 10; i += 1) {
    await createThroughForm(page, `Program ${i}`);
    await expect(page).toHaveURL(/\/programs\/point\//);
    await page.goto('/programs');
  }
  await expect(page.getByRole('row', { name: /Program 10/ })).toBeVisible();

  // The add menu says why before the form (issue 12 walkthrough); the form itself is still refused by the server.
  await page.getByRole('button', { name: /Add program/ }).click();
  const full = page.getByRole('menuitem', { name: /Place an order/ });
  await expect(full).toHaveAttribute('aria-disabled', 'true');
  await expect(full).toContainText('Up to 10 place-order programs are allowed; you have 10.');
  await page.keyboard.press('Escape');
  await page.goto('/programs/place_order/new');
  const name = page.getByLabel('Program name');
  await expect(name).toBeVisible();
  await name.fill('Program 11');
  await page.getByRole('button', { name: 'Save' }).click();
  await expect(page.getByRole('alert').filter({ hasText: 'Up to 10 place-order programs are allowed.' }).first()).toBeVisible();
  await expect(page).toHaveURL(/\/programs\/place_order\/new/);
});

test('the embedded variant serves the same screens under /embed', async ({ page }) => {
  await signIn(page, '/embed/auth/login');
  await expect(page).toHaveURL(/\/embed\/programs/);
});

test('an unknown path shows the Not Found screen with Contact us', async ({ page }) => {
  await signIn(page);
  await page.goto('/no/such/screen');
  await expect(page.getByRole('heading', { name: "The page you're looking for couldn't be found" })).toBeVisible();
  await expect(page.getByRole('link', { name: 'Contact us' })).toBeVisible();
});
