/**
 * Every route of spec 000 §2 resolves, standalone and under `/embed`, on a desktop (1440 × 900)
 * and a phone (390 × 844): each shows a screen with its heading, none shows Not Found, and none
 * scrolls sideways (issue 12). The list is the spec's, written out here rather than read from the
 * app's route table, so a route the app forgets fails.
 */
import { expect, test, type APIRequestContext, type Page } from '@playwright/test';

const NOT_FOUND = "The page you're looking for couldn't be found";

/** `:id` routes take a real document's id (an unknown id rightly answers Not Found). */
const SPEC_ROUTES = (ids: { program: string; tier: string }) => [
  // Customers
  '/customers', '/customers/migration', '/customers/wallet', '/customers/wallet/google', '/customers/history', '/customers/profile/123', '/customers/whitelist/referral', '/customers/activity', '/customers/notifications/manage',
  // Customer segments (spec 002 §2 RFM groups; the app's own screen for them)
  '/customers/segments',
  // Programs
  '/programs', '/programs?type=tier', '/programs/point', `/programs/point/${ids.program}`, '/programs/place_order/new', '/programs/tier/create', `/programs/tier/${ids.tier}`, `/programs/edit-settings/${ids.program}`, '/programs/referral', '/programs/referral/friendReward', '/programs/referral/customerReward',
  // Storefront and branding
  '/storefront', '/storefront/way-to-earn', '/storefront/vip-tier', '/storefront/way-to-redeem', '/storefront/donation', '/storefront/faqs', '/storefront/calculator', '/storefront/some-page',
  ...['point', 'customer-invite', 'referral', 'referral-v1', 'signup-widget', 'signup-block', 'checkout-discount', 'interact-website', 'reminder'].map((p) => `/storefront/branding/${p}`),
  // Notifications and settings
  '/settings/notifications', '/settings/notifications/points-earned', '/settings', '/settings/translations/editor?type=widget-design',
  // Integrations
  '/integration',
  ...['theme', 'review/app/yopto', 'stamped', 'loox', 'judgeme', 'fera', 'airReviews', 'subscription', 'subscription/shopify', 'recharge-subscriptions', 'order-limit', 'gorgias', 'transcy', 'pushowl', 'pageFly', 'shopifyFlow', 'klaviyo', 'drip', 'mailchimp', 'omnisend', 'chatty', 'tidio', 'sendlane', 'shopifyForm'].map((p) => `/integration/${p}`),
  // Analytics
  '/analytics', '/analytics/loyalty-programs', '/analytics/point', '/analytics/member', '/analytics/referral',
  // Shell and billing
  '/', '/home', '/set-up', '/customize_plan', '/billing-dashboard', '/downSell', '/subscription', '/subscription/billing', '/settings/subscription/plans', '/gift', '/membership', '/membership/vip', '/membership/exclusive-deal', '/membership/subscription', `/membership/tier-reward/${ids.tier}`, '/wholesale/vip', '/wholesale/privileges/no-such-tier', '/discount/fn-1/discount-1', '/feature-request', '/feedback', '/landing-page', '/ai-agent', '/translations',
];

const VIEWPORTS = [
  { name: 'desktop', width: 1440, height: 900 },
  { name: 'phone', width: 390, height: 844 },
];

/** The demo shop's place-order program and a tier (created when the shop has none). */
async function documentIds(request: APIRequestContext): Promise<{ program: string; tier: string }> {
  const { token } = (await (await request.post('/auth/demo-login')).json()) as { token: string };
  const headers = { Authorization: `Bearer ${token}` };
  const first = async (kind: string) => ((await (await request.get(`/api/kinds/${kind}/docs`, { headers })).json()) as { data: { id: string }[] }).data[0]?.id;
  let tier = await first('tier.tier');
  if (!tier) {
    const res = await request.post('/api/kinds/tier.tier/docs', { headers, data: { data: { name: 'Bronze' } } });
    expect(res.status()).toBe(201);
    tier = ((await res.json()) as { data: { id: string } }).data.id;
  }
  const program = await first('earning.place_order');
  expect(program).toBeTruthy();
  return { program: program!, tier };
}

async function signIn(page: Page): Promise<void> {
  await page.goto('/auth/login');
  await page.getByRole('button', { name: 'Sign in' }).click();
  await expect(page.getByRole('heading', { name: 'Programs', exact: true })).toBeVisible();
}

/** Where `route` lands under `prefix` (embedded pages carry the shop, as the platform's admin sends them). */
function url(prefix: '' | '/embed', route: string): string {
  if (!prefix) return route;
  const [path, query] = route.split('?');
  return `/embed${path === '/' ? '' : path}?${['shop=demo-shop.myshopify.com', query].filter(Boolean).join('&')}`;
}

for (const viewport of VIEWPORTS) {
  test(`every spec route shows its screen without sideways scrolling (${viewport.name} ${viewport.width} × ${viewport.height})`, async ({ page, request }) => {
    test.setTimeout(300_000);
    const routes = SPEC_ROUTES(await documentIds(request));
    await page.setViewportSize({ width: viewport.width, height: viewport.height });
    await signIn(page);
    const problems: string[] = [];
    for (const prefix of ['', '/embed'] as const) {
      for (const route of routes) {
        const target = url(prefix, route);
        await page.goto(target);
        const heading = page.locator('h1').first();
        try {
          await expect(heading).toBeVisible({ timeout: 10_000 });
        } catch {
          problems.push(`${target}: no heading`);
          continue;
        }
        if ((await heading.innerText()).includes(NOT_FOUND)) problems.push(`${target}: Not Found`);
        const overflow = await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);
        if (overflow > 0) problems.push(`${target}: scrolls sideways by ${overflow}px`);
      }
    }
    expect(problems).toEqual([]);
  });
}

test('each side navigation item reaches its screen', async ({ page }) => {
  await signIn(page);
  for (const [name, heading] of [
    ['Dashboard', 'Dashboard'],
    ['Customers', 'Customers'],
    ['Reward programs', 'Programs'],
    ['Membership', 'Membership'],
    ['Onsite', 'Widget design'],
    ['Analytics', 'Analytics'],
    ['Integrations', 'Integrations'],
    ['Settings', 'Settings'],
  ] as const) {
    await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name }).click();
    await expect(page.getByRole('heading', { name: heading, level: 1 })).toBeVisible();
    await expect(page.getByText(NOT_FOUND)).toHaveCount(0);
  }
});
