/**
 * Referrals at run time (issue 11; spec 002 §2 Referral whitelist, §3 Referral settings, §8, §9):
 * a customer's link, the friend's first order through its code rewarding both, anti-cheat with its
 * reasons, the whitelist that lifts it, the per-customer limit and the plan's referral link limit.
 */
import { describe, expect, it } from 'vitest';
import { LocalDiscounts } from '../../server/platform/discounts';
import { issueAllReferralRewards, issueReferralRewards } from '../../server/services/referral-rewards';
import { makeApp, SHOP, signedProxyPath, type TestApp } from '../support/app';
import { orderBody } from '../support/factories';

const NOW = new Date('2026-11-24T12:00:00Z');
const ADVOCATE = { id: '7200000000000000001', email: 'ada@example.com', first_name: 'Ada', last_name: 'Lovelace' };
const friend = (n: number) => ({ id: `${7300000000000000000n + BigInt(n)}`, email: `friend${n}@other.example`, first_name: 'Friend', last_name: `Number${n}`, orders_count: 1 });
const address = (street: string) => ({ address1: street, city: 'Springfield', zip: '12345', country_code: 'US' });
const COUPON = { couponExpiry: 'permanent', purchaseType: 'one_time_purchase', salesChannel: 'online_store' };

type Json = Record<string, unknown>;
type Referral = { status: string; reason: string | null; friendEmail: string; friendReward: Json; advocateReward: Json };

function programData(overrides: Json = {}): Json {
  return {
    title: 'Refer a friend',
    description: '',
    status: true,
    tags: [],
    customerEligibility: 'all_members',
    antiCheat: { blockSameIp: false, blockSameEmailDomain: false, blockExistingCustomers: true },
    perCustomerLimit: { mode: 'all_members', tierLimits: [] },
    ...overrides,
  };
}

/** A shop with an active referral program (friend 200 points, advocate 500 points) and the advocate's first order. */
async function referralShop(options: { program?: Json; friendReward?: Json; plan?: string; discounts?: LocalDiscounts } = {}) {
  const t = await makeApp({ now: () => NOW, ...(options.plan ? { shop: { plan: options.plan } } : {}), ...(options.discounts ? { platformDiscounts: options.discounts } : {}) });
  const create = async (kind: string, data: Json) => expect((await t.call('POST', `/api/kinds/${kind}/docs`, { data })).status).toBe(201);
  await create('referral.program', programData(options.program));
  await create('referral.friend_reward', options.friendReward ?? { status: true, rewardType: 'points', value: 200, coupon: COUPON });
  await create('referral.customer_reward', { status: true, rewardType: 'points', value: 500, coupon: COUPON });
  const advocateOrder = orderBody({ customer: ADVOCATE, shipping_address: address('1 Main St'), note_attributes: [{ name: '_loyalty_device_id', value: 'device-ada' }], browser_ip: '203.0.113.7' });
  expect((await t.deliverOrder(advocateOrder)).status).toBe(200);
  const link = async (customerId = ADVOCATE.id) => t.call('POST', `/api/referrals/customers/${customerId}/link`);
  const code = ((await (await link()).json()) as { data: { code: string } }).data.code;
  return { ...t, link, code };
}

/** A friend's order through `code`, with its own address and device unless told otherwise. */
function friendOrder(n: number, code: string, extra: Json = {}): Json {
  return orderBody({
    customer: friend(n),
    shipping_address: address(`${n} Elm St`),
    note_attributes: [
      { name: '_loyalty_referral_code', value: code },
      { name: '_loyalty_device_id', value: `device-friend-${n}` },
    ],
    browser_ip: `198.51.100.${n}`,
    ...extra,
  });
}

async function referralsOf(t: TestApp, customerId = ADVOCATE.id): Promise<Referral[]> {
  const res = await t.call('GET', `/api/referrals/customers/${customerId}`);
  expect(res.status).toBe(200);
  return ((await res.json()) as { data: { referrals: Referral[] } }).data.referrals;
}

async function balance(t: TestApp, customerId: string): Promise<number> {
  const row = await t.db.selectFrom('customers').select('points_balance').where('shop_id', '=', SHOP).where('id', '=', customerId).executeTakeFirst();
  return Number(row?.points_balance ?? 0);
}

/** Ledger points from referrals of a customer, largest first. */
async function referralPoints(t: TestApp, customerId: string): Promise<number[]> {
  const rows = await t.db.selectFrom('ledger_entries').select('points').where('shop_id', '=', SHOP).where('customer_id', '=', customerId).where('source_type', '=', 'referral').execute();
  return rows.map((r) => r.points).sort((a, b) => b - a);
}

/** `/proxy<path>` signed as the platform's app proxy would for `customerId` ('' = a guest) at NOW. */
const proxyPath = (path: string, customerId: string) => signedProxyPath(path, customerId || null, { now: NOW });

describe('a customer referral link', () => {
  it('is one stable code per customer on the shop domain with ?ref=', async () => {
    const t = await referralShop();
    expect(t.code).toMatch(/^[A-Z0-9]{8}$/);
    const again = (await (await t.link()).json()) as { data: { code: string; url: string } };
    expect(again.data.code).toBe(t.code);
    expect(again.data.url).toBe(`https://${SHOP}/?ref=${t.code}`);
  });

  it('uses the program redirect URL when it has one', async () => {
    const t = await referralShop({ program: { redirectUrl: 'https://shop.example.com/pages/welcome?utm=ref' } });
    const body = (await (await t.link()).json()) as { data: { url: string } };
    expect(body.data.url).toBe(`https://shop.example.com/pages/welcome?utm=ref&ref=${t.code}`);
  });

  it('answers the storefront: { url, code } for a signed-in shopper, null for a guest', async () => {
    const t = await referralShop();
    const shopper = await t.app.request(proxyPath('/referral', ADVOCATE.id));
    expect(shopper.status).toBe(200);
    expect(await shopper.json()).toEqual({ data: { url: `https://${SHOP}/?ref=${t.code}`, code: t.code } });
    const guest = await t.app.request(proxyPath('/referral', ''));
    expect(await guest.json()).toEqual({ data: null });
    const card = (await (await t.app.request(proxyPath('/customer', ADVOCATE.id))).json()) as { data: { referralUrl: string | null } };
    expect(card.data.referralUrl).toBe(`https://${SHOP}/?ref=${t.code}`);
  });

  it('refuses a new link past the plan limit with the spec message; existing links keep working', async () => {
    const t = await referralShop({ plan: 'free' });
    const filler = Array.from({ length: 29 }, (_, i) => ({ shop_id: SHOP, customer_id: `filler-${i}`, code: `FILL${i}`, created_at: NOW.toISOString() }));
    await t.db.insertInto('referral_links').values(filler).execute();
    await t.deliverOrder(orderBody({ customer: friend(30) }));
    const refused = await t.link(friend(30).id);
    expect(refused.status).toBe(409);
    expect(await refused.json()).toMatchObject({ error: { code: 'referral_limit', message: 'You have reached the referral limit' } });
    expect((await t.link()).status).toBe(200);
  });

  it('creates the link of a signed-in shopper the app has not seen yet, but not from the admin', async () => {
    const t = await referralShop();
    expect((await t.link('7288888888888888888')).status).toBe(404);
    const shopper = (await (await t.app.request(proxyPath('/referral?device_id=device-new', '7288888888888888888'))).json()) as { data: { code: string } };
    expect(shopper.data.code).toMatch(/^[A-Z0-9]{8}$/);
    expect(shopper.data.code).not.toBe(t.code);
    const prints = await t.db.selectFrom('customer_fingerprints').select('kind').where('shop_id', '=', SHOP).where('customer_id', '=', '7288888888888888888').execute();
    expect(prints.map((p) => p.kind)).toEqual(['device']);
  });

  it('refuses a customer who left the program with "Failed to create referral link"', async () => {
    const t = await referralShop();
    await t.db.insertInto('customers').values({ shop_id: SHOP, id: '42', email: 'left@example.com', first_name: 'L', last_name: 'R', type: 'left', created_at: NOW.toISOString(), updated_at: NOW.toISOString() }).execute();
    const res = await t.link('42');
    expect(res.status).toBe(409);
    expect(await res.json()).toMatchObject({ error: { code: 'referral_link_failed', message: 'Failed to create referral link' } });
  });
});

describe("a friend's first order through the link", () => {
  it('rewards the friend and the advocate once, and records a completed referral', async () => {
    const t = await referralShop();
    const order = friendOrder(1, t.code);
    expect((await t.deliverOrder(order)).status).toBe(200);
    expect(await referralPoints(t, friend(1).id)).toEqual([200]);
    expect(await referralPoints(t, ADVOCATE.id)).toEqual([500]);
    const [referral] = await referralsOf(t);
    expect(referral).toMatchObject({ status: 'completed', reason: null, friendEmail: 'friend1@other.example', friendReward: { type: 'points', value: 200, issued: true } });
    // The same order again, and the friend's second order: nothing more.
    expect((await t.deliverOrder(order)).status).toBe(200);
    expect((await t.deliverOrder(friendOrder(1, t.code, { customer: { ...friend(1), orders_count: 2 } }))).status).toBe(200);
    expect(await referralPoints(t, ADVOCATE.id)).toEqual([500]);
    expect(await referralsOf(t)).toHaveLength(1);
  });

  it("settles the advocate's referral milestone when the referral completes", async () => {
    const t = await referralShop();
    const milestone = await t.call('POST', '/api/kinds/earning.milestone/docs', { data: { title: 'Super referrer', status: true, typeMilestone: 'milestone_referral', milestones: [{ value: 1, action: 'bonus_point', earnPoint: 75 }] } });
    expect(milestone.status).toBe(201);
    expect((await t.deliverOrder(friendOrder(12, t.code))).status).toBe(200);
    const rows = await t.db.selectFrom('ledger_entries').select('points').where('shop_id', '=', SHOP).where('customer_id', '=', ADVOCATE.id).where('source_type', '=', 'milestone').execute();
    expect(rows.map((r) => r.points)).toEqual([75]);
    const friendRows = await t.db.selectFrom('ledger_entries').select('points').where('shop_id', '=', SHOP).where('customer_id', '=', friend(12).id).where('source_type', '=', 'milestone').execute();
    expect(friendRows).toEqual([]); // being referred is not a referral
  });

  it("cancels the referral and takes its points back when the friend's order is cancelled", async () => {
    const t = await referralShop();
    const order = friendOrder(14, t.code);
    await t.deliverOrder(order);
    const before = await balance(t, ADVOCATE.id);
    for (let i = 0; i < 2; i++) expect((await t.deliver('orders/cancelled', { id: order.id, cancelled_at: '2026-06-16T12:00:00-04:00' })).status).toBe(200);
    expect((await referralsOf(t)).map((r) => [r.status, r.reason])).toEqual([['canceled', 'order_cancelled']]);
    expect(await referralPoints(t, ADVOCATE.id)).toEqual([500, -500]);
    expect(await referralPoints(t, friend(14).id)).toEqual([200, -200]);
    expect(await balance(t, ADVOCATE.id)).toBe(before - 500);
  });

  it('ignores a test order: no referral until a real one', async () => {
    const t = await referralShop();
    expect((await t.deliverOrder(friendOrder(13, t.code, { test: true }))).status).toBe(200);
    expect(await referralsOf(t)).toEqual([]);
    expect((await t.deliverOrder(friendOrder(13, t.code))).status).toBe(200);
    expect((await referralsOf(t)).map((r) => r.status)).toEqual(['completed']);
  });

  it('finds the code on the landing site when the order has no cart attribute', async () => {
    const t = await referralShop();
    const order = friendOrder(2, t.code, { note_attributes: [], landing_site: `/products/tee?ref=${t.code.toLowerCase()}` });
    expect((await t.deliverOrder(order)).status).toBe(200);
    expect((await referralsOf(t)).map((r) => r.status)).toEqual(['completed']);
  });

  it("gives the friend a coupon through the platform's discount adapter when the reward is a discount", async () => {
    const discounts = new LocalDiscounts();
    const t = await referralShop({ discounts, friendReward: { status: true, rewardType: 'percentage_discount', value: 10, coupon: { ...COUPON, prefix: 'FRIEND' } } });
    expect((await t.deliverOrder(friendOrder(3, t.code))).status).toBe(200);
    const [referral] = await referralsOf(t);
    const made = discounts.of(SHOP);
    expect(made).toHaveLength(1);
    expect(made[0]!.spec).toMatchObject({ customerId: friend(3).id, value: { type: 'percentage', percent: 10 }, prefix: 'FRIEND' });
    expect(referral!.friendReward).toMatchObject({ type: 'percentage_discount', issued: true, code: made[0]!.code });
    const coupon = await t.db.selectFrom('coupons').selectAll().where('shop_id', '=', SHOP).where('customer_id', '=', friend(3).id).executeTakeFirstOrThrow();
    expect(coupon).toMatchObject({ code: made[0]!.code, points_spent: 0, status: 'available' });
    expect(await referralPoints(t, ADVOCATE.id)).toEqual([500]);
  });

  it('keeps a discount reward pending while the platform fails and makes the code on a later pass, once', async () => {
    const discounts = new LocalDiscounts();
    const t = await referralShop({ discounts, friendReward: { status: true, rewardType: 'amount_discount', value: 5, coupon: COUPON } });
    discounts.failNextCreate();
    expect((await t.deliverOrder(friendOrder(15, t.code))).status).toBe(200);
    const [pending] = await referralsOf(t);
    // The order and the referral are in: the advocate's points are on the ledger, the friend's code is still to make.
    expect(pending).toMatchObject({ status: 'completed', friendReward: { type: 'amount_discount', issued: false } });
    expect(pending!.friendReward.pending).toMatchObject({ customerId: friend(15).id, value: { type: 'amount', amount: 5 } });
    expect(await referralPoints(t, ADVOCATE.id)).toEqual([500]);
    expect(discounts.of(SHOP)).toHaveLength(0);

    // Two passes at once (two processes' sweeps): one code survives, the other is taken back.
    const deps = { db: t.db, platformDiscounts: discounts };
    const issued = await Promise.all([issueReferralRewards(deps, SHOP), issueReferralRewards(deps, SHOP)]);
    expect(issued[0]! + issued[1]!).toBe(1);
    const [done] = await referralsOf(t);
    const live = discounts.of(SHOP);
    expect(live).toHaveLength(1);
    expect(done!.friendReward).toMatchObject({ issued: true, code: live[0]!.code });
    expect(done!.friendReward.pending).toBeUndefined();
    const coupons = await t.db.selectFrom('coupons').select(['code', 'customer_id']).where('shop_id', '=', SHOP).execute();
    expect(coupons).toEqual([{ code: live[0]!.code, customer_id: friend(15).id }]);
    expect(await issueAllReferralRewards(deps)).toBe(0);
  });

  it("gives up a code not made yet when the friend's order is cancelled", async () => {
    const discounts = new LocalDiscounts();
    const t = await referralShop({ discounts, friendReward: { status: true, rewardType: 'percentage_discount', value: 10, coupon: COUPON } });
    discounts.failNextCreate();
    const order = friendOrder(16, t.code);
    expect((await t.deliverOrder(order)).status).toBe(200);
    expect((await t.deliver('orders/cancelled', { id: order.id, cancelled_at: '2026-06-16T12:00:00-04:00' })).status).toBe(200);
    const [canceled] = await referralsOf(t);
    expect(canceled).toMatchObject({ status: 'canceled', reason: 'order_cancelled', friendReward: { issued: false, reason: 'order_cancelled' } });
    expect(await issueAllReferralRewards({ db: t.db, platformDiscounts: discounts })).toBe(0);
    expect(discounts.of(SHOP)).toHaveLength(0);
  });
});

describe('referral anti-cheat', () => {
  const cases: [string, (code: string) => Json, string][] = [
    ['the same shipping address', (code) => friendOrder(4, code, { shipping_address: address('1  MAIN st') }), 'same_shipping_address'],
    ['the same device', (code) => friendOrder(5, code, { note_attributes: [{ name: '_loyalty_referral_code', value: code }, { name: '_loyalty_device_id', value: 'device-ada' }] }), 'same_device'],
    ['the same e-mail', (code) => friendOrder(6, code, { customer: { ...friend(6), email: 'ADA@example.com' } }), 'same_email'],
    ['a customer who ordered before', (code) => friendOrder(7, code, { customer: { ...friend(7), orders_count: 4 } }), 'existing_customer'],
  ];
  for (const [what, order, reason] of cases) {
    it(`cancels a referral from ${what} with reason ${reason} and rewards nobody`, async () => {
      const t = await referralShop();
      const before = await balance(t, ADVOCATE.id);
      expect((await t.deliverOrder(order(t.code))).status).toBe(200);
      expect((await referralsOf(t)).map((r) => [r.status, r.reason])).toEqual([['canceled', reason]]);
      expect(await balance(t, ADVOCATE.id)).toBe(before);
      expect(await referralPoints(t, ADVOCATE.id)).toEqual([]);
    });
  }

  it('cancels the same browser IP only when the program blocks it', async () => {
    const off = await referralShop();
    await off.deliverOrder(friendOrder(8, off.code, { browser_ip: '203.0.113.7' }));
    expect((await referralsOf(off)).map((r) => r.status)).toEqual(['completed']);
    const on = await referralShop({ program: { antiCheat: { blockSameIp: true, blockSameEmailDomain: false, blockExistingCustomers: true } } });
    await on.deliverOrder(friendOrder(8, on.code, { browser_ip: '203.0.113.7' }));
    expect((await referralsOf(on)).map((r) => r.reason)).toEqual(['same_ip']);
  });

  it('lets a whitelisted advocate through: the same address then completes and rewards both', async () => {
    const t = await referralShop();
    const added = await t.call('POST', '/api/referrals/whitelist', { email: 'ADA@EXAMPLE.COM' });
    expect(added.status).toBe(200);
    expect((await t.deliverOrder(friendOrder(9, t.code, { shipping_address: address('1 Main St') }))).status).toBe(200);
    expect((await referralsOf(t)).map((r) => r.status)).toEqual(['completed']);
    expect(await referralPoints(t, ADVOCATE.id)).toEqual([500]);
  });

  it("stops rewarding at the program's per-customer referral limit", async () => {
    const t = await referralShop({ program: { perCustomerLimit: { mode: 'all_members', limit: 1, tierLimits: [] } } });
    await t.deliverOrder(friendOrder(10, t.code));
    await t.deliverOrder(friendOrder(11, t.code));
    expect((await referralsOf(t)).map((r) => [r.status, r.reason]).sort()).toEqual([
      ['canceled', 'referral_limit'],
      ['completed', null],
    ]);
    expect(await referralPoints(t, ADVOCATE.id)).toEqual([500]);
  });
});

describe('the referral whitelist', () => {
  it('adds by e-mail, searches by full e-mail, sorts, pages and removes', async () => {
    const t = await referralShop();
    for (let n = 1; n <= 3; n++) await t.deliverOrder(orderBody({ customer: friend(20 + n) }));
    for (const email of ['friend21@other.example', 'friend22@other.example', 'friend23@other.example']) expect((await t.call('POST', '/api/referrals/whitelist', { email })).status).toBe(200);
    const missing = await t.call('POST', '/api/referrals/whitelist', { email: 'nobody@example.com' });
    expect(missing.status).toBe(404);
    expect(((await missing.json()) as { error: { details: { path: string }[] } }).error.details[0]!.path).toBe('/email');

    type List = { data: { customerId: string; email: string }[]; total: number };
    const list = async (q: string) => (await (await t.call('GET', `/api/referrals/whitelist?${q}`)).json()) as List;
    expect((await list('sort=email_desc&limit=10')).data.map((r) => r.email)).toEqual(['friend23@other.example', 'friend22@other.example', 'friend21@other.example']);
    const search = await list('search=FRIEND22@other.example');
    expect([search.total, search.data.map((r) => r.email)]).toEqual([1, ['friend22@other.example']]);
    const page2 = await list('sort=email_asc&limit=10&page=1');
    expect(page2.total).toBe(3);
    expect((await t.call('GET', '/api/referrals/whitelist?limit=7')).status).toBe(400);

    const removed = await t.call('POST', '/api/referrals/whitelist/remove', { customerIds: [friend(21).id, friend(22).id] });
    expect(await removed.json()).toMatchObject({ data: { removed: 2 } });
    expect((await list('')).data.map((r) => r.email)).toEqual(['friend23@other.example']);
  });
});
