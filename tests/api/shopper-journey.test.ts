/**
 * Issue 11 "Done when": one shopper through the whole loyalty loop, as the running app receives it —
 * platform webhooks, the storefront API behind the app-proxy signature, the admin API — with the
 * balance and the ledger's explanation asserted after every step:
 * sign up → birthday (on the day, in store time) → a review (pending, then approved) → an order →
 * a milestone → a redemption to a coupon → a revoke → a referral whose friend's first order rewards both.
 */
import { describe, expect, it } from 'vitest';
import type { Selectable } from 'kysely';
import type { LedgerEntriesTable } from '../../server/db/tables';
import { runBirthdayJob } from '../../server/jobs/birthdays';
import { LocalDiscounts } from '../../server/platform/discounts';
import { insertDocument } from '../../server/store/documents';
import { makeApp, SHOP } from '../support/app';
import { expectLedgerTotalsAgree } from '../support/ledger-totals';
import { orderBody, placeOrderData } from '../support/factories';

const ADA = { id: '7500000000000000001', email: 'ada@example.com', first_name: 'Ada', last_name: 'Lovelace' };
const FRIEND = { id: '7500000000000000002', email: 'grace@elsewhere.example', first_name: 'Grace', last_name: 'Hopper' };
const COUPON = { couponExpiry: 'permanent', purchaseType: 'one_time_purchase', salesChannel: 'online_store' };

type Json = Record<string, unknown>;

describe('one shopper through the loyalty loop', () => {
  it('earns from sign-up, birthday, review, order and milestone, redeems, revokes and refers a friend', async () => {
    // 1 March 2026, 10:00 in the shop's time zone (America/New_York).
    const clock = { now: new Date('2026-03-01T15:00:00Z') };
    const t = await makeApp({ now: () => clock.now, platformDiscounts: new LocalDiscounts() });
    const create = async (kind: string, data: Json): Promise<string> => {
      const res = await t.call('POST', `/api/kinds/${kind}/docs`, { data });
      expect(res.status, JSON.stringify(await res.clone().json())).toBe(201);
      return ((await res.json()) as { data: { id: string } }).data.id;
    };
    const balance = async (customerId = ADA.id): Promise<number> => {
      const row = await t.db.selectFrom('customers').select('points_balance').where('shop_id', '=', SHOP).where('id', '=', customerId).executeTakeFirst();
      return Number(row?.points_balance ?? 0);
    };
    /** The shopper's ledger rows not returned before (one step's rows), by source type. */
    const seen = new Set<string>();
    const newEntries = async (customerId = ADA.id): Promise<Selectable<LedgerEntriesTable>[]> => {
      const rows = await t.db.selectFrom('ledger_entries').selectAll().where('shop_id', '=', SHOP).where('customer_id', '=', customerId).execute();
      const fresh = rows.filter((r) => !seen.has(r.id)).sort((a, b) => a.source_type.localeCompare(b.source_type));
      fresh.forEach((r) => seen.add(r.id));
      return fresh;
    };
    const explained = (row: Selectable<LedgerEntriesTable>) => JSON.parse(row.explanation) as Json;

    await create('earning.sign_up', { status: true, earnPoint: 100 });
    await create('earning.birthday', { status: true, earnPoint: 200 });
    await create('earning.write_review', { status: true, earnPoint: 50, reviewStatus: 'pending' });
    await create('earning.place_order', placeOrderData({ earnPoint: 1, rateMoney: 1 }));
    await create('earning.milestone', { status: true, title: 'First order', typeMilestone: 'milestone_order', progression: 'all_rewards', milestones: [{ value: 1, action: 'bonus_point', earnPoint: 150 }] });
    const rewardId = await create('redeem.amount_discount', { status: true, title: '$5 off', redeemPoint: 500, discountAmount: 5, coupon: { ...COUPON, prefix: 'LOOP' } });
    await create('referral.program', { title: 'Refer a friend', description: '', status: true, tags: [], customerEligibility: 'all_members', antiCheat: { blockSameIp: true, blockSameEmailDomain: false, blockExistingCustomers: true }, perCustomerLimit: { mode: 'all_members', tierLimits: [] } });
    await create('referral.friend_reward', { status: true, rewardType: 'points', value: 200, coupon: COUPON });
    await create('referral.customer_reward', { status: true, rewardType: 'points', value: 300, coupon: COUPON });
    await insertDocument(t.db, SHOP, 'settings.shop', 1, { order: { couponRevoke: { enabled: true, timeLimitSeconds: 86_400, limit: 2, timeframe: 'month' } } }, clock.now.toISOString());

    // Sign up: the platform's customers/create webhook.
    expect((await t.deliver('customers/create', { ...ADA, email_marketing_consent: { state: 'not_subscribed' } })).status).toBe(200);
    expect(await balance()).toBe(100);
    const [signUp] = await newEntries();
    expect(signUp).toMatchObject({ type: 'earn_point', points: 100, source_type: 'event', program_kind: 'earning.sign_up' });
    expect(JSON.stringify(explained(signUp!))).toContain('100');

    // Birthday: the shopper gives it on the storefront more than 30 days ahead; the daily job awards it
    // on the day in store time — 5 April 23:30 in New York is already 6 April in UTC.
    expect((await t.proxy('POST', '/birthday', null, { body: { birthday: '13/40' } })).status).toBe(401);
    const badBirthday = await t.proxy('POST', '/birthday', ADA.id, { body: { birthday: '13/40' } });
    expect(badBirthday.status).toBe(422);
    expect(((await badBirthday.json()) as { error: { message: string } }).error.message).toBe('Birthday is invalid');
    expect((await t.proxy('POST', '/birthday', ADA.id, { body: { birthday: '04/05' } })).status).toBe(200);
    clock.now = new Date('2026-04-05T03:30:00Z'); // 4 April 23:30 in New York: not yet
    await runBirthdayJob(t, SHOP, clock.now);
    expect(await balance()).toBe(100);
    clock.now = new Date('2026-04-06T03:30:00Z'); // 5 April 23:30 in New York
    await runBirthdayJob(t, SHOP, clock.now);
    await runBirthdayJob(t, SHOP, clock.now); // the job running twice on one day awards once
    expect(await balance()).toBe(300);
    const [birthday] = await newEntries();
    expect(birthday).toMatchObject({ type: 'earn_point', points: 200, program_kind: 'earning.birthday' });

    // A review: pending first (no points), then approved by the merchant.
    const submitted = await t.proxy('POST', '/reviews', ADA.id, { body: { content: 'Lovely linen, fits true to size.', rating: 5, reviewId: 'rv-1' } });
    expect(submitted.status).toBe(200);
    const review = ((await submitted.json()) as { data: { review: { id: string; status: string } } }).data.review;
    expect(review.status).toBe('pending');
    expect(await balance()).toBe(300);
    expect((await t.call('POST', `/api/reviews/${review.id}/approve`)).status).toBe(200);
    expect(await balance()).toBe(350);
    const [reviewEntry] = await newEntries();
    expect(reviewEntry).toMatchObject({ points: 50, source_type: 'review', program_kind: 'earning.write_review' });

    // An order of $80: 80 points, and the first-order milestone's 150 bonus points in the same delivery.
    const order = orderBody({ id: '5500000000000000001', customer: ADA, total_price: '80.00', subtotal_price: '80.00' }, [{ price: '80.00' }]);
    expect((await t.deliverOrder(order)).status).toBe(200);
    expect(await balance()).toBe(580);
    const orderEntries = await newEntries();
    expect(orderEntries.map((e) => [e.source_type, e.points])).toEqual([
      ['milestone', 150],
      ['order', 80],
    ]);
    expect(explained(orderEntries[0]!)).toMatchObject({ milestone: { value: 1, action: 'bonus_point', points: 150 } });

    // Redeem 500 points for a $5 coupon; the same Idempotency-Key answers the same coupon.
    const redeem = () => t.proxy('POST', '/redeem', ADA.id, { body: { rewardId }, headers: { 'Idempotency-Key': 'loop-1' } });
    const redeemed = await redeem();
    expect(redeemed.status).toBe(200);
    const { coupon, points } = ((await redeemed.json()) as { data: { coupon: { id: string; code: string; status: string }; points: number } }).data;
    expect(coupon.code).toMatch(/^LOOP/);
    expect(coupon.status).toBe('available');
    expect(points).toBe(80);
    expect(((await (await redeem()).json()) as { data: { coupon: { id: string } } }).data.coupon.id).toBe(coupon.id);
    expect(await balance()).toBe(80);
    const [spend] = await newEntries();
    expect(spend).toMatchObject({ type: 'spend_point', points: -500, source_type: 'redemption' });
    // One shopper cannot revoke another's coupon.
    expect((await t.proxy('POST', `/coupons/${coupon.id}/revoke`, FRIEND.id)).status).toBe(404);

    // Revoke within the time limit: the points come back.
    const revoked = await t.proxy('POST', `/coupons/${coupon.id}/revoke`, ADA.id);
    expect(revoked.status).toBe(200);
    expect(((await revoked.json()) as { data: { coupon: { status: string }; points: number } }).data).toMatchObject({ coupon: { status: 'revoked' }, points: 580 });
    expect(await balance()).toBe(580);
    const [refund] = await newEntries();
    expect(refund).toMatchObject({ type: 'refund_point', points: 500, source_type: 'revoke' });

    // A referral: Ada's link; her friend's first order through its code rewards both.
    const link = await t.proxy('GET', '/referral', ADA.id);
    expect(link.status).toBe(200);
    const { code, url } = ((await link.json()) as { data: { code: string; url: string } }).data;
    expect(url).toContain(code);
    const friendOrder = orderBody(
      { id: '5500000000000000002', customer: FRIEND, note_attributes: [{ name: '_loyalty_referral_code', value: code }], browser_ip: '198.51.100.20', total_price: '40.00', subtotal_price: '40.00' },
      [{ price: '40.00' }],
    );
    expect((await t.deliverOrder(friendOrder)).status).toBe(200);
    expect(await balance()).toBe(880);
    const [advocateReward] = await newEntries();
    expect(advocateReward).toMatchObject({ points: 300, source_type: 'referral' });
    const friendReferral = (await t.db.selectFrom('ledger_entries').selectAll().where('shop_id', '=', SHOP).where('customer_id', '=', FRIEND.id).where('source_type', '=', 'referral').execute())[0];
    expect(friendReferral).toMatchObject({ points: 200 });
    // The friend's own order and first-order milestone earn as usual besides the referral reward.
    expect(await balance(FRIEND.id)).toBe(200 + 40 + 150);
    // Lifetime points: every positive entry, the revoke's refund of the 500 spent among them (so that
    // lifetime less spent is the balance); the storefront shows the stored figure, which agrees with
    // the ledger for both shoppers.
    const card = ((await (await t.proxy('GET', '/customer', ADA.id)).json()) as { data: { points: number; lifetimePoints: number } }).data;
    expect(card).toMatchObject({ points: 880, lifetimePoints: 100 + 200 + 50 + 80 + 150 + 300 + 500 });
    await expectLedgerTotalsAgree(t.db, SHOP, 2);
  });
});
