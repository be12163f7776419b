/**
 * The first-time setup wizard in Debian's Chromium against the real server in demo mode (issue 12;
 * spec 000 §2 "If the shop's setup is not done, a setup page replaces the app"; spec 002 §2 ST7):
 * a shop whose setup is not done sees the wizard instead of any other screen, walks earning →
 * redeeming → widget theme → done and lands on the dashboard; "Skip setup" is the way out; the
 * wizard works under `/embed` without chrome of its own and on a 390 px phone without sideways
 * scrolling. The demo shop is seeded set up, so each test marks it not done first (PUT /api/setup,
 * the merchant's "run the setup again") and puts the shop back as it found it at the end.
 */
import { expect, test, type APIRequestContext, type Page } from '@playwright/test';

type Doc = { id: string; version: number; data: Record<string, unknown> };
const TOUCHED = ['earning.sign_up', 'redeem.percentage_discount', 'storefront.widget_design'];

async function token(request: APIRequestContext): Promise<string> {
  return ((await (await request.post('/auth/demo-login')).json()) as { token: string }).token;
}

async function docs(request: APIRequestContext, auth: string, kind: string): Promise<Doc[]> {
  return ((await (await request.get(`/api/kinds/${kind}/docs`, { headers: { Authorization: `Bearer ${auth}` } })).json()) as { data: Doc[] }).data;
}

/** What the wizard may change in the shared demo shop, to put back afterwards. */
async function snapshot(request: APIRequestContext, auth: string): Promise<Record<string, Doc[]>> {
  return Object.fromEntries(await Promise.all(TOUCHED.map(async (kind) => [kind, await docs(request, auth, kind)] as const)));
}

/** Deletes what the wizard created, restores what it changed, and marks the setup done again. */
async function restore(request: APIRequestContext, auth: string, before: Record<string, Doc[]>): Promise<void> {
  const headers = { Authorization: `Bearer ${auth}` };
  for (const kind of TOUCHED) {
    for (const doc of await docs(request, auth, kind)) {
      const old = before[kind]!.find((d) => d.id === doc.id);
      if (!old) expect((await request.delete(`/api/kinds/${kind}/docs/${doc.id}`, { headers })).ok()).toBe(true);
      else if (doc.version !== old.version) expect((await request.put(`/api/kinds/${kind}/docs/${doc.id}`, { headers, data: { data: old.data, version: doc.version } })).ok()).toBe(true);
    }
  }
  expect((await request.put('/api/setup', { headers, data: { setupDone: true } })).ok()).toBe(true);
}

async function markNotDone(request: APIRequestContext, auth: string): Promise<void> {
  const res = await request.put('/api/setup', { headers: { Authorization: `Bearer ${auth}` }, data: { setupDone: false } });
  expect(res.ok()).toBe(true);
}

async function signIn(page: Page): Promise<void> {
  await page.goto('/auth/login');
  await page.getByRole('button', { name: 'Sign in' }).click();
  // Signed in once the app shows a screen: while the setup is not done, the wizard.
  await expect(page.getByRole('heading', { name: 'Set up your loyalty program', level: 1 })).toBeVisible();
}

const sideways = (page: Page) => page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);

test('a shop that is not set up walks the wizard (earning, redeeming, widget theme, done) and lands on the dashboard', async ({ page, request }) => {
  const auth = await token(request);
  const before = await snapshot(request, auth);
  await markNotDone(request, auth);
  try {
    await page.setViewportSize({ width: 390, height: 844 });
    await signIn(page);
    // Any screen is replaced by the wizard while the setup is not done.
    await expect(page.getByRole('heading', { name: 'Set up your loyalty program', level: 1 })).toBeVisible();
    await expect(page).toHaveURL(/\/set-up$/);
    await page.goto('/customers');
    await expect(page).toHaveURL(/\/set-up$/);
    const steps = page.getByRole('list', { name: 'Setup steps' });
    await expect(steps.locator('[aria-current="step"]')).toHaveText(/Earning/);
    expect(await sideways(page)).toBe(0);

    await page.getByRole('radio', { name: /Sign up/ }).check();
    await page.getByRole('button', { name: 'Turn on and continue' }).click();
    await expect(steps.locator('[aria-current="step"]')).toHaveText(/Redeeming/);

    await page.getByRole('radio', { name: /Percentage discount/ }).check();
    await page.getByRole('button', { name: 'Turn on and continue' }).click();
    await expect(steps.locator('[aria-current="step"]')).toHaveText(/Widget theme/);

    await page.getByRole('radio', { name: 'Forest' }).check();
    await page.getByRole('button', { name: 'Save and continue' }).click();
    await expect(steps.locator('[aria-current="step"]')).toHaveText(/Done/);
    await expect(page.getByText('An earning program is on')).toBeVisible();
    await expect(page.getByText('A reward is on')).toBeVisible();
    await expect(page.getByText("The widget's colors are saved")).toBeVisible();
    expect(await sideways(page)).toBe(0);

    // What the steps saved is ordinary data: the programs are on, the design has the preset's colours.
    expect((await docs(request, auth, 'earning.sign_up')).some((d) => d.data.status === true)).toBe(true);
    expect((await docs(request, auth, 'redeem.percentage_discount')).some((d) => d.data.status === true)).toBe(true);
    expect((await docs(request, auth, 'storefront.widget_design'))[0]?.data.colors).toMatchObject({ button: '#1f6f4a' });

    await page.getByRole('button', { name: 'Go to the dashboard' }).click();
    await expect(page.getByRole('heading', { name: 'Dashboard', level: 1 })).toBeVisible();
    // Done: the other screens are back.
    await page.goto('/customers');
    await expect(page.getByRole('heading', { name: 'Customers', level: 1 })).toBeVisible();
  } finally {
    await restore(request, auth, before);
  }
});

test('"Skip setup" is the way out, and the embedded wizard draws no chrome of its own', async ({ page, request }) => {
  const auth = await token(request);
  const before = await snapshot(request, auth);
  await markNotDone(request, auth);
  try {
    await signIn(page);
    await page.goto('/embed/programs?shop=demo-shop.myshopify.com');
    await expect(page.getByRole('heading', { name: 'Set up your loyalty program', level: 1 })).toBeVisible();
    await expect(page).toHaveURL(/\/embed\/set-up/);
    await expect(page.locator('.topbar')).toHaveCount(0);
    await expect(page.getByRole('navigation', { name: 'Main' })).toHaveCount(0);

    await page.getByRole('button', { name: 'Skip setup' }).click();
    await expect(page.getByRole('heading', { name: 'Dashboard', level: 1 })).toBeVisible();
    const state = (await (await request.get('/api/setup', { headers: { Authorization: `Bearer ${auth}` } })).json()) as { data: { setupDone: boolean } };
    expect(state.data.setupDone).toBe(true);
  } finally {
    await restore(request, auth, before);
  }
});
