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

describe('verified session tokens kept for the next call (VerifiedTokens)', () => {
  it('answers a kept token again within its window, and refuses it once it expires or before nbf', async () => {
    const { VerifiedTokens, CLOCK_TOLERANCE_SECONDS } = await import('../../server/auth');
    const now = Math.floor(Date.now() / 1000);
    let clock = now;
    const tokens = new VerifiedTokens(AUTH, () => clock);
    const good = await token({ exp: now + 60, nbf: now - 1 });
    expect(await tokens.verify(good)).toEqual({ shopDomain: SHOP, userId: '42' });
    clock = now + 60 + CLOCK_TOLERANCE_SECONDS;
    expect(await tokens.verify(good)).toEqual({ shopDomain: SHOP, userId: '42' });
    clock += 1;
    await expect(tokens.verify(good)).rejects.toMatchObject({ status: 401, code: 'invalid_session_token', message: 'The session token has expired' });
    // A token whose nbf lies ahead when it is used again (a clock stepped back) is refused too.
    clock = now;
    const later = await token({ exp: now + 60, nbf: now });
    expect((await tokens.verify(later)).shopDomain).toBe(SHOP);
    clock = now - CLOCK_TOLERANCE_SECONDS - 1;
    await expect(tokens.verify(later)).rejects.toMatchObject({ status: 401, code: 'invalid_session_token' });
  });

  it('never lets a kept token stand for another text, secret or app', async () => {
    const { VerifiedTokens } = await import('../../server/auth');
    const tokens = new VerifiedTokens(AUTH);
    const good = await token();
    await tokens.verify(good);
    const [header, payload, signature] = good.split('.');
    const forged = `${header}.${Buffer.from(JSON.stringify({ ...JSON.parse(Buffer.from(payload!, 'base64url').toString()), dest: 'https://other-shop.myshopify.com' })).toString('base64url')}.${signature}`;
    await expect(tokens.verify(forged)).rejects.toMatchObject({ status: 401 });
    await expect(new VerifiedTokens({ ...AUTH, apiSecret: 'rotated' }).verify(good)).rejects.toMatchObject({ status: 401 });
    await expect(tokens.verify(await token({}, { secret: 'someone-else' }))).rejects.toMatchObject({ status: 401 });
  });

  it('lets the admin read a known shop without writing to the shops table', async () => {
    const t = await makeApp();
    expect((await t.call('GET', '/api/shops')).status).toBe(200);
    // From here any insert into shops fails: an admin call must not try one for a shop it knows.
    const { sql } = await import('kysely');
    if (process.env.TEST_DATABASE_URL) {
      await sql.raw(`create function refuse_shop_insert() returns trigger language plpgsql as $$ begin raise exception 'write'; end $$`).execute(t.db);
      await sql.raw('create trigger refuse_shop_insert before insert on shops for each row execute function refuse_shop_insert()').execute(t.db);
    } else {
      await sql.raw("create trigger refuse_shop_insert before insert on shops begin select raise(abort, 'write'); end").execute(t.db);
    }
    for (let i = 0; i < 3; i++) expect((await t.call('GET', '/api/shops')).status).toBe(200);
  });
});
