/**
 * The landing preload (issue 12 LCP; vite.config.ts preloadLandingScreens): a full load of
 * `/programs` starts the screen's first API calls before the app's code has run, and the app takes
 * those answers instead of asking again, so each call goes out once; they are read before the first
 * render, so the screen is drawn once, with its content.
 */
import { join } from 'node:path';
import { expect, test } from '@playwright/test';
import { wholeEnglish } from '../../scripts/english-split';

test('a full load of /programs asks the server for each first call once, started by the preload script', async ({ page }) => {
  await page.goto('/auth/login');
  await page.getByRole('button', { name: 'Sign in' }).click();
  await expect(page.getByRole('heading', { name: 'Programs', exact: true })).toBeVisible();
  // The signed-in page's own calls (the chrome's shop, after its first render) end before counting starts.
  await page.waitForLoadState('networkidle');
  const asked: string[] = [];
  page.on('request', (r) => {
    const path = new URL(r.url()).pathname;
    if (path.startsWith('/api/')) asked.push(path);
  });
  // On a slow network the app's code takes most of a second to arrive: the calls must not wait for it.
  const cdp = await page.context().newCDPSession(page);
  await cdp.send('Network.enable');
  await cdp.send('Network.setCacheDisabled', { cacheDisabled: true });
  await cdp.send('Network.emulateNetworkConditions', { offline: false, latency: 150, downloadThroughput: (1.6 * 1024 * 1024) / 8, uploadThroughput: (750 * 1024) / 8 });
  // Whether a loading skeleton (the route's fallback, the table's loading rows) was ever drawn.
  await page.addInitScript(() => {
    const seen = { skeleton: false };
    (window as unknown as { __skeleton: typeof seen }).__skeleton = seen;
    new MutationObserver(() => {
      if (document.querySelector('.skeleton, [aria-busy="true"]')) seen.skeleton = true;
    }).observe(document, { childList: true, subtree: true });
  });
  await page.reload();
  await expect(page.getByRole('heading', { name: 'Programs', exact: true })).toBeVisible();
  await expect(page.locator('table').first()).toBeVisible();
  await page.waitForLoadState('networkidle');
  for (const path of ['/api/shops', '/api/platform/access', '/api/lp/programs/earning', '/api/kinds']) expect(asked.filter((p) => p === path), path).toHaveLength(1);
  // The preload script ran, and the app took every answer it prefetched.
  expect(await page.evaluate(() => (window.__loyaltyPrefetch ? Object.keys(window.__loyaltyPrefetch) : null))).toEqual([]);
  // The program list was asked for before the app's own code had arrived.
  const timing = await page.evaluate(() => {
    const entries = performance.getEntriesByType('resource') as PerformanceResourceTiming[];
    const app = entries.find((e) => /\/assets\/index-[^/]+\.js$/.test(e.name));
    const list = entries.find((e) => e.name.endsWith('/api/lp/programs/earning'));
    return { appArrived: app?.responseEnd ?? 0, listAsked: list?.startTime ?? Infinity };
  });
  expect(timing.listAsked).toBeLessThan(timing.appArrived);
  // The answers were in before the app's first render (ui/api/landing.ts): the screen was drawn
  // once, with its programs, never as a skeleton first.
  expect(await page.evaluate(() => (window as unknown as { __skeleton: { skeleton: boolean } }).__skeleton.skeleton)).toBe(false);
  await expect(page.getByRole('row', { name: /10 points for every/ })).toBeVisible();
});

test('the landing screen shows its texts from the bundled part of English, and the rest arrives after it', async ({ page }) => {
  await page.goto('/auth/login');
  await page.getByRole('button', { name: 'Sign in' }).click();
  await expect(page.getByRole('heading', { name: 'Programs', exact: true })).toBeVisible();
  // A slow network, so the landing screen is drawn well before the rest of English could arrive.
  const cdp = await page.context().newCDPSession(page);
  await cdp.send('Network.enable');
  await cdp.send('Network.setCacheDisabled', { cacheDisabled: true });
  await cdp.send('Network.emulateNetworkConditions', { offline: false, latency: 150, downloadThroughput: (1.6 * 1024 * 1024) / 8, uploadThroughput: (750 * 1024) / 8 });
  // Whether the rest of English is fetched at all (after the first render).
  let restAsked = false;
  page.on('request', (r) => {
    if (/\/assets\/en-rest-[^/]+\.js$/.test(new URL(r.url()).pathname)) restAsked = true;
  });
  await page.reload();
  await expect(page.getByRole('row', { name: /10 points for every/ })).toBeVisible();
  const shownFirst = await page.locator('body').innerText();
  const keys = Object.keys(await wholeEnglish(join(import.meta.dirname, '../..')));
  expect(keys.length).toBeGreaterThan(500);
  expect(keys.filter((key) => shownFirst.includes(key))).toEqual([]);
  await page.waitForLoadState('networkidle');
  expect(restAsked).toBe(true);
  // Another screen opened afterwards shows its own texts, not keys.
  await page.getByRole('link', { name: 'Customers' }).first().click();
  await expect(page.getByRole('heading', { name: 'Customers', exact: true })).toBeVisible();
  const shownThen = await page.locator('body').innerText();
  expect(keys.filter((key) => shownThen.includes(key))).toEqual([]);
});
