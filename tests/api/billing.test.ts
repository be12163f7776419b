/**
 * Plans and billing through the API (issue 12; spec 000 §4, §7–§9; spec 002 §4, §9): plan offers,
 * subscribe → confirmation → verified return → activation, promo codes, downgrade pausing gated
 * programs, cancel, and the Admin GraphQL adapter against a local fake of the platform.
 */
import { describe, expect, it } from 'vitest';
import { createApp } from '../../server/app';
import { signSessionToken } from '../../server/auth';
import type { AppDeps } from '../../server/deps';
import { storeAccessToken } from '../../server/platform/access-tokens';
import { LocalBilling, ShopifyBilling, type PlatformBilling } from '../../server/platform/billing';
import { accessToken } from '../../server/platform/access-tokens';
import { revokeAccessToken } from '../../server/platform/access-tokens';
import { programRuns } from '../../server/services/billing';
import { ensureShop, findShop } from '../../server/store/shops';
import { AUTH, openTestDatabase, repoRegistry, SHOP } from '../support/app';

type Json = Record<string, unknown>;

async function billingApp(plan: string, platformBilling: PlatformBilling = new LocalBilling()) {
  const db = await openTestDatabase();
  await ensureShop(db, SHOP, new Date().toISOString(), { plan, iana_timezone: 'America/New_York', settings: JSON.stringify({ shopifyPlan: 'basic' }) });
  const deps: AppDeps = { db, registry: repoRegistry(), auth: AUTH, platformBilling };
  const app = createApp(deps);
  const token = await signSessionToken(AUTH, SHOP);
  const call = async (method: string, path: string, body?: unknown): Promise<{ status: number; body: Json }> => {
    const res = await app.request(path, { method, headers: { Authorization: `Bearer ${token}`, 'Content-Type': 'application/json' }, ...(body === undefined ? {} : { body: JSON.stringify(body) }) });
    return { status: res.status, body: (await res.json()) as Json };
  };
  const shopPlan = async () => (await db.selectFrom('shops').select('plan').where('id', '=', SHOP).executeTakeFirstOrThrow()).plan;
  /** Subscribes, approves the local charge as the merchant would, and returns. */
  const buy = async (planId: string, query = '') => {
    const sub = await call('GET', `/api/subscription/shopify/subscribe/${planId}${query}`);
    const url = new URL(String(sub.body.confirmationUrl), 'http://app.local');
    const chargeId = url.searchParams.get('local_charge') ?? '';
    expect((await call('POST', `/api/subscription/local-charges/${chargeId}/approve`)).status).toBe(200);
    return call('POST', '/api/subscription/confirm', { subscriptionId: url.searchParams.get('subscription'), chargeId });
  };
  return { db, deps, call, shopPlan, buy };
}

describe('plan offers (spec 000 §9)', () => {
  it('lists the offered plans with monthly and annual prices, trial days, allowances and features', async () => {
    const { call } = await billingApp('free');
    const { status, body } = await call('GET', '/api/subscription/plans');
    expect(status).toBe(200);
    const plans = body.data as { id: string; name: string; price: number; priceAnnually: number; trialDays: number; freePerMonth: number; pricePerOrder: number; features: { id: string }[] }[];
    expect(plans.map((p) => p.id)).toEqual(['free', 'pro_3_2025', 'pro_4_2025', 'advanced_2025', 'enterprise_2025']);
    const essential = plans.find((p) => p.id === 'pro_3_2025')!;
    expect(essential).toMatchObject({ name: 'Essential', price: 2499, priceAnnually: 29988, trialDays: 14, freePerMonth: 500, pricePerOrder: 15 });
    expect(plans.find((p) => p.id === 'enterprise_2025')).toMatchObject({ name: 'Ultimate', price: 49900, trialDays: 30, freePerMonth: 7000 });
    expect(plans.find((p) => p.id === 'advanced_2025')!.features.map((f) => f.id)).toContain('milestone');
    expect(essential.features.map((f) => f.id)).not.toContain('milestone');
  });
});

describe('subscribing (spec 000 §4 Changing plan)', () => {
  it('answers a confirmation URL, and activates the plan only after the verified return', async () => {
    const { call, shopPlan, buy } = await billingApp('free');
    const pending = await call('GET', '/api/subscription/shopify/subscribe/pro_3_2025');
    expect(pending.status).toBe(200);
    expect(pending.body).toMatchObject({ isRedirect: true });
    expect(String(pending.body.confirmationUrl)).toMatch(/^\/subscription\/billing\?subscription=.+&local_charge=local-/);
    expect(await shopPlan()).toBe('free');

    const confirmed = await buy('pro_3_2025');
    expect(confirmed.status).toBe(200);
    expect(confirmed.body.data).toMatchObject({ plan: 'pro_3_2025', planName: 'Essential', subscription: { status: 'active', price: 2499, trialDays: 14 } });
    expect(await shopPlan()).toBe('pro_3_2025');
    const info = (await call('GET', '/api/subscription')).body.data as Json;
    expect(info).toMatchObject({ plan: 'pro_3_2025', planName: 'Essential', billingMode: 'local', subscription: { plan: 'pro_3_2025', interval: 'monthly' }, isTrialUsed: true });
    expect((info.history as unknown[]).length).toBe(2);
  });

  it('charges 12 × monthly for the annual plan', async () => {
    const { buy } = await billingApp('free');
    const confirmed = await buy('advanced_2025', '?interval=annual');
    expect(confirmed.body.data).toMatchObject({ subscription: { interval: 'annual', price: 118800 } });
  });

  it('refuses the return while the charge is not approved, and records a declined one', async () => {
    const { call, shopPlan } = await billingApp('free');
    const sub = await call('GET', '/api/subscription/shopify/subscribe/pro_3_2025');
    const url = new URL(String(sub.body.confirmationUrl), 'http://app.local');
    const subscriptionId = url.searchParams.get('subscription');
    const chargeId = url.searchParams.get('local_charge') ?? '';
    const early = await call('POST', '/api/subscription/confirm', { subscriptionId, chargeId });
    expect(early.status).toBe(409);
    expect(early.body).toMatchObject({ error: { code: 'subscription_pending' } });
    await call('POST', `/api/subscription/local-charges/${chargeId}/decline`);
    const declined = await call('POST', '/api/subscription/confirm', { subscriptionId, chargeId });
    expect(declined.status).toBe(409);
    expect(declined.body).toMatchObject({ error: { code: 'subscription_declined' } });
    expect(await shopPlan()).toBe('free');
  });

  it('refuses a return whose charge is another one', async () => {
    const { call } = await billingApp('free');
    const sub = await call('GET', '/api/subscription/shopify/subscribe/pro_3_2025');
    const subscriptionId = new URL(String(sub.body.confirmationUrl), 'http://app.local').searchParams.get('subscription');
    const res = await call('POST', '/api/subscription/confirm', { subscriptionId, chargeId: 'local-someone-else' });
    expect(res.status).toBe(400);
  });

  it('gives the trial only once per shop', async () => {
    const { buy } = await billingApp('free');
    await buy('pro_3_2025');
    const second = await buy('advanced_2025');
    expect(second.body.data).toMatchObject({ plan: 'advanced_2025', subscription: { trialDays: 0 } });
  });

  it('activates the free plan without a redirect', async () => {
    const { call, shopPlan, buy } = await billingApp('free');
    await buy('pro_3_2025');
    const free = await call('GET', '/api/subscription/shopify/subscribe/free');
    expect(free.body).toMatchObject({ isRedirect: false, confirmationUrl: null, change: { plan: 'free', planName: 'Starter' } });
    expect(await shopPlan()).toBe('free');
    expect((await call('GET', '/api/subscription')).body.data).toMatchObject({ subscription: null });
  });

  it('answers 404 for a plan that is not offered', async () => {
    const { call } = await billingApp('free');
    expect((await call('GET', '/api/subscription/shopify/subscribe/pro_2')).status).toBe(404);
  });
});

describe('promo codes (spec 000 §9)', () => {
  it('takes 20% off for 3 months with 20%_3M', async () => {
    const { buy, call } = await billingApp('free');
    const confirmed = await buy('pro_3_2025', `?discountCode=${encodeURIComponent('20%_3M')}`);
    expect(confirmed.body.data).toMatchObject({ subscription: { discountCode: '20%_3M', discountPercent: 20, discountMonths: 3 } });
    expect((await call('POST', '/api/subscription/promo', { code: 'JOYDOWNGRADE50', planId: 'advanced_2025' })).body.data).toMatchObject({ percent: 50, months: 3 });
  });

  it('refuses an unknown code with "Invalid coupon code" and stores nothing', async () => {
    const { call, db } = await billingApp('free');
    const res = await call('GET', '/api/subscription/shopify/subscribe/pro_3_2025?discountCode=NOPE');
    expect(res.status).toBe(422);
    expect(res.body).toMatchObject({ error: { message: 'Invalid coupon code', details: [{ path: '/discountCode' }] } });
    expect(await db.selectFrom('billing_subscriptions').selectAll().execute()).toHaveLength(0);
  });
});

describe('downgrade and cancel (spec 002 §4 rules paused on downgrade until upgrade)', () => {
  it('reports a milestone program paused on Essential and resumed on Advanced', async () => {
    const { call, buy } = await billingApp('free');
    await buy('advanced_2025');
    const created = await call('POST', '/api/kinds/earning.milestone/docs', { data: { title: 'Loyal customers', status: true } });
    expect(created.status).toBe(201);
    const down = await buy('pro_3_2025');
    expect(down.body.data).toMatchObject({ plan: 'pro_3_2025', paused: [{ kind: 'earning.milestone', title: 'Loyal customers', unlockPlan: 'Advanced' }], resumed: [] });
    expect((await call('GET', '/api/subscription')).body.data).toMatchObject({ paused: [{ title: 'Loyal customers' }] });
    const up = await buy('advanced_2025');
    expect(up.body.data).toMatchObject({ paused: [], resumed: [{ title: 'Loyal customers' }] });
  });

  it('lets award paths skip a program the plan pauses', async () => {
    const { buy, db, deps } = await billingApp('free');
    await buy('advanced_2025');
    expect(await programRuns(deps, (await findShop(db, SHOP))!, 'earning.milestone')).toBe(true);
    await buy('pro_3_2025');
    const shop = (await findShop(db, SHOP))!;
    expect(await programRuns(deps, shop, 'earning.milestone')).toBe(false);
    expect(await programRuns(deps, shop, 'earning.place_order')).toBe(true);
  });

  it('cancels the paid subscription and returns the shop to the free plan', async () => {
    const { call, shopPlan, buy } = await billingApp('free');
    await buy('pro_4_2025');
    const cancelled = await call('POST', '/api/subscription/cancel');
    expect(cancelled.status).toBe(200);
    expect(cancelled.body.data).toMatchObject({ plan: 'free' });
    expect(await shopPlan()).toBe('free');
    const info = (await call('GET', '/api/subscription')).body.data as { history: { status: string }[] };
    expect(info.history.map((h) => h.status)).toEqual(['cancelled']);
    expect((await call('POST', '/api/subscription/cancel')).status).toBe(409);
  });
});

/** A fake Admin GraphQL endpoint: records requests, answers by operation. */
function fakePlatform(answers: { status?: number; subscriptionStatus?: string } = {}) {
  const requests: { url: string; token: string | null; body: { query: string; variables: Json } }[] = [];
  const fetch = (url: string, init?: RequestInit): Promise<Response> => {
    const body = JSON.parse(String(init?.body)) as { query: string; variables: Json };
    requests.push({ url, token: new Headers(init?.headers).get('X-Shopify-Access-Token'), body });
    if (answers.status) return Promise.resolve(new Response('{}', { status: answers.status }));
    const data = body.query.includes('appSubscriptionCreate')
      ? { appSubscriptionCreate: { userErrors: [], confirmationUrl: 'https://test-shop.myshopify.com/admin/charges/1/confirm', appSubscription: { id: 'gid://shopify/AppSubscription/1029', status: 'PENDING' } } }
      : body.query.includes('appSubscriptionCancel')
        ? { appSubscriptionCancel: { userErrors: [], appSubscription: { id: 'gid://shopify/AppSubscription/1029', status: 'CANCELLED' } } }
        : { node: { id: 'gid://shopify/AppSubscription/1029', status: answers.subscriptionStatus ?? 'ACTIVE' } };
    return Promise.resolve(new Response(JSON.stringify({ data }), { status: 200 }));
  };
  return { requests, fetch };
}

describe('the Admin GraphQL billing adapter', () => {
  it('creates the subscription with the plan price, usage cap and the admin return URL, and verifies the return', async () => {
    const platform = fakePlatform();
    const holder: { deps?: AppDeps } = {};
    const billing = new ShopifyBilling({ apiKey: AUTH.apiKey, accessToken: (shopId) => accessToken(holder.deps!, shopId), fetch: platform.fetch });
    const { call, deps, shopPlan } = await billingApp('free', billing);
    holder.deps = deps;
    await storeAccessToken(deps, SHOP, 'shpat_offline', ['write_discounts']);
    const sub = await call('GET', '/api/subscription/shopify/subscribe/pro_3_2025');
    expect(sub.body).toMatchObject({ isRedirect: true, confirmationUrl: 'https://test-shop.myshopify.com/admin/charges/1/confirm' });
    const create = platform.requests[0]!;
    expect(create.url).toBe(`https://${SHOP}/admin/api/2025-10/graphql.json`);
    expect(create.token).toBe('shpat_offline');
    expect(create.body.variables).toMatchObject({
      name: 'Essential (monthly)',
      trialDays: 14,
      returnUrl: `https://${SHOP}/admin/apps/${AUTH.apiKey}/subscription/billing?subscription=${String(sub.body.subscriptionId)}`,
      lineItems: [
        { plan: { appRecurringPricingDetails: { price: { amount: '24.99', currencyCode: 'USD' }, interval: 'EVERY_30_DAYS' } } },
        { plan: { appUsagePricingDetails: { cappedAmount: { amount: '474.00', currencyCode: 'USD' } } } },
      ],
    });
    const confirmed = await call('POST', '/api/subscription/confirm', { subscriptionId: sub.body.subscriptionId, chargeId: '1029' });
    expect(confirmed.status).toBe(200);
    expect(await shopPlan()).toBe('pro_3_2025');
    expect(platform.requests[1]!.body.variables).toEqual({ id: 'gid://shopify/AppSubscription/1029' });
    await call('POST', '/api/subscription/cancel');
    expect(platform.requests[2]!.body.query).toContain('appSubscriptionCancel');
  });

  it('asks for a reinstall when the shop has no token, and revokes one the platform refuses', async () => {
    const platform = fakePlatform({ status: 401 });
    const holder: { deps?: AppDeps } = {};
    const billing = new ShopifyBilling({ apiKey: AUTH.apiKey, accessToken: (shopId) => accessToken(holder.deps!, shopId), onUnauthorized: (shopId) => revokeAccessToken(holder.deps!.db, shopId), fetch: platform.fetch });
    const { call, deps } = await billingApp('free', billing);
    holder.deps = deps;
    const none = await call('GET', '/api/subscription/shopify/subscribe/pro_3_2025');
    expect(none.status).toBe(401);
    expect(none.body).toMatchObject({ error: { code: 'reinstall_required' } });
    expect(platform.requests).toHaveLength(0);
    await storeAccessToken(deps, SHOP, 'shpat_old', []);
    const refused = await call('GET', '/api/subscription/shopify/subscribe/pro_3_2025');
    expect(refused.body).toMatchObject({ error: { code: 'reinstall_required' } });
    expect((await call('GET', '/api/platform/access')).body.data).toMatchObject({ state: 'revoked', needsReinstall: true });
  });

  it('answers 502 when the platform fails, storing nothing', async () => {
    const platform = fakePlatform({ status: 500 });
    const holder: { deps?: AppDeps } = {};
    const billing = new ShopifyBilling({ apiKey: AUTH.apiKey, accessToken: (shopId) => accessToken(holder.deps!, shopId), fetch: platform.fetch });
    const { call, deps, db } = await billingApp('free', billing);
    holder.deps = deps;
    await storeAccessToken(deps, SHOP, 'shpat_offline', []);
    const res = await call('GET', '/api/subscription/shopify/subscribe/pro_3_2025');
    expect(res.status).toBe(502);
    expect(await db.selectFrom('billing_subscriptions').selectAll().execute()).toHaveLength(0);
  });
});
