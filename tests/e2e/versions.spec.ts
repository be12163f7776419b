/**
 * Versions, preview and rollback in Chromium against the real server in demo mode (issue 15): two
 * orders arrive as signed webhooks; the merchant changes a place-order program's rate, previews what
 * it would have done (totals and a changed order with its explanation), saves, opens the versions,
 * reads the diff in words and rolls back; the customer's activity names the program's version and
 * links to it; the versions screen fits a 390 px phone under /embed.
 */
import { expect, test, type APIRequestContext, type Page } from '@playwright/test';
import { deliverOrder as deliverSignedOrder, idSeries } from './support/orders';

const ids = idSeries(4);
const run = ids.run;
const customerId = ids.customer;

/** Delivers an order webhook placed two days ago, as the platform would; answers the order's id. */
async function deliverOrder(request: APIRequestContext, n: number, price: string): Promise<string> {
  const id = ids.order(n);
  await deliverSignedOrder(request, {
    id,
    lineItemId: ids.lineItem(n),
    name: `#V${n}`,
    price,
    createdAt: new Date(Date.now() - 2 * 86_400_000),
    customer: { id: customerId(n), email: `v.${run}.${n}@example.com`, firstName: 'Version', lastName: `Runner${n}` },
  });
  return id;
}

async function signIn(page: Page, path = '/auth/login'): Promise<void> {
  await page.goto(path);
  await page.getByRole('button', { name: 'Sign in' }).click();
  await expect(page.getByRole('button', { name: 'Sign out' })).toBeVisible({ timeout: 30_000 });
}

/** Leaves one place-order program, "Rate test" (10 points per $100), and answers its id. */
async function onlyRateTest(page: Page): Promise<string> {
  return page.evaluate(async () => {
    const token = sessionStorage.getItem('loyalty.sessionToken');
    const headers = { Authorization: `Bearer ${token}`, 'Content-Type': 'application/json' };
    const list = (await (await fetch('/api/kinds/earning.place_order/docs', { headers })).json()) as { data: { id: string }[] };
    for (const doc of list.data) await fetch(`/api/kinds/earning.place_order/docs/${doc.id}`, { method: 'DELETE', headers });
    const created = await fetch('/api/kinds/earning.place_order/docs', {
      method: 'POST',
      headers,
      body: JSON.stringify({ data: { title: 'Rate test', earnBy: 'order', earnPoint: 10, rateMoney: 100, roundingMethod: 'roundingDown' } }),
    });
    return ((await created.json()) as { data: { id: string } }).data.id;
  });
}

/** Waits until the queued orders have been processed (their evaluation is stored). */
async function processed(page: Page, orderIds: string[]): Promise<void> {
  await expect(async () => {
    const statuses = await page.evaluate(async (ids) => {
      const token = sessionStorage.getItem('loyalty.sessionToken');
      return Promise.all(ids.map(async (id) => (await fetch(`/api/orders/${id}/evaluation`, { headers: { Authorization: `Bearer ${token}` } })).status));
    }, orderIds);
    expect(statuses).toEqual(orderIds.map(() => 200));
  }).toPass({ timeout: 15_000 });
}

test('a merchant previews a rate change, saves it, reads the diff and rolls back', async ({ page, request }) => {
  await signIn(page);
  const programId = await onlyRateTest(page);
  const orders = [await deliverOrder(request, 1, '100.00'), await deliverOrder(request, 2, '250.00')];
  await processed(page, orders);

  await page.goto(`/programs/point/${programId}`);
  await expect(page.getByLabel('Points earned')).toHaveValue('10');
  await page.getByLabel('Points earned').fill('15');

  // Preview: the orders of the last 30 days with the draft beside the saved programs.
  await page.getByRole('button', { name: 'Preview', exact: true }).click();
  const result = page.getByTestId('preview-result');
  await expect(result).toBeVisible();
  // The demo shop is shared with the other browser tests, whose orders of the last 30 days are
  // replayed too: this test's two orders must be among the changed ones with their exact points,
  // and the totals must add up (at 1 point = $1, the demo's exchange rate).
  await expect(result.getByText('#V2: 25 → 37 points')).toBeVisible();
  await expect(result.getByText('#V1: 10 → 15 points')).toBeVisible();
  const count = async (id: string) => Number((await page.getByTestId(id).innerText()).replace(/[^0-9-]/g, ''));
  expect(await count('preview-orders')).toBeGreaterThanOrEqual(2);
  expect(await count('preview-customers')).toBeGreaterThanOrEqual(2);
  const before = await count('preview-before');
  const after = await count('preview-after');
  expect(after - before).toBeGreaterThanOrEqual(17);
  await expect(page.getByTestId('preview-delta')).toHaveText(`+${after - before}`);
  await expect(page.getByTestId('preview-cost')).toHaveText(`$${before}.00 → $${after}.00`);
  await expect(result.getByText(/Rate test/).first()).toBeVisible();

  await page.getByRole('button', { name: 'Save' }).click();
  await expect(page.getByText('Program saved').first()).toBeVisible();

  await page.getByRole('link', { name: 'Versions' }).click();
  await expect(page.getByRole('heading', { name: 'Versions of Rate test' })).toBeVisible();
  await expect(page.getByTestId('version-2')).toContainText('Current');
  await expect(page.getByTestId('diff-2')).toContainText('Points earned: 10 → 15');

  await page.getByTestId('version-1').getByRole('button', { name: 'Roll back to this version' }).click();
  await page.getByRole('dialog').getByRole('button', { name: 'Roll back' }).click();
  await expect(page.getByText('Rolled back: saved as version 3')).toBeVisible();
  await expect(page.getByTestId('version-3')).toContainText('Current');
  await expect(page.getByTestId('diff-3')).toContainText('Points earned: 15 → 10');

  await page.goto(`/programs/point/${programId}`);
  await expect(page.getByLabel('Points earned')).toHaveValue('10');

  // The customer's activity names the program version that awarded the points, with a link.
  await page.goto(`/customers/profile/${customerId(2)}`);
  const link = page.getByRole('link', { name: 'Rate test, version 1' });
  await expect(link).toBeVisible();
  await link.click();
  await expect(page.getByRole('heading', { name: 'Versions of Rate test' })).toBeVisible();
});

test('the versions screen and the preview fit a phone under /embed', async ({ page }) => {
  await signIn(page);
  const programId = await onlyRateTest(page);
  await page.setViewportSize({ width: 390, height: 844 });
  await page.goto(`/embed/programs/versions/${programId}`);
  await expect(page.getByRole('heading', { name: 'Versions of Rate test' })).toBeVisible();
  await expect(page.getByTestId('version-1')).toContainText('Current');
  expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
  await page.goto(`/embed/programs/point/${programId}`);
  await page.getByRole('button', { name: 'Preview', exact: true }).click();
  await expect(page.getByTestId('preview-result').or(page.getByText(/No stored orders/))).toBeVisible();
  expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
});
