/**
 * Accessibility of the shell's screens (issue 12 "axe-core finds no serious or critical violation
 * on the dashboard, settings, plans and dev-zone pages"): axe-core runs every rule it has (WCAG 2.x
 * A and AA and its best practices) on each page once its data has loaded, standalone and under
 * `/embed`, and the test fails on any violation of serious or critical impact, naming the rule and
 * the elements. The setup wizard and the dev zone's create dialog are checked too. The one
 * recommended app it adds (so the dev zone shows its list) is removed at the end.
 */
import AxeBuilder from '@axe-core/playwright';
import { expect, test, type Page } from '@playwright/test';

/** Each page and what shows once its data has loaded (axe must see the real content, not skeletons). */
const PAGES: { path: string; heading: string; ready: (page: Page) => Promise<void> }[] = [
  { path: '/', heading: 'Dashboard', ready: (page) => expect(page.locator('.checklist')).toBeVisible() },
  { path: '/settings', heading: 'Settings', ready: (page) => expect(page.locator('#settings-order')).toBeVisible() },
  { path: '/settings/subscription/plans', heading: 'Pricing plans', ready: (page) => expect(page.locator('.plan-grid')).toBeVisible() },
  { path: '/dev_zone/recommended_apps_manager', heading: 'Recommended Apps Manager', ready: (page) => expect(page.getByTestId('recommended-app').first()).toBeVisible() },
  { path: '/set-up', heading: 'Set up your loyalty program', ready: (page) => expect(page.getByRole('radio').first()).toBeVisible() },
  { path: '/customers/segments', heading: 'Customer segments', ready: (page) => expect(page.getByRole('checkbox', { name: 'Dormant' })).toBeVisible() },
];

const A11Y_APP = 'A11y check app';

/** One recommended app, so the dev zone shows its list (and the dashboard its card), not the empty state. */
async function withApp(page: Page, create: boolean): Promise<void> {
  await page.evaluate(
    async ({ title, create }) => {
      const headers = { Authorization: `Bearer ${sessionStorage.getItem('loyalty.sessionToken')}`, 'Content-Type': 'application/json' };
      const list = (await (await fetch('/api/recommended-apps', { headers })).json()) as { data: { id: string; title: string }[] };
      for (const app of list.data.filter((a) => a.title === title)) await fetch(`/api/recommended-apps/${app.id}`, { method: 'DELETE', headers });
      if (!create) return;
      const body = { title, description: 'Checks the list for accessibility.', img: 'https://cdn.example.com/logo.png', appStoreUrl: 'https://apps.example.com/a11y', type: 'appInstall', isActive: true };
      await fetch('/api/recommended-apps', { method: 'POST', headers, body: JSON.stringify(body) });
    },
    { title: A11Y_APP, create },
  );
}

/** Serious and critical violations of axe's rules on the page as it is now. */
async function violations(page: Page, where: string): Promise<string[]> {
  const results = await new AxeBuilder({ page }).analyze();
  return results.violations
    .filter((v) => v.impact === 'serious' || v.impact === 'critical')
    .map((v) => `${where}: ${v.id} (${v.impact}) ${v.help} — ${v.nodes.map((n) => n.target.join(' ')).slice(0, 5).join(', ')}`);
}

async function signIn(page: Page): Promise<void> {
  await page.goto('/auth/login');
  await page.getByRole('button', { name: 'Sign in' }).click();
  // Where sign-in lands: any level-1 heading would also match the sign-in page's own, before the
  // session token is stored.
  await expect(page.getByRole('heading', { name: 'Programs', exact: true, level: 1 })).toBeVisible();
}

const embedded = (path: string) => `/embed${path === '/' ? '' : path}?shop=demo-shop.myshopify.com`;

test('the dashboard, settings, plans and dev-zone pages have no serious or critical axe violations', async ({ page }) => {
  test.setTimeout(180_000);
  await signIn(page);
  await withApp(page, true);
  const problems: string[] = [];
  try {
    for (const target of PAGES) {
      for (const path of [target.path, embedded(target.path)]) {
        await page.goto(path);
        await expect(page.getByRole('heading', { name: target.heading, level: 1 })).toBeVisible();
        await target.ready(page);
        problems.push(...(await violations(page, path)));
      }
    }
    // The dev zone's create dialog, open.
    await page.goto('/dev_zone/recommended_apps_manager');
    await page.getByRole('button', { name: 'Create New App' }).click();
    await expect(page.getByRole('dialog')).toBeVisible();
    problems.push(...(await violations(page, 'create app dialog')));
  } finally {
    await withApp(page, false);
  }
  expect(problems).toEqual([]);
});
