/**
 * Install and platform access (issue 12): token exchange and the standalone authorization-code
 * install against a local fake of the platform's token endpoint (never the network), tokens
 * encrypted at rest with a rotatable key list, revocation, and the standalone session cookie
 * (spec 000 §9: max-age 7200 s) that keeps a new tab signed in.
 */
import { randomBytes } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { createApp } from '../../server/app';
import { signSessionToken } from '../../server/auth';
import { DEMO } from '../../server/config';
import type { AppDeps } from '../../server/deps';
import {
  ACCESS_SCOPES,
  accessStatus,
  accessToken,
  parseTokenKeys,
  queryHmac,
  revokeAccessToken,
  rotateAccessTokens,
  storeAccessToken,
  type TokenKey,
} from '../../server/platform/access-tokens';
import { ensureShop } from '../../server/store/shops';
import { AUTH, openTestDatabase, repoRegistry, SHOP } from '../support/app';

const key = (id: string): TokenKey => ({ id, key: randomBytes(32) });

/** A fake token endpoint: records each request, answers `{ access_token, scope }` or a status. */
function tokenEndpoint(answer: { status?: number; token?: string } = {}) {
  const requests: { url: string; body: Record<string, string> }[] = [];
  const fetch = (url: string, init?: RequestInit): Promise<Response> => {
    requests.push({ url, body: JSON.parse(String(init?.body)) as Record<string, string> });
    if (answer.status) return Promise.resolve(new Response('{"error":"invalid_subject_token"}', { status: answer.status }));
    return Promise.resolve(new Response(JSON.stringify({ access_token: answer.token ?? 'shpat_fresh', scope: ACCESS_SCOPES.join(',') }), { status: 200 }));
  };
  return { requests, fetch };
}

async function setup(options: { keys?: TokenKey[]; endpoint?: ReturnType<typeof tokenEndpoint>; demo?: boolean } = {}) {
  const db = await openTestDatabase();
  const auth = options.demo ? { apiKey: DEMO.apiKey, apiSecret: DEMO.apiSecret, demo: true } : AUTH;
  const shop = options.demo ? DEMO.shopDomain : SHOP;
  await ensureShop(db, shop, new Date().toISOString());
  const deps: AppDeps = { db, registry: repoRegistry(), auth, accessTokens: { ...(options.endpoint ? { fetch: options.endpoint.fetch } : {}), keys: options.keys ?? [key('k1')] } };
  const app = createApp(deps);
  const token = await signSessionToken(auth, shop);
  const api = (method: string, path: string) => app.request(path, { method, headers: { Authorization: `Bearer ${token}` } });
  return { db, deps, app, token, api };
}

describe('token exchange (embedded)', () => {
  it('trades the session token for an offline access token and stores it encrypted', async () => {
    const endpoint = tokenEndpoint({ token: 'shpat_secret_value' });
    const { db, deps, api, token } = await setup({ endpoint });
    const res = await api('POST', '/api/platform/access/exchange');
    expect(res.status).toBe(200);
    expect(((await res.json()) as { data: unknown }).data).toMatchObject({ state: 'ok', needsReinstall: false, missingScopes: [] });
    expect(endpoint.requests[0]).toMatchObject({
      url: `https://${SHOP}/admin/oauth/access_token`,
      body: {
        client_id: AUTH.apiKey,
        grant_type: 'urn:ietf:params:oauth:grant-type:token-exchange',
        subject_token: token,
        subject_token_type: 'urn:ietf:params:oauth:token-type:id_token',
        requested_token_type: 'urn:shopify:params:oauth:token-type:offline-access-token',
      },
    });
    const row = await db.selectFrom('shop_access_tokens').selectAll().where('shop_id', '=', SHOP).executeTakeFirstOrThrow();
    expect(row.ciphertext).not.toContain('shpat');
    expect(row.key_id).toBe('k1');
    expect(await accessToken(deps, SHOP)).toBe('shpat_secret_value');
  });

  it('answers reinstall_required when the platform refuses the exchange', async () => {
    const { api } = await setup({ endpoint: tokenEndpoint({ status: 400 }) });
    const res = await api('POST', '/api/platform/access/exchange');
    expect(res.status).toBe(401);
    expect(await res.json()).toMatchObject({ error: { code: 'reinstall_required' } });
  });
});

describe('stored tokens', () => {
  it('throws 401 reinstall_required for a shop without a token, and after revocation', async () => {
    const { deps, db, api } = await setup();
    await expect(accessToken(deps, SHOP)).rejects.toMatchObject({ status: 401, code: 'reinstall_required' });
    expect(((await (await api('GET', '/api/platform/access')).json()) as { data: unknown }).data).toMatchObject({ state: 'missing', needsReinstall: true });
    await storeAccessToken(deps, SHOP, 'shpat_1', [...ACCESS_SCOPES]);
    expect(await accessToken(deps, SHOP)).toBe('shpat_1');
    await revokeAccessToken(db, SHOP);
    await expect(accessToken(deps, SHOP)).rejects.toMatchObject({ code: 'reinstall_required' });
    const row = await db.selectFrom('shop_access_tokens').selectAll().executeTakeFirstOrThrow();
    expect(row.ciphertext).toBeNull();
    expect(await accessStatus(deps, SHOP)).toMatchObject({ state: 'revoked', needsReinstall: true });
  });

  it('does not decrypt a ciphertext copied to another shop', async () => {
    const { deps, db } = await setup();
    await storeAccessToken(deps, SHOP, 'shpat_1', []);
    const row = await db.selectFrom('shop_access_tokens').selectAll().executeTakeFirstOrThrow();
    await db.insertInto('shop_access_tokens').values({ ...row, shop_id: 'other.myshopify.com' }).execute();
    await expect(accessToken(deps, 'other.myshopify.com')).rejects.toMatchObject({ code: 'reinstall_required' });
  });

  it('rotates keys: a new first key encrypts, the old one still decrypts, and rows move to the new key', async () => {
    const k1 = key('k1');
    const k2 = key('k2');
    const { deps, db } = await setup({ keys: [k1] });
    await storeAccessToken(deps, SHOP, 'shpat_a', []);
    await ensureShop(db, 'second.myshopify.com', new Date().toISOString());
    await storeAccessToken(deps, 'second.myshopify.com', 'shpat_b', []);
    const rotated: AppDeps = { ...deps, accessTokens: { keys: [k2, k1] } };
    // Reading re-encrypts with the first key on the way.
    expect(await accessToken(rotated, SHOP)).toBe('shpat_a');
    expect((await db.selectFrom('shop_access_tokens').select('key_id').where('shop_id', '=', SHOP).executeTakeFirstOrThrow()).key_id).toBe('k2');
    expect(await rotateAccessTokens(rotated)).toEqual({ rotated: 1, unreadable: 0 });
    // With the old key dropped, both tokens still read.
    const onlyNew: AppDeps = { ...deps, accessTokens: { keys: [k2] } };
    expect(await accessToken(onlyNew, 'second.myshopify.com')).toBe('shpat_b');
    // Without the key that encrypted it, a token is unreadable: the shop must reinstall.
    await expect(accessToken({ ...deps, accessTokens: { keys: [key('k3')] } }, SHOP)).rejects.toMatchObject({ code: 'reinstall_required' });
  });

  it('parses the ACCESS_TOKEN_KEYS list and refuses a short key', () => {
    const material = randomBytes(32).toString('base64');
    expect(parseTokenKeys(`new:${material}, old:${material}`).map((k) => k.id)).toEqual(['new', 'old']);
    expect(() => parseTokenKeys('bad:AAAA')).toThrow(/32 bytes/);
  });
});

describe('standalone install (authorization code)', () => {
  const callbackQuery = (params: Record<string, string>, secret = AUTH.apiSecret) => new URLSearchParams({ ...params, hmac: queryHmac(params, secret) }).toString();

  it('redirects to the authorize page with the declared scopes and a state, and completes with a verified callback', async () => {
    const endpoint = tokenEndpoint({ token: 'shpat_installed' });
    const { app, deps } = await setup({ endpoint });
    const start = await app.request(`/auth/install?shop=${SHOP}`);
    expect(start.status).toBe(302);
    const authorize = new URL(start.headers.get('location') ?? '');
    expect(authorize.origin + authorize.pathname).toBe(`https://${SHOP}/admin/oauth/authorize`);
    expect(authorize.searchParams.get('scope')).toBe(ACCESS_SCOPES.join(','));
    expect(authorize.searchParams.get('redirect_uri')).toBe('http://localhost/auth/callback');
    const state = authorize.searchParams.get('state') ?? '';
    expect(state.length).toBeGreaterThan(20);

    const params = { code: 'auth-code-1', shop: SHOP, state, timestamp: String(Math.floor(Date.now() / 1000)) };
    const done = await app.request(`/auth/callback?${callbackQuery(params)}`);
    expect(done.status).toBe(302);
    expect(done.headers.get('location')).toBe('/programs');
    expect(done.headers.get('set-cookie')).toMatch(/loyalty_session=.+Max-Age=7200.*HttpOnly/);
    expect(endpoint.requests[0]).toMatchObject({ url: `https://${SHOP}/admin/oauth/access_token`, body: { client_id: AUTH.apiKey, client_secret: AUTH.apiSecret, code: 'auth-code-1' } });
    expect(await accessToken(deps, SHOP)).toBe('shpat_installed');

    // The state works once.
    const replay = await app.request(`/auth/callback?${callbackQuery(params)}`);
    expect(replay.status).toBe(400);
    expect(endpoint.requests).toHaveLength(1);
  });

  it('refuses a callback with a wrong HMAC, an unknown state or a foreign shop', async () => {
    const endpoint = tokenEndpoint();
    const { app } = await setup({ endpoint });
    const start = await app.request(`/auth/install?shop=${SHOP}`);
    const state = new URL(start.headers.get('location') ?? '').searchParams.get('state') ?? '';
    const forged = await app.request(`/auth/callback?${callbackQuery({ code: 'c', shop: SHOP, state, timestamp: '1' }, 'not-the-secret')}`);
    expect(forged.status).toBe(400);
    expect(await forged.json()).toMatchObject({ error: { code: 'invalid_install' } });
    expect((await app.request(`/auth/callback?${callbackQuery({ code: 'c', shop: SHOP, state: 'made-up', timestamp: '1' })}`)).status).toBe(400);
    expect((await app.request(`/auth/callback?${callbackQuery({ code: 'c', shop: 'evil.myshopify.com', state, timestamp: '1' })}`)).status).toBe(400);
    expect(endpoint.requests).toHaveLength(0);
  });

  it('refuses to start an install for something that is not a shop domain', async () => {
    const { app } = await setup();
    expect((await app.request('/auth/install?shop=evil.example.com')).status).toBe(400);
  });
});

describe('standalone session and sign-out (spec 000 §7, §9)', () => {
  const cookieOf = (res: Response): string => (res.headers.get('set-cookie') ?? '').split(';')[0] ?? '';

  it('keeps a new tab signed in through the 7200 s session cookie, and signs out', async () => {
    const { app } = await setup({ demo: true });
    const login = await app.request('/auth/demo-login', { method: 'POST' });
    expect(login.headers.get('set-cookie')).toMatch(/Max-Age=7200/);
    const cookie = cookieOf(login);
    // A new tab: no token, only the cookie.
    const restored = await app.request('/auth/session', { method: 'POST', headers: { Cookie: cookie } });
    expect(restored.status).toBe(200);
    const { token, shopDomain } = (await restored.json()) as { token: string; shopDomain: string };
    expect(shopDomain).toBe(DEMO.shopDomain);
    expect((await app.request('/api/shops', { headers: { Authorization: `Bearer ${token}` } })).status).toBe(200);

    const logout = await app.request('/auth/logout', { method: 'POST', headers: { Cookie: cookie } });
    expect(logout.headers.get('set-cookie')).toMatch(/loyalty_session=;.*Max-Age=0/);
    expect((await app.request('/auth/session', { method: 'POST' })).status).toBe(401);
  });

  it('never accepts the cookie session as a bearer session token', async () => {
    const { app } = await setup({ demo: true });
    const cookie = cookieOf(await app.request('/auth/demo-login', { method: 'POST' }));
    const jwt = cookie.split('=')[1] ?? '';
    expect((await app.request('/api/shops', { headers: { Authorization: `Bearer ${jwt}` } })).status).toBe(401);
  });
});
