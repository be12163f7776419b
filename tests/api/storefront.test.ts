/**
 * The storefront API reads (issue 11, docs/storefront-api.md): the signature gate on the shopper
 * calls, the guest's public view, one shopper never reading another's data, the rate limit (429
 * with Retry-After), and each call's answer with real values from programs made through the API
 * and an order delivered through the webhook.
 */
import { afterEach, describe, expect, it, vi } from 'vitest';
import { proxySignature, type ProxyQuery } from '../../server/proxy/signature';
import { appendEntries } from '../../server/store/ledger';
import { ensureShop } from '../../server/store/shops';
import { AUTH, makeApp, SHOP } from '../support/app';
import { orderBody, placeOrderData } from '../support/factories';

const ADA = { id: '7400000000000000001', email: 'ada@example.com', first_name: 'Ada', last_name: 'Lovelace' };
const GRACE = { id: '7400000000000000002', email: 'grace@example.com', first_name: 'Grace', last_name: 'Hopper' };

type Customer = {
  id: string;
  firstName: string;
  points: number;
  pendingPoints: number;
  lifetimePoints: number;
  tier: { id: string; name: string } | null;
  nextTier: { id: string; name: string; method: string; current: number; target: number; progress: number } | null;
  birthday: string | null;
};
type Way = { id: string; kind: string; event: string; title: string; points: number; pointsText: string; action: string; url?: string; completed: boolean };
type Reward = { id: string; rewardType: string; title: string; pointsCost: number; minPoints?: number; affordable: boolean };
type History = { data: { id: string; type: string; points: number; description: string; createdAt: string }[]; pageInfo: { hasNextPage: boolean; endCursor: string | null } };

/**
 * A shop on a clock the test moves: place-order (1 point per $1, French title), sign-up (once in a
 * lifetime), Instagram follow, a paused and an ended program; two active rewards and a paused one;
 * VIP tiers Member (0) and Silver (150 points), launched. Ada orders $120 and gets 30 points from
 * the store; Grace orders $40 while pending points hold awards for 7 days.
 */
async function shop() {
  let clock = new Date('2026-06-15T16:00:00Z');
  const t = await makeApp({ now: () => clock });
  const post = async (kind: string, data: Record<string, unknown>): Promise<string> => {
    const res = await t.call('POST', `/api/kinds/${kind}/docs`, { data });
    expect(res.status, JSON.stringify(await res.clone().json())).toBe(201);
    return ((await res.json()) as { data: { id: string } }).data.id;
  };
  const ids = {
    order: await post('earning.place_order', placeOrderData({ title: 'Shop with us', translateTitle: { fr: 'Achetez chez nous', pt: 'Compre conosco' }, earnPoint: 1, rateMoney: 1 })),
    signUp: await post('earning.sign_up', { title: 'Create an account', status: true, earnPoint: 100 }),
    instagram: await post('earning.follow_instagram', { title: 'Follow us', status: true, earnPoint: 50, socialUrl: 'https://instagram.com/acme' }),
    paused: await post('earning.birthday', { title: 'Birthday', status: false, earnPoint: 100 }),
    ended: await post('earning.sign_up_newsletter', { title: 'Newsletter', status: true, earnPoint: 20, endDate: '2026-06-01' }),
    fiveOff: await post('redeem.amount_discount', { title: '$5 off', translateTitle: { fr: '5 $ de réduction' }, status: true, redeemPoint: 500, discountAmount: 5 }),
    shipping: await post('redeem.free_shipping', { title: 'Free shipping', status: true, redeemPoint: 100 }),
    pausedReward: await post('redeem.amount_discount', { title: '$50 off', status: false, redeemPoint: 5000, discountAmount: 50 }),
    member: await post('tier.tier', { name: 'Member', entryMethod: 'points_earned', entryRequirement: 0 }),
    silver: await post('tier.tier', { name: 'Silver', entryMethod: 'points_earned', entryRequirement: 150 }),
  };
  await post('tier.settings', { general: { status: true, entryMethod: 'points_earned' } });
  expect((await t.call('POST', '/api/tiers/launch', {})).status).toBe(200);
  const tick = () => (clock = new Date(clock.getTime() + 60_000));
  tick();
  expect((await t.deliverOrder(orderBody({ customer: ADA, created_at: clock.toISOString() }, [{ price: '120.00' }]))).status).toBe(200);
  tick();
  const adjust = await t.call('POST', `/api/customers/${ADA.id}/adjust`, { points: 30, adminNote: 'internal: complained on the phone', customerNote: 'Sorry for the wait', adjustTierPoints: false, allowNegative: false });
  expect(adjust.status, JSON.stringify(await adjust.clone().json())).toBe(200);
  expect((await t.call('PUT', '/api/settings/pending-points', { enabled: true, days: 7 })).status).toBe(200);
  tick();
  expect((await t.deliverOrder(orderBody({ customer: GRACE, created_at: clock.toISOString() }, [{ price: '40.00' }]))).status).toBe(200);
  tick();

  /** A query signed as the platform would sign it, for `customerId` (null = guest) at the test's clock. */
  const signed = (customerId: string | null, extra: ProxyQuery = {}, options: { shop?: string; secret?: string; timestamp?: number } = {}): string => {
    const query: ProxyQuery = {
      shop: [options.shop ?? SHOP],
      logged_in_customer_id: [customerId ?? ''],
      path_prefix: ['/apps/loyalty'],
      timestamp: [String(options.timestamp ?? Math.floor(clock.getTime() / 1000))],
      ...extra,
    };
    const params = new URLSearchParams();
    for (const [key, values] of Object.entries(query)) for (const value of values) params.append(key, value);
    params.append('signature', proxySignature(query, options.secret ?? AUTH.apiSecret));
    return params.toString();
  };
  const proxy = (path: string, customerId: string | null, extra: ProxyQuery = {}) => t.app.request(`/proxy${path}?${signed(customerId, extra)}`);
  const data = async <T>(path: string, customerId: string | null, extra: ProxyQuery = {}): Promise<T> => {
    const res = await proxy(path, customerId, extra);
    expect(res.status, await res.clone().text()).toBe(200);
    return ((await res.json()) as { data: T }).data;
  };
  return { ...t, ids, signed, proxy, data, now: () => clock, setClock: (d: Date) => (clock = d) };
}

afterEach(() => {
  vi.unstubAllEnvs();
});

describe('the signature gate on the shopper calls', () => {
  it('answers 401 for a missing, tampered, foreign-secret or stale signature on every call', async () => {
    const s = await shop();
    const nowSeconds = Math.floor(s.now().getTime() / 1000);
    for (const path of ['/customer', '/ways-to-earn', '/rewards', '/history']) {
      const missing = new URLSearchParams({ shop: SHOP, logged_in_customer_id: ADA.id, timestamp: String(nowSeconds) }).toString();
      // Grace's signature with Ada's id put in its place: the platform never signed that.
      const tampered = s.signed(GRACE.id).replace(GRACE.id, ADA.id);
      const foreign = s.signed(ADA.id, {}, { secret: 'another-apps-secret' });
      const stale = s.signed(ADA.id, {}, { timestamp: nowSeconds - 91 });
      for (const search of [missing, tampered, foreign, stale]) {
        const res = await s.app.request(`/proxy${path}?${search}`);
        expect(res.status, `${path}?${search}`).toBe(401);
        const body = (await res.json()) as { error: { code: string; message: string } };
        expect(['missing_signature', 'invalid_signature', 'stale_timestamp']).toContain(body.error.code);
        expect(JSON.stringify(body)).not.toContain('Ada');
      }
    }
  });
});

describe('GET /proxy/customer', () => {
  it("answers the shopper's balance, pending and lifetime points, tier and progress to the next tier", async () => {
    const s = await shop();
    const ada = await s.data<Customer>('/customer', ADA.id);
    expect(ada).toEqual({
      id: ADA.id,
      firstName: 'Ada',
      points: 150,
      pendingPoints: 0,
      lifetimePoints: 150,
      tier: { id: s.ids.member, name: 'Member' },
      // The store's 30 points did not count toward tiers (adjustTierPoints false): 120 of 150.
      nextTier: { id: s.ids.silver, name: 'Silver', method: 'points', current: 120, target: 150, progress: 0.8 },
      referralUrl: null,
      birthday: null,
    });
    // The same progress the admin's tier card shows.
    const card = ((await (await s.call('GET', `/api/customers/${ADA.id}/tier`)).json()) as { data: { assessment: { explanation: { seen: number; next: { required: number } } } } }).data;
    expect([card.assessment.explanation.seen, card.assessment.explanation.next.required]).toEqual([ada.nextTier!.current, ada.nextTier!.target]);
    const grace = await s.data<Customer>('/customer', GRACE.id);
    expect(grace).toMatchObject({ id: GRACE.id, firstName: 'Grace', points: 0, pendingPoints: 40, lifetimePoints: 40 });
  });

  it('answers null for a guest and zero points for a signed-in shopper the app has not met', async () => {
    const s = await shop();
    expect(await s.data<Customer | null>('/customer', null)).toBeNull();
    expect(await s.data<Customer>('/customer', '7400000000000000999')).toMatchObject({ id: '7400000000000000999', points: 0, pendingPoints: 0, lifetimePoints: 0, tier: null, nextTier: null });
  });

  it('never lets one shopper read another: the shopper is only the signed customer id', async () => {
    const s = await shop();
    // Query parameters naming someone else are ignored by every call.
    const spoof = { customer_id: [ADA.id], customerId: [ADA.id], id: [ADA.id] };
    expect(await s.data<Customer>('/customer', GRACE.id, spoof)).toMatchObject({ id: GRACE.id, firstName: 'Grace', points: 0 });
    const graceHistory = await s.data<History['data']>('/history', GRACE.id, spoof);
    expect(graceHistory.map((e) => e.points)).toEqual([40]);
    expect((await s.data<Reward[]>('/rewards', GRACE.id, spoof)).every((r) => !r.affordable)).toBe(true);
    // The same customer id signed for another shop sees nothing of this shop's Ada.
    const other = 'other-shop.myshopify.com';
    await ensureShop(s.db, other, new Date().toISOString());
    const res = await s.app.request(`/proxy/customer?${s.signed(ADA.id, {}, { shop: other })}`);
    expect(((await res.json()) as { data: Customer }).data).toMatchObject({ id: ADA.id, firstName: '', points: 0, lifetimePoints: 0 });
    const foreignHistory = await s.app.request(`/proxy/history?${s.signed(ADA.id, {}, { shop: other })}`);
    expect(((await foreignHistory.json()) as History).data).toEqual([]);
  });
});

describe('GET /proxy/ways-to-earn', () => {
  it('lists the active earning programs in the admin\'s kind order, in the shop language, with their points and actions', async () => {
    const s = await shop();
    const ways = await s.data<Way[]>('/ways-to-earn', null);
    expect(ways).toEqual([
      { id: s.ids.signUp, kind: 'earning.sign_up', event: 'sign_up', title: 'Create an account', points: 100, pointsText: '100 points', action: 'none', completed: false },
      { id: s.ids.order, kind: 'earning.place_order', event: 'place_order', title: 'Shop with us', points: 1, pointsText: '1 point for every $1 spent', action: 'order', completed: false },
      { id: s.ids.instagram, kind: 'earning.follow_instagram', event: 'follow_instagram', title: 'Follow us', points: 50, pointsText: '50 points', action: 'claim', url: 'https://instagram.com/acme', completed: false },
    ]);
  });

  it('answers titles in ?language= (region falling back to the language, then the default title) and refuses a malformed one', async () => {
    const s = await shop();
    const titles = async (language: string) => (await s.data<Way[]>('/ways-to-earn', ADA.id, { language: [language] })).map((w) => w.title);
    expect(await titles('fr')).toEqual(['Create an account', 'Achetez chez nous', 'Follow us']);
    expect(await titles('pt-BR')).toEqual(['Create an account', 'Compre conosco', 'Follow us']);
    expect(await titles('ja')).toEqual(['Create an account', 'Shop with us', 'Follow us']);
    const bad = await s.proxy('/ways-to-earn', ADA.id, { language: ['<script>'] });
    expect(bad.status).toBe(400);
    expect(((await bad.json()) as { error: { details: { path: string }[] } }).error.details[0]!.path).toBe('language');
  });

  it('marks a once-in-a-lifetime program completed for the shopper who earned from it, not for others', async () => {
    const s = await shop();
    await s.db.transaction().execute((tx) =>
      appendEntries(tx, [
        { id: 'signup-ada', shop_id: SHOP, customer_id: ADA.id, type: 'earn_point', points: 100, program_id: s.ids.signUp, program_kind: 'earning.sign_up', program_version: 1, source_type: 'event', source_id: `sign_up:${ADA.id}`, reverses_id: null, explanation: JSON.stringify({ programTitle: 'Create an account' }), created_at: s.now().toISOString(), available_at: null },
      ]),
    );
    const completed = async (customerId: string | null) => (await s.data<Way[]>('/ways-to-earn', customerId)).filter((w) => w.completed).map((w) => w.id);
    expect(await completed(ADA.id)).toEqual([s.ids.signUp]);
    expect(await completed(GRACE.id)).toEqual([]);
    expect(await completed(null)).toEqual([]);
  });
});

describe('GET /proxy/rewards', () => {
  it('lists the active rewards with their cost and whether the shopper can afford them (never for a guest)', async () => {
    const s = await shop();
    const ada = await s.data<Reward[]>('/rewards', ADA.id, { language: ['fr'] });
    expect(ada.map((r) => [r.id, r.rewardType, r.title, r.pointsCost, r.affordable])).toEqual([
      [s.ids.fiveOff, 'amount_discount', '5 $ de réduction', 500, false],
      [s.ids.shipping, 'free_shipping', 'Free shipping', 100, true],
    ]);
    // Grace's 40 points are still pending: nothing is affordable yet.
    expect((await s.data<Reward[]>('/rewards', GRACE.id)).map((r) => r.affordable)).toEqual([false, false]);
    expect((await s.data<Reward[]>('/rewards', null)).map((r) => r.affordable)).toEqual([false, false]);
  });
});

describe('GET /proxy/history', () => {
  it("answers the shopper's ledger newest first in plain words, without the admin's note", async () => {
    const s = await shop();
    const page = (await (await s.proxy('/history', ADA.id)).json()) as History;
    expect(page.data.map((e) => [e.type, e.points, e.description])).toEqual([
      ['earn_point', 30, 'Added by the store: Sorry for the wait'],
      ['earn_point', 120, expect.stringMatching(/^Earned for order #\d+$/)],
    ]);
    expect(page.pageInfo).toEqual({ hasNextPage: false, endCursor: null });
    expect(JSON.stringify(page)).not.toContain('complained');
    const grace = (await (await s.proxy('/history', GRACE.id)).json()) as History;
    expect(grace.data.map((e) => [e.type, e.points, e.description])).toEqual([['pending_earn_point', 40, expect.stringMatching(/^Points for order #\d+ waiting to become available$/)]]);
  });

  it('pages through the cursor and answers an empty list to a guest', async () => {
    const s = await shop();
    for (let i = 1; i <= 23; i++) {
      s.setClock(new Date(s.now().getTime() + 1000));
      const res = await s.call('POST', `/api/customers/${ADA.id}/adjust`, { points: i, adminNote: 'x', customerNote: '', adjustTierPoints: false, allowNegative: false });
      expect(res.status).toBe(200);
    }
    const first = (await (await s.proxy('/history', ADA.id)).json()) as History;
    expect(first.data).toHaveLength(20);
    expect(first.data.slice(0, 3).map((e) => e.points)).toEqual([23, 22, 21]);
    expect(first.pageInfo.hasNextPage).toBe(true);
    const second = (await (await s.proxy('/history', ADA.id, { cursor: [first.pageInfo.endCursor!] })).json()) as History;
    expect(second.data.map((e) => e.points)).toEqual([3, 2, 1, 30, 120]);
    expect(second.pageInfo).toEqual({ hasNextPage: false, endCursor: null });
    expect(new Set([...first.data, ...second.data].map((e) => e.id)).size).toBe(25);
    expect((await s.proxy('/history', ADA.id, { cursor: ['not-a-cursor'] })).status).toBe(400);
    expect(await s.data<unknown[]>('/history', null)).toEqual([]);
  });
});

describe('the rate limit', () => {
  it('answers 429 with Retry-After per shopper and per shop, and lets the shopper back after the wait', async () => {
    vi.stubEnv('PROXY_SHOPPER_RATE', '0.5');
    vi.stubEnv('PROXY_SHOPPER_BURST', '3');
    vi.stubEnv('PROXY_SHOP_RATE', '0.25');
    vi.stubEnv('PROXY_SHOP_BURST', '6');
    const s = await shop();
    for (let i = 0; i < 3; i++) expect((await s.proxy('/customer', ADA.id)).status).toBe(200);
    const limited = await s.proxy('/customer', ADA.id);
    expect(limited.status).toBe(429);
    expect(limited.headers.get('Retry-After')).toBe('2');
    expect(((await limited.json()) as { error: { code: string; message: string } }).error).toEqual({ code: 'rate_limited', message: 'Too many requests. Please try again in 2 seconds.' });
    // Another shopper has a bucket of their own, until the shop's is empty (6 in all).
    for (let i = 0; i < 3; i++) expect((await s.proxy('/rewards', GRACE.id)).status).toBe(200);
    const shopLimited = await s.proxy('/ways-to-earn', null);
    expect(shopLimited.status).toBe(429);
    expect(shopLimited.headers.get('Retry-After')).toBe('4');
    // Two seconds later Ada has a token again, but the shop's bucket needs four.
    s.setClock(new Date(s.now().getTime() + 2000));
    expect((await s.proxy('/customer', ADA.id)).status).toBe(429);
    s.setClock(new Date(s.now().getTime() + 2000));
    expect((await s.proxy('/customer', ADA.id)).status).toBe(200);
  });
});
