import { SignJWT } from 'jose';
import { describe, expect, it } from 'vitest';
import { AUTH, makeApp, SHOP } from '../support/app';

type Claims = Record<string, unknown>;

async function token(claims: Claims = {}, opts: { secret?: string; alg?: string } = {}): Promise<string> {
  const now = Math.floor(Date.now() / 1000);
  return new SignJWT({ iss: `https://${SHOP}/admin`, dest: `https://${SHOP}`, aud: AUTH.apiKey, sub: '42', exp: now + 60, nbf: now - 1, iat: now, ...claims })
    .setProtectedHeader({ alg: opts.alg ?? 'HS256' })
    .sign(new TextEncoder().encode(opts.secret ?? AUTH.apiSecret));
}

async function status(bearer: string | null): Promise<number> {
  const { app } = await makeApp();
  const res = await app.request('/api/shops', { headers: bearer === null ? {} : { Authorization: `Bearer ${bearer}` } });
  return res.status;
}

describe('session tokens', () => {
  it('accepts a valid HS256 token and takes the shop from dest', async () => {
    const { app } = await makeApp();
    const res = await app.request('/api/shops', { headers: { Authorization: `Bearer ${await token()}` } });
    expect(res.status).toBe(200);
    expect(((await res.json()) as { shop: { domain: string } }).shop.domain).toBe(SHOP);
  });

  it('refuses a request without a token', async () => {
    expect(await status(null)).toBe(401);
  });

  it('refuses a token signed with another secret', async () => {
    expect(await status(await token({}, { secret: 'someone-else' }))).toBe(401);
  });

  it('refuses a token for another app (aud)', async () => {
    expect(await status(await token({ aud: 'other-app' }))).toBe(401);
  });

  it('refuses an algorithm other than HS256', async () => {
    expect(await status(await token({}, { alg: 'HS512' }))).toBe(401);
  });

  it('tolerates 10 seconds of clock skew, not more', async () => {
    const now = Math.floor(Date.now() / 1000);
    expect(await status(await token({ exp: now - 5 }))).toBe(200);
    expect(await status(await token({ exp: now - 30 }))).toBe(401);
    expect(await status(await token({ nbf: now + 30 }))).toBe(401);
  });

  it('refuses a token whose issuer is another shop than dest', async () => {
    expect(await status(await token({ iss: 'https://evil.myshopify.com/admin' }))).toBe(401);
  });

  it('keeps tenants apart: another shop sees none of this shop’s programs', async () => {
    const { app, call } = await makeApp();
    await call('POST', '/api/kinds/earning.sign_up/docs', { data: { title: 'Mine' } });
    const other = await token({ iss: 'https://other.myshopify.com/admin', dest: 'https://other.myshopify.com' });
    const res = await app.request('/api/lp/programs/earning', { headers: { Authorization: `Bearer ${other}` } });
    expect(((await res.json()) as { data: unknown[] }).data).toEqual([]);
  });
});
