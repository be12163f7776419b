/**
 * VIP tiers through the browser (issue 10), against the real server in demo mode: the Launch tab
 * launches the program after confirmation and then offers Relaunch and Deactivate; deactivation is
 * refused with the server's message while a program uses a tier; the tab fits a 390 px phone and
 * works under /embed.
 */
import { expect, test, type Page } from '@playwright/test';

async function signIn(page: Page): Promise<void> {
  await page.goto('/auth/login');
  await page.getByRole('button', { name: 'Sign in' }).click();
  await expect(page.getByRole('heading', { name: 'Programs', exact: true })).toBeVisible();
}

test('launches VIP tiers after confirmation, refuses deactivation while a program uses a tier, and fits a phone', async ({ page }) => {
  await signIn(page);
  // A base tier first: the program cannot launch without one.
  await page.goto('/programs?type=tier');
  await expect(page.getByRole('table').or(page.getByRole('heading', { name: 'No VIP tiers yet' }))).toBeVisible();
  if ((await page.getByRole('row', { name: /Base tier/ }).count()) === 0) {
    await page.goto('/programs/tier/create');
    await page.getByLabel('Tier name').fill('Bronze');
    await page.getByRole('region', { name: 'Unsaved changes' }).getByRole('button', { name: 'Save' }).click();
    await expect(page.getByText('Saved').first()).toBeVisible();
  }

  await page.goto('/membership/vip?tab=launch');
  await page.getByRole('button', { name: 'Launch VIP tiers' }).click();
  const launch = page.getByRole('dialog', { name: 'Launch VIP tiers?' });
  await launch.getByRole('button', { name: 'Launch VIP tiers' }).click();
  await expect(page.getByText(/VIP tiers launched: \d+ of \d+ customers placed/)).toBeVisible();
  await expect(page.getByRole('button', { name: 'Relaunch' })).toBeVisible();

  // A program for VIP members only blocks deactivation (spec 002 §4, §8).
  const token = await page.evaluate(() => sessionStorage.getItem('loyalty.sessionToken') ?? '');
  const headers = { Authorization: `Bearer ${token}` };
  // A sign-up program for VIP members (other browser tests may have used up the 10 place-order programs).
  const created = await page.request.post('/api/kinds/earning.sign_up/docs', {
    headers,
    data: { data: { title: 'VIP welcome points', status: true, customerEligibility: 'vip_members' } },
  });
  expect(created.status(), await created.text()).toBe(201);
  const programId = ((await created.json()) as { data: { id: string } }).data.id;
  await page.reload();
  await page.getByRole('button', { name: 'Deactivate' }).click();
  const deactivate = page.getByRole('dialog', { name: 'Deactivate VIP tiers?' });
  await deactivate.getByRole('button', { name: 'Deactivate' }).click();
  await expect(deactivate.getByText('Cannot deactivate VIP Tier while programs use it')).toBeVisible();
  await expect(deactivate.getByText('VIP welcome points (earning.sign_up) uses VIP tiers')).toBeVisible();
  await deactivate.getByRole('button', { name: 'Cancel', exact: true }).last().click();
  expect((await page.request.delete(`/api/kinds/earning.sign_up/docs/${programId}`, { headers })).status()).toBe(200);

  await page.setViewportSize({ width: 390, height: 844 });
  await page.goto('/embed/membership/vip?tab=launch');
  await expect(page.getByRole('button', { name: 'Relaunch' })).toBeVisible();
  expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
});
