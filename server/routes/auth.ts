/**
 * Sign-in support outside /api:
 * - `GET /auth/config`: whether demo mode is on (the login page's choice)
 * - `POST /auth/demo-login` (demo mode only): a session token for the demo shop, and the standalone
 *   session cookie (server/auth.ts, 7200 s) so new tabs stay signed in
 * - `POST /auth/session`: the cookie traded for a fresh session token (401 `no_session` without one)
 * - `POST /auth/logout`: sign-out, the cookie cleared (spec 000 §7 "Sign-out … then to /auth/login")
 * - `GET /auth/install?shop=`: a standalone install starts (the platform's authorize page)
 * - `GET /auth/callback`: the install's return; verified (HMAC, one-time state), the token stored,
 *   the merchant signed in and sent into the app
 */
import type { Context } from 'hono';
import { Hono } from 'hono';
import { deleteCookie, getCookie, setCookie } from 'hono/cookie';
import { SESSION_COOKIE, SESSION_MAX_AGE_SECONDS, signSessionToken, signStandaloneSession, verifyStandaloneSession } from '../auth';
import { DEMO } from '../config';
import type { AppDeps } from '../deps';
import { ApiError } from '../errors';
import { beginInstall, completeInstall } from '../platform/access-tokens';

/** Session tokens handed out for a standalone session last at most this long (seconds); the cookie renews them. */
const TOKEN_TTL_SECONDS = 3600;

const isHttps = (c: Context): boolean => new URL(c.req.url).protocol === 'https:' || c.req.header('x-forwarded-proto') === 'https';

/** The app's public origin: APP_URL when set (behind a proxy), else the request's. */
const appOrigin = (c: Context): string => process.env.APP_URL?.trim().replace(/\/$/, '') || new URL(c.req.url).origin;

async function startSession(c: Context, deps: AppDeps, shopDomain: string): Promise<void> {
  const cookie = await signStandaloneSession(deps.auth, shopDomain, '1', Math.floor((deps.now?.() ?? new Date()).getTime() / 1000));
  setCookie(c, SESSION_COOKIE, cookie, { httpOnly: true, sameSite: 'Lax', path: '/', maxAge: SESSION_MAX_AGE_SECONDS, secure: isHttps(c) });
}

export function authRoutes(deps: AppDeps): Hono {
  const app = new Hono();
  app.get('/config', (c) => c.json({ demo: deps.auth.demo, shopDomain: deps.auth.demo ? DEMO.shopDomain : null }));
  app.post('/demo-login', async (c) => {
    if (!deps.auth.demo) throw new ApiError(404, 'demo_disabled', 'Demo sign-in is only available in demo mode');
    const token = await signSessionToken(deps.auth, DEMO.shopDomain);
    await startSession(c, deps, DEMO.shopDomain);
    return c.json({ token, shopDomain: DEMO.shopDomain });
  });
  app.post('/session', async (c) => {
    const session = await verifyStandaloneSession(deps.auth, getCookie(c, SESSION_COOKIE));
    const left = session.expiresAt - Math.floor(Date.now() / 1000);
    const token = await signSessionToken(deps.auth, session.shopDomain, session.userId || '1', Math.max(1, Math.min(TOKEN_TTL_SECONDS, left)));
    return c.json({ token, shopDomain: session.shopDomain, expiresAt: new Date(session.expiresAt * 1000).toISOString() });
  });
  app.post('/logout', (c) => {
    deleteCookie(c, SESSION_COOKIE, { path: '/', secure: isHttps(c) });
    return c.json({ ok: true });
  });
  app.get('/install', async (c) => {
    if (deps.auth.demo) throw new ApiError(404, 'demo_mode', 'Demo mode has no platform to install on');
    const url = await beginInstall(deps, c.req.query('shop') ?? '', `${appOrigin(c)}/auth/callback`, { b2b: c.req.query('b2b') === '1' });
    return c.redirect(url, 302);
  });
  app.get('/callback', async (c) => {
    if (deps.auth.demo) throw new ApiError(404, 'demo_mode', 'Demo mode has no platform to install on');
    const shopDomain = await completeInstall(deps, c.req.query());
    await startSession(c, deps, shopDomain);
    return c.redirect('/programs', 302);
  });
  return app;
}
