/**
 * Signing a browser test in without the sign-in screen, for tests about something else: the demo
 * sign-in is posted through the page's own browser context, which keeps the standalone session
 * cookie (7200 s, server/routes/auth.ts) as a returning merchant's browser would. The first page the
 * test opens then finds no token in this tab, trades the cookie for one at /auth/login and goes on
 * to the page asked for — one page load instead of the sign-in screen's two. The sign-in screen
 * itself is tested where it is the subject (setup.spec.ts, routes.spec.ts and the others).
 */
import { expect, type Page } from '@playwright/test';

/** Signs `page`'s context in as the demo shop; resolves to a session token for direct API calls. */
export async function signInWithCookie(page: Page): Promise<string> {
  const res = await page.request.post('/auth/demo-login');
  expect(res.ok(), await res.text()).toBe(true);
  return ((await res.json()) as { token: string }).token;
}
