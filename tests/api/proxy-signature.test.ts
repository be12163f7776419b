import { describe, expect, it } from 'vitest';
import { createApp } from '../../server/app';
import { DEMO } from '../../server/config';
import { checkProxyQuery, parseProxyQuery, proxySignature, proxySignatureMessage, type ProxyQuery } from '../../server/proxy/signature';
import { AUTH, makeApp, repoRegistry, SHOP, openTestDatabase } from '../support/app';

const NOW = new Date('2026-11-24T12:00:00Z');
const nowSeconds = Math.floor(NOW.getTime() / 1000);

/** A query signed the way the platform signs app-proxy requests. */
function signed(query: ProxyQuery, secret = AUTH.apiSecret): string {
  const params = new URLSearchParams();
  for (const [key, values] of Object.entries(query)) for (const value of values) params.append(key, value);
  params.append('signature', proxySignature(query, secret));
  return params.toString();
}

const base = (extra: ProxyQuery = {}): ProxyQuery => ({
  shop: [SHOP],
  logged_in_customer_id: ['9007199254740993'],
  path_prefix: ['/apps/loyalty'],
  timestamp: [String(nowSeconds)],
  ...extra,
});

describe('app-proxy signature', () => {
  it('signs sorted key=value pairs with no separator and joins repeated values with commas', () => {
    expect(proxySignatureMessage({ b: ['2'], a: ['1', '3'], signature: ['x'] })).toBe('a=1,3b=2');
  });

  it('accepts a fresh, correctly signed query and refuses a tampered one', () => {
    const query = parseProxyQuery(signed(base()));
    expect(checkProxyQuery(query, AUTH.apiSecret, nowSeconds)).toBeNull();
    query.logged_in_customer_id = ['1'];
    expect(checkProxyQuery(query, AUTH.apiSecret, nowSeconds)).toBe('invalid_signature');
  });

  it('refuses a timestamp more than 90 seconds from the clock as a replay', () => {
    const query = parseProxyQuery(signed(base()));
    expect(checkProxyQuery(query, AUTH.apiSecret, nowSeconds + 90)).toBeNull();
    expect(checkProxyQuery(query, AUTH.apiSecret, nowSeconds + 91)).toBe('stale_timestamp');
    expect(checkProxyQuery(query, AUTH.apiSecret, nowSeconds - 91)).toBe('stale_timestamp');
  });
});

describe('/proxy/*', () => {
  it('answers the verified shopper and treats an empty customer id as a guest', async () => {
    const { app } = await makeApp({ now: () => NOW });
    const shopper = await app.request(`/proxy/whoami?${signed(base())}`);
    expect(shopper.status).toBe(200);
    expect(await shopper.json()).toEqual({ data: { shop: SHOP, customerId: '9007199254740993' } });
    const guest = await app.request(`/proxy/whoami?${signed(base({ logged_in_customer_id: [''] }))}`);
    expect(await guest.json()).toEqual({ data: { shop: SHOP, customerId: null } });
  });

  it('answers 401 for a missing, tampered, foreign-secret or stale signature', async () => {
    const { app } = await makeApp({ now: () => NOW });
    const unsigned = new URLSearchParams({ shop: SHOP, logged_in_customer_id: '1', timestamp: String(nowSeconds) });
    const tampered = signed(base()).replace('9007199254740993', '9007199254740994');
    const stale = signed(base({ timestamp: [String(nowSeconds - 600)] }));
    for (const search of [unsigned.toString(), tampered, signed(base(), 'other-secret'), stale]) {
      const res = await app.request(`/proxy/whoami?${search}`);
      expect(res.status).toBe(401);
      expect(((await res.json()) as { error: { code: string } }).error.code).toMatch(/signature|timestamp/);
    }
  });

  it('in demo mode, /apps/loyalty/* signs for the demo shop like the platform would', async () => {
    const db = await openTestDatabase();
    const app = createApp({ db, registry: repoRegistry(), auth: { apiKey: DEMO.apiKey, apiSecret: DEMO.apiSecret, demo: true } });
    const res = await app.request('/apps/loyalty/whoami', { headers: { cookie: 'loyalty_demo_customer=42' } });
    expect(await res.json()).toEqual({ data: { shop: DEMO.shopDomain, customerId: '42' } });
    const direct = await app.request('/proxy/whoami?shop=demo-shop.myshopify.com&logged_in_customer_id=42');
    expect(direct.status).toBe(401);
  });

  it('has no local stand-in outside demo mode', async () => {
    const { app } = await makeApp({ now: () => NOW });
    const res = await app.request('/apps/loyalty/whoami');
    expect(res.status).not.toBe(200);
  });
});
