/**
 * Customers' e-mailed export and wallet pass in Chromium against the real server in demo mode
 * (issue 10, coverage rows CU9 and CU10): orders arrive as signed webhooks; the merchant sends the
 * list as CSV by e-mail (demo mode has no mail server, so the message lands in the app's outbox,
 * where its attachment is downloaded and read), designs the wallet pass with its live preview and
 * generates a customer's pass from the profile (the local adapter's card, downloaded and read).
 */
import { readFile } from 'node:fs/promises';
import { expect, test, type APIRequestContext, type Page } from '@playwright/test';
import { deliverOrder as deliverSignedOrder, idSeries } from './support/orders';

const ids = idSeries(2);
const run = ids.run;

/** Delivers an order webhook as the platform would, for a customer unique to this run; answers the e-mail. */
async function deliverOrder(request: APIRequestContext, n: number, price: string): Promise<string> {
  const email = `wallet.${run}.${n}@example.com`;
  await deliverSignedOrder(request, { id: ids.order(n), lineItemId: ids.lineItem(n), name: `#W${n}`, price, customer: { id: ids.customer(n), email, firstName: 'Pass', lastName: `Holder${n}` } });
  return email;
}

async function signIn(page: Page): Promise<void> {
  await page.goto('/auth/login');
  await page.getByRole('button', { name: 'Sign in' }).click();
  await expect(page.getByRole('heading', { name: 'Programs', exact: true })).toBeVisible();
}

/** Searches the customers list until the customer `email` has arrived (processing is queued). */
async function findCustomer(page: Page, email: string, name: string): Promise<void> {
  await expect(async () => {
    await page.getByRole('searchbox', { name: 'Search customers' }).fill(email);
    await page.getByRole('button', { name: 'Search' }).click();
    await expect(page.getByRole('link', { name })).toBeVisible({ timeout: 1000 });
  }).toPass({ timeout: 15_000 });
}

test('a merchant e-mails the list as CSV: a bad address is refused, the e-mail lands in the outbox with the customers', async ({ page, request }) => {
  const email = await deliverOrder(request, 1, '250.00');
  await signIn(page);
  await page.goto('/customers');
  await findCustomer(page, email, 'Pass Holder1');

  await page.getByRole('button', { name: 'Export', exact: true }).click();
  const dialog = page.getByRole('dialog', { name: 'Export customers' });
  await expect(dialog.getByText(`matching “${email}”`)).toBeVisible();
  const recipient = dialog.getByRole('textbox', { name: 'Send to' });
  await recipient.fill('not an address');
  await dialog.getByRole('button', { name: 'Send export' }).click();
  await expect(dialog.getByText('Enter a valid e-mail address')).toBeVisible();
  await recipient.fill(`ops.${run}@example.com`);
  await dialog.getByRole('button', { name: 'Send export' }).click();
  // Answered at once; the job sends it in the background and the list says so.
  await expect(page.getByText(`The export was e-mailed to ops.${run}@example.com`)).toBeVisible({ timeout: 15_000 });

  await page.goto('/customers/exports');
  await expect(page.getByRole('heading', { name: 'Customer exports' })).toBeVisible();
  const sent = page.getByRole('row', { name: new RegExp(`ops\\.${run}@example\\.com`) }).first();
  await expect(sent).toContainText('Sent');
  await expect(sent).toContainText('Attached');
  const outbox = page.locator('.card', { has: page.getByRole('heading', { name: 'Sent e-mails' }) });
  const download = page.waitForEvent('download');
  await outbox.getByRole('button', { name: /^Download customers-.*\.csv/ }).first().click();
  const csv = await readFile(await (await download).path(), 'utf8');
  expect(csv).toContain(email);
  expect(csv.split('\n').filter((line) => line.trim() !== '')).toHaveLength(2);
});

test('a merchant designs the wallet pass with its live preview and generates a customer pass from the profile', async ({ page, request }) => {
  const email = await deliverOrder(request, 2, '480.00');
  await signIn(page);
  await page.goto('/customers/wallet');
  await expect(page.getByRole('heading', { name: 'Wallet pass', exact: true })).toBeVisible();
  // The preview follows the form unsaved.
  await page.getByRole('textbox', { name: /^Title/ }).fill(`Board Club ${run}`);
  await expect(page.getByRole('figure', { name: `Wallet pass: Board Club ${run}` })).toBeVisible();
  await page.getByRole('button', { name: 'Save' }).click();
  await expect(page.getByRole('button', { name: 'Save' })).toBeHidden();

  await page.goto('/customers');
  await findCustomer(page, email, 'Pass Holder2');
  await page.getByRole('link', { name: 'Pass Holder2' }).click();
  await page.getByRole('button', { name: 'Generate wallet pass' }).click();
  const dialog = page.getByRole('dialog');
  const pass = dialog.getByRole('figure', { name: `Wallet pass: Board Club ${run}` });
  await expect(pass).toBeVisible();
  await expect(pass).toContainText('Pass Holder2');
  await expect(dialog.getByText('Google Wallet is not connected: the pass is an image to download.')).toBeVisible();
  const download = page.waitForEvent('download');
  await dialog.getByRole('link', { name: 'Download pass' }).click();
  const svg = await readFile(await (await download).path(), 'utf8');
  expect(svg).toMatch(/^<svg /);
  expect(svg).toContain(`Board Club ${run}`);
  expect(svg).toContain('Pass Holder2');
  await dialog.getByRole('button', { name: 'Close' }).click();

  // The list's bulk action makes the selected customers' passes at once.
  await page.goto('/customers');
  await findCustomer(page, email, 'Pass Holder2');
  await page.getByRole('checkbox', { name: /Pass Holder2/ }).check();
  await page.getByRole('button', { name: 'Generate wallet passes' }).click();
  const bulk = page.getByRole('dialog', { name: 'Wallet pass for 1 customer' });
  const line = bulk.getByRole('listitem').filter({ hasText: 'Pass Holder2' });
  const many = page.waitForEvent('download');
  await line.getByRole('link', { name: 'Download pass' }).click();
  expect(await readFile(await (await many).path(), 'utf8')).toContain('Pass Holder2');
});
