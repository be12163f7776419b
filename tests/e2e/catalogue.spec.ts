/**
 * The program catalogue through the browser, against the real server in demo mode (the demo shop
 * is on advanced_2025 with Shopify plan basic): one document of each family created through its
 * screen and then seen in its list, and the partner tier gate.
 */
import { expect, test, type Page } from '@playwright/test';

async function signIn(page: Page): Promise<void> {
  await page.goto('/auth/login');
  await page.getByRole('button', { name: 'Sign in' }).click();
  await expect(page.getByRole('heading', { name: 'Programs', exact: true })).toBeVisible();
}

/** Saves through the contextual save bar and waits for the success toast. */
async function save(page: Page, toast: string): Promise<void> {
  await page.getByRole('region', { name: 'Unsaved changes' }).getByRole('button', { name: 'Save' }).click();
  await expect(page.getByText(toast).first()).toBeVisible();
}

/** Opens a program template from the tab's add menu (header or empty state: there is one either way). */
async function addProgram(page: Page, template: RegExp): Promise<void> {
  const add = page.getByRole('button', { name: /Add program/ });
  await expect(add).toBeEnabled();
  await add.click();
  await page.getByRole('menuitem', { name: template }).click();
}

test.beforeEach(async ({ page }) => {
  await signIn(page);
});

test('an earning program other than place order (sign up) is created and listed on the earning tab', async ({ page }) => {
  await page.goto('/programs?type=earning');
  await addProgram(page, /^Sign up Customers/);
  await expect(page).toHaveURL(/\/programs\/sign_up\/new$/);
  await page.getByLabel('Program name').fill('Welcome points');
  await save(page, 'Program saved');
  await expect(page).toHaveURL(/\/programs\/point\//);

  await page.goto('/programs?type=earning');
  await expect(page.getByRole('row', { name: /Welcome points/ })).toContainText('Sign up');
});

test('a redeem reward (amount discount) is created and listed on the redeem tab', async ({ page }) => {
  await page.goto('/programs?type=redeem');
  await addProgram(page, /^Amount discount/);
  await page.getByLabel('Reward name').fill('$10 off for 1000 points');
  await save(page, 'Program saved');

  await page.goto('/programs?type=redeem');
  await expect(page.getByRole('row', { name: /\$10 off for 1000 points/ })).toContainText('Amount discount');
});

test('the referral program is set up once and shown on the referral tab', async ({ page }) => {
  await page.goto('/programs?type=referral');
  await page.getByRole('link', { name: 'Set up referral program' }).click();
  await expect(page).toHaveURL(/\/programs\/referral$/);
  await page.getByLabel('Title', { exact: true }).fill('Invite your friends');
  await save(page, 'Saved');

  // The second save edits the same document (PUT), it does not create another.
  await page.getByLabel('Description').fill('Give 10%, get 500 points.');
  await save(page, 'Saved');

  await page.goto('/programs?type=referral');
  await expect(page.getByRole('heading', { name: 'Invite your friends' })).toBeVisible();
  await expect(page.getByText('Give 10%, get 500 points.')).toBeVisible();
  await expect(page.getByRole('link', { name: 'Set up Friend reward' })).toHaveAttribute('href', '/programs/referral/friendReward');
});

test('a base tier (entry requirement 0) is created and listed on the tier tab', async ({ page }) => {
  await page.goto('/programs?type=tier');
  await page.getByRole('link', { name: 'Create tier' }).click();
  await expect(page).toHaveURL(/\/programs\/tier\/create$/);
  await page.getByLabel('Tier name').fill('Bronze');
  await expect(page.getByLabel('Entry requirement')).toHaveValue('0');
  await save(page, 'Saved');
  await expect(page).toHaveURL(/\/programs\/tier\/[0-9a-f-]{36}$/);

  await page.goto('/programs?type=tier');
  const row = page.getByRole('row', { name: /Bronze/ });
  await expect(row).toContainText('Base tier');
  await expect(row).toContainText('0 points earned');

  await page.goto('/membership/vip?tab=tiers');
  await expect(page.getByRole('row', { name: /Bronze/ })).toBeVisible();
});

test('a second tier with a taken name is refused with the message on the name field (the tier ladder)', async ({ page }) => {
  // The ladder starts at its base tier; the test above may have made it already.
  await page.goto('/programs?type=tier');
  await expect(page.getByRole('table').or(page.getByRole('heading', { name: 'No VIP tiers yet' }))).toBeVisible();
  if ((await page.getByRole('row', { name: /Base tier/ }).count()) === 0) {
    await page.goto('/programs/tier/create');
    await page.getByLabel('Tier name').fill('Bronze');
    await save(page, 'Saved');
  }

  await page.goto('/programs/tier/create');
  await page.getByLabel('Tier name').fill('Silver');
  await page.getByLabel('Entry requirement').fill('500');
  await save(page, 'Saved');

  await page.goto('/programs/tier/create');
  await page.getByLabel('Tier name').fill('silver');
  await page.getByLabel('Entry requirement').fill('900');
  await page.getByRole('region', { name: 'Unsaved changes' }).getByRole('button', { name: 'Save' }).click();
  await expect(page.getByLabel('Tier name')).toHaveAccessibleDescription(/Value already exists: another tier has this name\./);
  await expect(page).toHaveURL(/\/programs\/tier\/create$/);
});

test('a milestone program is created and listed on the milestone tab only', async ({ page }) => {
  await page.goto('/programs?type=milestone');
  await addProgram(page, /^Milestone rewards/);
  await page.getByLabel('Program name').fill('Order milestones');
  await save(page, 'Program saved');

  await page.goto('/programs?type=milestone');
  await expect(page.getByRole('row', { name: /Order milestones/ })).toBeVisible();
  const earningList = page.waitForResponse((response) => response.url().endsWith('/api/lp/programs/earning'));
  await page.goto('/programs?type=earning');
  const listed = (await (await earningList).json()) as { data: { title: string }[] };
  // The earning tab shares its list with milestones; it must leave them out.
  expect(listed.data.map((row) => row.title)).toContain('Order milestones');
  await expect(page.getByRole('tab', { name: 'Earning' })).toHaveAttribute('aria-selected', 'true');
  await expect(page.getByRole('row', { name: /Order milestones/ })).toHaveCount(0);
});

test('an exclusive deal is created from the membership hub and listed', async ({ page }) => {
  await page.goto('/membership');
  await page.getByRole('link', { name: 'Manage Member exclusive deal' }).click();
  await expect(page).toHaveURL(/\/membership\/exclusive-deal$/);
  await page.getByRole('link', { name: 'Create deal' }).click();
  await page.getByLabel('Deal name').fill('Members 15% off');
  await page.getByLabel('Discount value').fill('15');
  await page.getByRole('tab', { name: 'Design' }).click();
  await expect(page.getByLabel('Button color', { exact: true })).toBeVisible();
  await save(page, 'Saved');
  await expect(page).toHaveURL(/\/membership\/exclusive-deal\/[0-9a-f-]{36}/);

  await page.goto('/membership/exclusive-deal');
  await expect(page.getByRole('row', { name: /Members 15% off/ })).toContainText('15%');
});

test('partner tiers show the Shopify Plus gate and keep Save off', async ({ page }) => {
  await page.goto('/membership');
  await expect(page.getByRole('region', { name: 'Partner tier (B2B, Shopify Plus only)' })).toContainText('Available on Shopify Plus');
  await page.goto('/wholesale/vip/new');
  await expect(page.getByRole('alert')).toContainText('Available on Shopify Plus');
  await page.getByLabel('Tier name').fill('Wholesale');
  await expect(page.getByRole('region', { name: 'Unsaved changes' }).getByRole('button', { name: 'Save' })).toBeDisabled();
});
