/**
 * The customer import wizard in Chromium against the real server in demo mode (issue 10, spec 002
 * §2 Migration wizard): from the customers list's Import action, a CSV with one bad row goes
 * through upload → map columns → tier rule → ready → migrating → completed; the counts show, the
 * bad row's CSV downloads with its row number and reason, the history lists the import, the
 * imported customer is in the list and exports back as CSV, the list pages through them and
 * exports the selected page, and the mapping step fits a 390 px phone.
 */
import { readFileSync } from 'node:fs';
import { expect, test, type Page } from '@playwright/test';

const run = Date.now() % 1_000_000_000;
const PAGER_ROWS = 11;

async function signIn(page: Page): Promise<void> {
  await page.goto('/auth/login');
  await page.getByRole('button', { name: 'Sign in' }).click();
  await expect(page.getByRole('heading', { name: 'Programs', exact: true })).toBeVisible();
}

function csvFile(): { name: string; mimeType: string; buffer: Buffer } {
  const text = [
    'Customer ID,Email,Phone,First Name,Last Name,Points,Birthday,Tier',
    `${7_700_000_000_000 + run},imp.${run}.a@example.com,'+15551230000,Importa,Primera,150,04/01,`,
    `${7_700_000_000_001 + run},imp.${run}.b@example.com,,Importb,Segunda,-5,,`,
    `${7_700_000_000_002 + run},imp.${run}.c@example.com,,Importc,Tercera,20,12/31,`,
    // Eleven more, all named Pager<run>, for the list's pages and bulk export.
    ...Array.from({ length: PAGER_ROWS }, (_, i) => `${7_700_000_000_100 + run + i},imp.${run}.p${i}@example.com,,Pager${run},P${String(i).padStart(2, '0')},${i},,`),
  ].join('\n');
  return { name: `import-${run}.csv`, mimeType: 'text/csv', buffer: Buffer.from(text) };
}

test('a merchant imports customers, sees the bad row and downloads the error report', async ({ page }) => {
  await signIn(page);
  await page.goto('/customers');
  await page.getByRole('link', { name: 'Import', exact: true }).click();
  await expect(page.getByRole('heading', { name: 'Import customers' })).toBeVisible();

  await page.getByLabel('CSV file').setInputFiles(csvFile());
  await page.getByRole('button', { name: 'Upload', exact: true }).click();

  // Map columns: the guess is shown per header, with the first rows under it.
  await expect(page.getByRole('heading', { name: 'Map data columns' })).toBeVisible();
  await expect(page.getByLabel('Field for the column Email')).toHaveValue('email');
  await expect(page.getByLabel('Field for the column Points')).toHaveValue('points');
  await expect(page.getByRole('table', { name: 'First rows of the file' })).toContainText(`imp.${run}.b@example.com`);
  await page.getByRole('button', { name: 'Next' }).click();

  await expect(page.getByRole('heading', { name: 'Tier rule' })).toBeVisible();
  await page.getByRole('button', { name: 'Next' }).click();
  await expect(page.getByRole('heading', { name: 'Ready to import' })).toBeVisible();
  await page.getByRole('button', { name: 'Start import' }).click();

  await expect(page.getByRole('heading', { name: 'Import completed' })).toBeVisible({ timeout: 30_000 });
  await expect(page.getByTestId('import-imported')).toHaveText(String(2 + PAGER_ROWS));
  await expect(page.getByTestId('import-failed')).toHaveText('1');

  const downloadPromise = page.waitForEvent('download');
  await page.getByRole('button', { name: 'Download bad rows (CSV)' }).click();
  const download = await downloadPromise;
  const report = readFileSync((await download.path())!, 'utf8');
  expect(report.split('\r\n')[0]).toBe('Row,Reason,Customer ID,Email,Phone,First Name,Last Name,Points,Birthday,Tier');
  expect(report).toContain(`3,"Points must be a whole number from 0 to 1,000,000,000",${7_700_000_000_001 + run},imp.${run}.b@example.com`);

  // The history lists it; the customers are in the list with their points.
  await expect(page.getByRole('table', { name: 'Import history' })).toContainText(`import-${run}.csv`);
  await page.goto(`/customers?search=${encodeURIComponent(`imp.${run}.a@example.com`)}`);
  await expect(page.getByRole('link', { name: 'Importa Primera' })).toBeVisible();
  await expect(page.getByRole('row', { name: /Importa Primera/ })).toContainText('150');

  // Export (e-mailed by default) also downloads the list's current search as CSV at once, fetched
  // with the session token.
  await page.getByRole('button', { name: 'Export', exact: true }).click();
  const exportPromise = page.waitForEvent('download');
  await page.getByRole('dialog', { name: 'Export customers' }).getByRole('button', { name: 'Download the CSV now instead' }).click();
  const exported = readFileSync((await (await exportPromise).path())!, 'utf8').replace(/^\uFEFF/, '').split('\r\n');
  expect(exported[0]).toBe('Customer ID,Email,Phone,First Name,Last Name,Points,Birthday,Tier,Type,Last Update');
  expect(exported[1]).toMatch(new RegExp(`^${7_700_000_000_000 + run},imp\\.${run}\\.a@example\\.com,'\\+15551230000,Importa,Primera,150,04/01,`));
  expect(exported).toHaveLength(3);

  // Pages of 10 through the cursor, then the bulk export of the selected page.
  await page.goto(`/customers?search=pager${run}&limit=10&sort=points_asc`);
  const pagerRows = page.getByRole('row', { name: new RegExp(`Pager${run}`) });
  await expect(pagerRows).toHaveCount(10);
  await expect(pagerRows.first()).toContainText('P00');
  await page.getByRole('button', { name: 'Next', exact: true }).click();
  await expect(pagerRows).toHaveCount(1);
  await expect(pagerRows.first()).toContainText('P10');
  await page.getByRole('button', { name: 'Previous', exact: true }).click();
  await expect(pagerRows).toHaveCount(10);
  const bulk = page.getByRole('group', { name: 'Bulk actions' });
  await bulk.getByRole('checkbox').check();
  await bulk.getByRole('button', { name: 'Export', exact: true }).click();
  const selectedPromise = page.waitForEvent('download');
  await page.getByRole('dialog', { name: 'Export customers' }).getByRole('button', { name: 'Download the CSV now instead' }).click();
  const selectedRows = readFileSync((await (await selectedPromise).path())!, 'utf8').replace(/^\uFEFF/, '').split('\r\n');
  expect(selectedRows.slice(1, -1).map((line) => line.split(',')[1])).toEqual(Array.from({ length: 10 }, (_, i) => `imp.${run}.p${i}@example.com`));
});

test('the mapping step fits a phone and works under /embed', async ({ page }) => {
  await signIn(page);
  await page.setViewportSize({ width: 390, height: 844 });
  await page.goto('/embed/customers/import');
  await expect(page.getByRole('heading', { name: 'Import customers' })).toBeVisible();
  await page.getByLabel('CSV file').setInputFiles(csvFile());
  await page.getByRole('button', { name: 'Upload', exact: true }).click();
  await expect(page.getByRole('heading', { name: 'Map data columns' })).toBeVisible();
  expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
});
