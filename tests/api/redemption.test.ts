/**
 * Redemption (issue 11): a shopper spends points on a reward through the storefront API and gets a
 * coupon made by the discount adapter; every refusal carries the spec's message; concurrent
 * redemptions of one balance give one coupon; Idempotency-Key replays; the shopper and the admin
 * revoke coupons and the points come back.
 */
import { describe, expect, it } from 'vitest';
import type { JsonObject } from '../../engine/types';
import { requestHash } from '../../server/idempotency';
import { LocalDiscounts, localDiscountCode } from '../../server/platform/discounts';
import { insertDocument } from '../../server/store/documents';
import { appendEntries, upsertCustomer } from '../../server/store/ledger';
import { makeApp, SHOP, signedProxyPath, type TestApp } from '../support/app';
import { orderBody } from '../support/factories';

const START = new Date('2026-11-24T12:00:00.000Z');
const ADA = '9007199254740993';
const GRACE = '9007199254740995';

type Coupon = { id: string; code: string; rewardId: string; title: string; pointsSpent: number; createdAt: string; expiresAt: string | null; status: string; revocable: boolean };
type Answer = { data: { coupon: Coupon; points: number } };
type Refusal = { error: { code: string; message: string; details?: { path: string; message: string }[] } };

/** An app at a movable clock with its own local discount adapter; `settings` is the shop's `settings.shop` document data. */
async function shop(settings: JsonObject | null = null) {
  let now = START;
  const discounts = new LocalDiscounts();
  const t = await makeApp({ now: () => now, platformDiscounts: discounts });
  if (settings) await insertDocument(t.db, SHOP, 'settings.shop', 1, settings, START.toISOString());
  const clock = { advance: (seconds: number) => (now = new Date(now.getTime() + seconds * 1000)) };

  /** A signed storefront request as `customerId` (null = guest). */
  const proxy = async (method: string, path: string, customerId: string | null, body?: unknown, headers: Record<string, string> = {}) =>
    t.app.request(signedProxyPath(path, customerId, { now }), {
      method,
      headers: { 'Content-Type': 'application/json', ...headers },
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
    });
  return { ...t, discounts, clock, proxy, now: () => now };
}

/** A customer with `points` available. */
async function customerWith(t: TestApp, id: string, points: number, extra: { tierId?: string } = {}) {
  const at = START.toISOString();
  await upsertCustomer(t.db, SHOP, { id, email: `${id}@example.com`, firstName: 'Ada', lastName: 'Lovelace' }, at);
  if (extra.tierId) await t.db.updateTable('customers').set({ tier_id: extra.tierId }).where('shop_id', '=', SHOP).where('id', '=', id).execute();
  if (points === 0) return;
  await t.db.transaction().execute((tx) =>
    appendEntries(tx, [
      { id: crypto.randomUUID(), shop_id: SHOP, customer_id: id, type: 'earn_point', points, program_id: null, program_kind: null, program_version: null, source_type: 'admin_adjustment', source_id: crypto.randomUUID(), reverses_id: null, explanation: '{}', created_at: at, available_at: null },
    ]),
  );
}

const baseReward = (data: JsonObject): JsonObject => ({
  status: true,
  coupon: { couponExpiry: 'permanent', purchaseType: 'one_time_purchase', salesChannel: 'online_store', prefix: '', minimumPurchase: 0 },
  customerAvailability: 'all',
  availableTiers: [],
  combinations: { orderDiscounts: false, productDiscounts: false, shippingDiscounts: false },
  automaticDiscount: false,
  appliesTo: 'entire_order',
  productIds: [],
  collectionIds: [],
  ...data,
});

/** A redeem reward document of `kind` with the template's required fields. */
async function reward(t: TestApp, kind: string, data: JsonObject): Promise<string> {
  const doc = await insertDocument(t.db, SHOP, kind, 1, baseReward(data), START.toISOString());
  return doc.id;
}

const fiveOff = (extra: JsonObject = {}): JsonObject => ({ title: '$5 off', redeemPoint: 500, discountAmount: 5, ...extra });

async function balance(t: TestApp, id: string): Promise<number> {
  const row = await t.db.selectFrom('customers').select('points_balance').where('shop_id', '=', SHOP).where('id', '=', id).executeTakeFirstOrThrow();
  return Number(row.points_balance);
}

describe('POST /proxy/redeem', () => {
  it('spends 500 points on $5 off, answers the coupon and the balance after, and records the spend', async () => {
    const t = await shop();
    await customerWith(t, ADA, 1200);
    const rewardId = await reward(t, 'redeem.amount_discount', fiveOff({ coupon: { couponExpiry: '1M', purchaseType: 'one_time_purchase', salesChannel: 'online_store', prefix: 'SAVE' } }));
    const res = await t.proxy('POST', '/redeem', ADA, { rewardId });
    expect(res.status).toBe(200);
    const { data } = (await res.json()) as Answer;
    expect(data.points).toBe(700);
    expect(data.coupon).toMatchObject({ rewardId, title: '$5 off', pointsSpent: 500, status: 'available', createdAt: '2026-11-24T12:00:00.000Z', expiresAt: '2026-12-24T12:00:00.000Z', revocable: false });
    expect(data.coupon.code).toBe(localDiscountCode(SHOP, { prefix: 'SAVE', reference: data.coupon.id }));
    expect(data.coupon.code).toMatch(/^SAVE-[A-Z2-9]{10}$/);
    const [discount] = t.discounts.of(SHOP);
    expect(discount?.code).toBe(data.coupon.code);
    expect(discount?.spec).toMatchObject({ value: { type: 'amount', amount: 5 }, customerId: ADA, endsAt: '2026-12-24T12:00:00.000Z' });
    const entries = await t.db.selectFrom('ledger_entries').selectAll().where('customer_id', '=', ADA).where('type', '=', 'spend_point').execute();
    expect(entries.map((e) => [e.points, e.source_type, e.source_id, e.program_id])).toEqual([[-500, 'redemption', data.coupon.id, rewardId]]);
    expect(await balance(t, ADA)).toBe(700);
  });

  it('scales a flexible reward by the multiples spent and refuses amounts off the step or beyond the bounds', async () => {
    const t = await shop();
    await customerWith(t, ADA, 1000);
    const rewardId = await reward(t, 'redeem.amount_discount', { title: '$1 per 100', redeemPoint: 100, discountAmount: 1, minimumPoints: 100, maximumPoints: 500 });
    const ok = await t.proxy('POST', '/redeem', ADA, { rewardId, points: 300 });
    expect(ok.status).toBe(200);
    expect(((await ok.json()) as Answer).data.points).toBe(700);
    expect(t.discounts.of(SHOP)[0]?.spec.value).toEqual({ type: 'amount', amount: 3 });
    const offStep = await t.proxy('POST', '/redeem', ADA, { rewardId, points: 250 });
    expect(offStep.status).toBe(422);
    expect(((await offStep.json()) as Refusal).error.message).toBe('Redeem amount must be a multiple of 100');
    const tooMany = await t.proxy('POST', '/redeem', ADA, { rewardId, points: 600 });
    expect(((await tooMany.json()) as Refusal).error.message).toBe('Redeem amount must be at most 500');
    expect(await balance(t, ADA)).toBe(700);
  });

  it('refuses a balance that does not pay with "Current balance is insufficient" and leaves nothing on the platform', async () => {
    const t = await shop();
    await customerWith(t, ADA, 499);
    const rewardId = await reward(t, 'redeem.amount_discount', fiveOff());
    const res = await t.proxy('POST', '/redeem', ADA, { rewardId });
    expect(res.status).toBe(422);
    expect(((await res.json()) as Refusal).error).toMatchObject({ code: 'insufficient_balance', message: 'Current balance is insufficient' });
    expect(t.discounts.of(SHOP)).toHaveLength(0);
    expect(await balance(t, ADA)).toBe(499);
  });

  it('answers "You have run out of redemption" past the per-customer limit', async () => {
    const t = await shop();
    await customerWith(t, ADA, 2000);
    const rewardId = await reward(t, 'redeem.amount_discount', fiveOff({ maximumUsesPerCustomer: 1 }));
    expect((await t.proxy('POST', '/redeem', ADA, { rewardId })).status).toBe(200);
    const again = await t.proxy('POST', '/redeem', ADA, { rewardId });
    expect(again.status).toBe(409);
    expect(((await again.json()) as Refusal).error.message).toBe('You have run out of redemption');
    expect(await balance(t, ADA)).toBe(1500);
  });

  it('answers "We have run out of reward coupons" past the total limit, for every customer', async () => {
    const t = await shop();
    await customerWith(t, ADA, 2000);
    await customerWith(t, GRACE, 2000);
    const rewardId = await reward(t, 'redeem.amount_discount', fiveOff({ maximumUses: 1 }));
    expect((await t.proxy('POST', '/redeem', ADA, { rewardId })).status).toBe(200);
    const other = await t.proxy('POST', '/redeem', GRACE, { rewardId });
    expect(other.status).toBe(409);
    expect(((await other.json()) as Refusal).error.message).toBe('We have run out of reward coupons');
    expect(await balance(t, GRACE)).toBe(2000);
  });

  it('hands out a custom voucher pool one code each, then runs out of reward coupons', async () => {
    const t = await shop();
    await customerWith(t, ADA, 3000);
    const rewardId = await reward(t, 'redeem.custom_voucher', { title: 'Cinema ticket', redeemPoint: 1000, voucherCodes: ['CINEMA-1', 'CINEMA-2'], instructions: 'Show at the desk' });
    const codes: string[] = [];
    for (let i = 0; i < 2; i++) codes.push(((await (await t.proxy('POST', '/redeem', ADA, { rewardId })).json()) as Answer).data.coupon.code);
    expect(codes).toEqual(['CINEMA-1', 'CINEMA-2']);
    const third = await t.proxy('POST', '/redeem', ADA, { rewardId });
    expect(((await third.json()) as Refusal).error.message).toBe('We have run out of reward coupons');
    expect(t.discounts.of(SHOP)).toHaveLength(0);
    expect(await balance(t, ADA)).toBe(1000);
  });

  it('refuses a free gift whose variant is out of stock and gives one that is in stock', async () => {
    const t = await shop();
    await customerWith(t, ADA, 2000);
    const rewardId = await reward(t, 'redeem.free_gift', { title: 'Free socks', redeemPoint: 500, giftBy: 'product', productId: '100', variantIds: ['201', '202'], giftQuantity: 1 });
    t.discounts.setStock(SHOP, '201', 0);
    t.discounts.setStock(SHOP, '202', 3);
    const none = await t.proxy('POST', '/redeem', ADA, { rewardId, variantId: '201' });
    expect(none.status).toBe(409);
    expect(((await none.json()) as Refusal).error.message).toBe('Product is out of stock. Please select another product');
    const unchosen = await t.proxy('POST', '/redeem', ADA, { rewardId });
    expect(((await unchosen.json()) as Refusal).error.message).toBe('Variant is required');
    const ok = await t.proxy('POST', '/redeem', ADA, { rewardId, variantId: '202' });
    expect(ok.status).toBe(200);
    expect(t.discounts.of(SHOP)[0]?.spec.value).toEqual({ type: 'free_gift', variantIds: ['202'], quantity: 1 });
    expect(await balance(t, ADA)).toBe(1500);
  });

  it('offers a VIP-only reward to members of its tiers only', async () => {
    const t = await shop();
    await customerWith(t, ADA, 1000);
    await customerWith(t, GRACE, 1000, { tierId: 'gold' });
    const rewardId = await reward(t, 'redeem.amount_discount', fiveOff({ customerAvailability: 'vip_tier_only', availableTiers: ['gold'] }));
    const plain = await t.proxy('POST', '/redeem', ADA, { rewardId });
    expect(plain.status).toBe(422);
    expect(((await plain.json()) as Refusal).error.message).toBe('This reward is not available');
    expect((await t.proxy('POST', '/redeem', GRACE, { rewardId })).status).toBe(200);
  });

  it('refuses guests, unknown rewards, inactive rewards and customers who left', async () => {
    const t = await shop();
    await customerWith(t, ADA, 1000);
    const inactive = await reward(t, 'redeem.amount_discount', fiveOff({ status: false }));
    expect((await t.proxy('POST', '/redeem', null, { rewardId: inactive })).status).toBe(401);
    const unknown = await t.proxy('POST', '/redeem', ADA, { rewardId: 'nope' });
    expect(unknown.status).toBe(404);
    expect(((await unknown.json()) as Refusal).error.message).toBe('Reward program is blank');
    expect(((await (await t.proxy('POST', '/redeem', ADA, { rewardId: inactive })).json()) as Refusal).error.message).toBe('This reward is not available');
    const active = await reward(t, 'redeem.amount_discount', fiveOff());
    await t.db.updateTable('customers').set({ type: 'left' }).where('id', '=', ADA).execute();
    expect(((await (await t.proxy('POST', '/redeem', ADA, { rewardId: active })).json()) as Refusal).error.message).toBe('Only members can redeem rewards');
    expect(await balance(t, ADA)).toBe(1000);
  });

  it('debits nothing when the platform cannot create the discount', async () => {
    const t = await shop();
    await customerWith(t, ADA, 1000);
    const rewardId = await reward(t, 'redeem.amount_discount', fiveOff());
    t.discounts.failNextCreate();
    const res = await t.proxy('POST', '/redeem', ADA, { rewardId });
    expect(res.status).toBe(502);
    expect(await balance(t, ADA)).toBe(1000);
    expect(await t.db.selectFrom('coupons').selectAll().execute()).toHaveLength(0);
  });

  it('gives exactly one coupon to 20 concurrent redemptions of a balance that pays for one, and deletes the other discounts', async () => {
    const t = await shop();
    await customerWith(t, ADA, 500);
    const rewardId = await reward(t, 'redeem.amount_discount', fiveOff());
    const answers = await Promise.all(Array.from({ length: 20 }, () => t.proxy('POST', '/redeem', ADA, { rewardId })));
    const statuses = answers.map((r) => r.status);
    expect(statuses.filter((s) => s === 200)).toHaveLength(1);
    expect(statuses.filter((s) => s === 422)).toHaveLength(19);
    const messages = await Promise.all(answers.filter((r) => r.status === 422).map(async (r) => ((await r.json()) as Refusal).error.message));
    expect(new Set(messages)).toEqual(new Set(['Current balance is insufficient']));
    expect(await balance(t, ADA)).toBe(0);
    const coupons = await t.db.selectFrom('coupons').selectAll().where('shop_id', '=', SHOP).execute();
    expect(coupons).toHaveLength(1);
    const live = t.discounts.of(SHOP);
    expect(live.map((d) => d.platformId)).toEqual([coupons[0]!.platform_id]);
    const spends = await t.db.selectFrom('ledger_entries').select('points').where('type', '=', 'spend_point').execute();
    expect(spends.map((s) => Number(s.points))).toEqual([-500]);
  });

  it('gives one coupon to concurrent redemptions of a reward limited to one use in total, across customers', async () => {
    const t = await shop();
    const ids = Array.from({ length: 10 }, (_, i) => `${8000000000000000000n + BigInt(i)}`);
    for (const id of ids) await customerWith(t, id, 500);
    const rewardId = await reward(t, 'redeem.amount_discount', fiveOff({ maximumUses: 1 }));
    const answers = await Promise.all(ids.map((id) => t.proxy('POST', '/redeem', id, { rewardId })));
    expect(answers.filter((r) => r.status === 200)).toHaveLength(1);
    expect(await t.db.selectFrom('coupons').selectAll().execute()).toHaveLength(1);
    expect(t.discounts.of(SHOP)).toHaveLength(1);
    const balances = await Promise.all(ids.map((id) => balance(t, id)));
    expect(balances.sort((a, b) => a - b)).toEqual([0, ...Array<number>(9).fill(500)]);
  });
});

describe('Idempotency-Key on POST /proxy/redeem', () => {
  it('answers a repeat with the same key and body with the same coupon and debits once', async () => {
    const t = await shop();
    await customerWith(t, ADA, 1500);
    const rewardId = await reward(t, 'redeem.amount_discount', fiveOff());
    const first = (await (await t.proxy('POST', '/redeem', ADA, { rewardId }, { 'Idempotency-Key': 'k-1' })).json()) as Answer;
    const again = await t.proxy('POST', '/redeem', ADA, { rewardId }, { 'Idempotency-Key': 'k-1' });
    expect(again.status).toBe(200);
    expect(((await again.json()) as Answer).data).toEqual(first.data);
    expect(await balance(t, ADA)).toBe(1000);
    expect(t.discounts.of(SHOP)).toHaveLength(1);
  });

  it('refuses the same key with another body, and keeps a refusal as the answer of its key', async () => {
    const t = await shop();
    await customerWith(t, ADA, 100);
    const rewardId = await reward(t, 'redeem.amount_discount', fiveOff());
    const poor = await t.proxy('POST', '/redeem', ADA, { rewardId }, { 'Idempotency-Key': 'k-2' });
    expect(poor.status).toBe(422);
    const other = await t.proxy('POST', '/redeem', ADA, { rewardId, points: 1000 }, { 'Idempotency-Key': 'k-2' });
    expect(other.status).toBe(422);
    expect(((await other.json()) as Refusal).error.code).toBe('idempotency_key_reused');
    await customerWith(t, ADA, 900);
    const replay = await t.proxy('POST', '/redeem', ADA, { rewardId }, { 'Idempotency-Key': 'k-2' });
    expect(replay.status).toBe(422);
    expect(((await replay.json()) as Refusal).error.message).toBe('Current balance is insufficient');
    expect((await t.proxy('POST', '/redeem', ADA, { rewardId }, { 'Idempotency-Key': 'k-3' })).status).toBe(200);
  });

  it('answers 409 while the first request with a key runs, and releases a claim its dead process left after 120 seconds', async () => {
    const t = await shop();
    await customerWith(t, ADA, 500);
    const rewardId = await reward(t, 'redeem.amount_discount', fiveOff());
    await t.db
      .insertInto('idempotency_keys')
      .values({ shop_id: SHOP, scope: `customer:${ADA}`, key: 'k-run', request_hash: requestHash('redeem', { rewardId }), status: 0, answer: null, created_at: t.now().toISOString() })
      .execute();
    const busy = await t.proxy('POST', '/redeem', ADA, { rewardId }, { 'Idempotency-Key': 'k-run' });
    expect(busy.status).toBe(409);
    expect(((await busy.json()) as Refusal).error.code).toBe('idempotency_key_in_progress');
    expect(await balance(t, ADA)).toBe(500);
    t.clock.advance(121);
    expect((await t.proxy('POST', '/redeem', ADA, { rewardId }, { 'Idempotency-Key': 'k-run' })).status).toBe(200);
    expect(await balance(t, ADA)).toBe(0);
  });

  it('scopes keys to the shopper: the same key of another customer is a new request', async () => {
    const t = await shop();
    await customerWith(t, ADA, 500);
    await customerWith(t, GRACE, 500);
    const rewardId = await reward(t, 'redeem.amount_discount', fiveOff());
    const a = (await (await t.proxy('POST', '/redeem', ADA, { rewardId }, { 'Idempotency-Key': 'same' })).json()) as Answer;
    const g = (await (await t.proxy('POST', '/redeem', GRACE, { rewardId }, { 'Idempotency-Key': 'same' })).json()) as Answer;
    expect(g.data.coupon.id).not.toBe(a.data.coupon.id);
    expect([await balance(t, ADA), await balance(t, GRACE)]).toEqual([0, 0]);
  });
});

const REVOKE: JsonObject = { order: { couponRevoke: { enabled: true, timeLimitSeconds: 3600, limit: 1, timeframe: 'day' } } };

describe('revoking coupons', () => {
  it('lets the shopper revoke within the time limit: points back, platform discount deleted, refund in the ledger', async () => {
    const t = await shop(REVOKE);
    await customerWith(t, ADA, 1200);
    const rewardId = await reward(t, 'redeem.amount_discount', fiveOff());
    const { coupon } = ((await (await t.proxy('POST', '/redeem', ADA, { rewardId })).json()) as Answer).data;
    expect(coupon.revocable).toBe(true);
    t.clock.advance(1800);
    const res = await t.proxy('POST', `/coupons/${coupon.id}/revoke`, ADA);
    expect(res.status).toBe(200);
    const { data } = (await res.json()) as Answer;
    expect(data.points).toBe(1200);
    expect(data.coupon).toMatchObject({ id: coupon.id, status: 'revoked', revocable: false });
    expect(t.discounts.of(SHOP)).toHaveLength(0);
    const rows = await t.db.selectFrom('ledger_entries').selectAll().where('source_id', '=', coupon.id).orderBy('created_at').execute();
    expect(rows.map((r) => [r.type, Number(r.points), r.source_type])).toEqual([
      ['spend_point', -500, 'redemption'],
      ['refund_point', 500, 'revoke'],
    ]);
    expect(rows[1]!.reverses_id).toBe(rows[0]!.id);
    const list = ((await (await t.proxy('GET', '/coupons', ADA)).json()) as { data: Coupon[] }).data;
    expect(list.map((c) => [c.code, c.status])).toEqual([[coupon.code, 'revoked']]);
  });

  it('refuses a revoke after the time limit with the spec message', async () => {
    const t = await shop(REVOKE);
    await customerWith(t, ADA, 500);
    const rewardId = await reward(t, 'redeem.amount_discount', fiveOff());
    const { coupon } = ((await (await t.proxy('POST', '/redeem', ADA, { rewardId })).json()) as Answer).data;
    t.clock.advance(3601);
    const list = ((await (await t.proxy('GET', '/coupons', ADA)).json()) as { data: Coupon[] }).data;
    expect(list[0]?.revocable).toBe(false);
    const res = await t.proxy('POST', `/coupons/${coupon.id}/revoke`, ADA);
    expect(res.status).toBe(422);
    expect(((await res.json()) as Refusal).error.message).toBe('This coupon can only be revoked within 1 hour after redemption');
    expect(await balance(t, ADA)).toBe(0);
    expect(t.discounts.of(SHOP)).toHaveLength(1);
  });

  it('counts self-revokes per timeframe: the second within a day is refused, the next day allowed', async () => {
    const t = await shop(REVOKE);
    await customerWith(t, ADA, 1500);
    const rewardId = await reward(t, 'redeem.amount_discount', fiveOff());
    const redeemOne = async () => ((await (await t.proxy('POST', '/redeem', ADA, { rewardId })).json()) as Answer).data.coupon;
    const [a, b] = [await redeemOne(), await redeemOne()];
    expect((await t.proxy('POST', `/coupons/${a.id}/revoke`, ADA)).status).toBe(200);
    const second = await t.proxy('POST', `/coupons/${b.id}/revoke`, ADA);
    expect(second.status).toBe(422);
    expect(((await second.json()) as Refusal).error.message).toBe('You can only revoke 1 times per day');
    t.clock.advance(86_400 - 60);
    const c = await redeemOne();
    t.clock.advance(120);
    expect((await t.proxy('POST', `/coupons/${c.id}/revoke`, ADA)).status).toBe(200);
    expect(await balance(t, ADA)).toBe(1000);
  });

  it('marks a coupon used on an order as redeemed, after which nobody can revoke it', async () => {
    const t = await shop(REVOKE);
    await customerWith(t, ADA, 500);
    const rewardId = await reward(t, 'redeem.amount_discount', fiveOff());
    const { coupon } = ((await (await t.proxy('POST', '/redeem', ADA, { rewardId })).json()) as Answer).data;
    const order = orderBody({ customer: { id: ADA, email: `${ADA}@example.com`, first_name: 'Ada', last_name: 'Lovelace' }, discount_codes: [{ code: coupon.code.toLowerCase(), amount: '5.00', type: 'fixed_amount' }] });
    expect((await t.deliverOrder(order)).status).toBe(200);
    const list = ((await (await t.proxy('GET', '/coupons', ADA)).json()) as { data: Coupon[] }).data;
    expect(list.map((c) => [c.status, c.revocable])).toEqual([['redeemed', false]]);
    const self = await t.proxy('POST', `/coupons/${coupon.id}/revoke`, ADA);
    expect(self.status).toBe(409);
    expect(((await self.json()) as Refusal).error.message).toBe('This coupon was already used');
    expect((await t.call('POST', `/api/coupons/${coupon.id}/revoke`, { note: 'late' })).status).toBe(409);
    expect(await balance(t, ADA)).toBe(0);
  });

  it('refuses self-revoke when the shop has not enabled it, and another shopper\u2019s coupon', async () => {
    const t = await shop();
    await customerWith(t, ADA, 500);
    const rewardId = await reward(t, 'redeem.amount_discount', fiveOff());
    const { coupon } = ((await (await t.proxy('POST', '/redeem', ADA, { rewardId })).json()) as Answer).data;
    expect((await t.proxy('POST', `/coupons/${coupon.id}/revoke`, ADA)).status).toBe(403);
    expect((await t.proxy('POST', `/coupons/${coupon.id}/revoke`, GRACE)).status).toBe(404);
  });

  it('lets an admin list a customer\u2019s coupons and revoke one with a required note', async () => {
    const t = await shop();
    await customerWith(t, ADA, 800);
    const rewardId = await reward(t, 'redeem.amount_discount', fiveOff());
    const { coupon } = ((await (await t.proxy('POST', '/redeem', ADA, { rewardId })).json()) as Answer).data;
    const listed = (await (await t.call('GET', `/api/customers/${ADA}/coupons`)).json()) as { data: (Coupon & { note: string | null; revokedBy: string | null; rewardKind: string })[] };
    expect(listed.data.map((c) => [c.code, c.pointsSpent, c.status, c.revocable, c.rewardKind])).toEqual([[coupon.code, 500, 'available', true, 'redeem.amount_discount']]);
    const noNote = await t.call('POST', `/api/coupons/${coupon.id}/revoke`, { note: '  ' });
    expect(noNote.status).toBe(422);
    expect(((await noNote.json()) as Refusal).error.details).toEqual([{ path: '/note', message: 'This field is required' }]);
    const res = await t.call('POST', `/api/coupons/${coupon.id}/revoke`, { note: 'Ordered by mistake' });
    expect(res.status).toBe(200);
    expect(((await res.json()) as Answer).data.points).toBe(800);
    const after = (await (await t.call('GET', `/api/customers/${ADA}/coupons`)).json()) as { data: { status: string; note: string; revokedBy: string }[] };
    expect(after.data[0]).toMatchObject({ status: 'revoked', note: 'Ordered by mistake' });
    expect(after.data[0]!.revokedBy).toMatch(/^admin:/);
    expect((await t.call('POST', `/api/coupons/${coupon.id}/revoke`, { note: 'again' })).status).toBe(409);
    expect(t.discounts.of(SHOP)).toHaveLength(0);
    expect((await t.call('GET', '/api/customers/404/coupons')).status).toBe(404);
  });
});
