/**
 * Milestones after every award (issue 11; spec 002 §3 Milestone rule): an order or an earning
 * event moves the customer's progress, and the milestone programs reward the steps reached — every
 * one with all_rewards, only the highest with highest_only — once per customer and step.
 */
import { describe, expect, it } from 'vitest';
import { milestoneSteps } from '../../server/services/milestones';
import { issueAllMilestoneRewards } from '../../server/services/milestone-rewards';
import { LocalDiscounts } from '../../server/platform/discounts';
import { SHOP } from '../support/app';
import { CUSTOMER, eventsApp } from '../support/earning-events';
import { orderBody, placeOrderData } from '../support/factories';

const ORDER_CUSTOMER = '6000000000000000001';

describe('milestones', () => {
  it('rewards an orders milestone inside the order that reaches it, each step once', async () => {
    const s = await eventsApp();
    await s.program('place_order', placeOrderData());
    const milestone = await s.program('milestone', { title: 'Order milestones', typeMilestone: 'milestone_order', progression: 'all_rewards', milestones: [{ value: 1, action: 'bonus_point', earnPoint: 100 }, { value: 2, action: 'bonus_point', earnPoint: 200 }] });
    expect((await s.deliverOrder(orderBody())).status).toBe(200);
    const orderPoints = (await s.entries(ORDER_CUSTOMER)).filter((e) => e.source_type === 'order').reduce((n, e) => n + e.points, 0);
    expect(orderPoints).toBeGreaterThan(0);
    expect(await s.balance(ORDER_CUSTOMER)).toBe(orderPoints + 100);
    const bonus = (await s.entries(ORDER_CUSTOMER)).filter((e) => e.source_type === 'milestone');
    expect(bonus.map((e) => [e.source_id, e.program_id, e.points])).toEqual([[`${ORDER_CUSTOMER}#0`, milestone, 100]]);
    expect(JSON.parse(bonus[0]!.explanation)).toMatchObject({ milestone: { stepIndex: 0, value: 1, action: 'bonus_point', points: 100 }, progress: { orders: 1 }, message: '"Order milestones" awards 100 points for reaching 1.' });

    expect((await s.deliverOrder(orderBody())).status).toBe(200);
    expect((await s.entries(ORDER_CUSTOMER)).filter((e) => e.source_type === 'milestone').map((e) => e.points)).toEqual([100, 200]);
    // A third order reaches no new step.
    await s.deliverOrder(orderBody());
    expect((await s.entries(ORDER_CUSTOMER)).filter((e) => e.source_type === 'milestone')).toHaveLength(2);
    expect((await milestoneSteps(s.db, SHOP, ORDER_CUSTOMER)).map((m) => [m.step_index, m.outcome, m.points])).toEqual([[0, 'awarded', 100], [1, 'awarded', 200]]);
  });

  it('rewards only the highest step reached under highest_only and passes the lower one over for good', async () => {
    const s = await eventsApp();
    await s.program('sign_up', { earnPoint: 120 });
    await s.program('sign_up_newsletter', { earnPoint: 30 });
    await s.program('milestone', { title: 'Points milestones', typeMilestone: 'milestone_earned_point', progression: 'highest_only', milestones: [{ value: 50, action: 'bonus_point', earnPoint: 10 }, { value: 100, action: 'bonus_point', earnPoint: 20 }] });
    await s.deliver('customers/create', { ...s.customerBody(), id: CUSTOMER });
    expect(await s.balance()).toBe(140);
    await s.deliver('customers/update', { ...s.customerBody({ email_marketing_consent: { state: 'subscribed' } }), id: CUSTOMER });
    expect(await s.balance()).toBe(170);
    expect((await milestoneSteps(s.db, SHOP, CUSTOMER)).map((m) => [m.step_index, m.outcome, m.points])).toEqual([[0, 'passed_over', 0], [1, 'awarded', 20]]);
  });

  it('turns a coupon step into a single-use code for the customer after the award, with no points', async () => {
    const s = await eventsApp();
    await s.program('sign_up', { earnPoint: 100 });
    await s.program('milestone', { title: 'First points', typeMilestone: 'milestone_earned_point', discountPrefix: 'MILE', milestones: [{ value: 100, action: 'amount', discountValue: 5 }] });
    await s.deliver('customers/create', { ...s.customerBody(), id: CUSTOMER });
    expect(await s.balance()).toBe(100);
    const [step] = await milestoneSteps(s.db, SHOP, CUSTOMER);
    expect(step).toMatchObject({ outcome: 'issued', points: 0 });
    expect(JSON.parse(step!.reward)).toMatchObject({ action: 'amount', rewardValue: 5 });
    // The shopper sees it with their coupons; no points were spent.
    const coupons = ((await (await s.proxy('GET', '/coupons')).json()) as { data: { code: string; title: string; pointsSpent: number; status: string }[] }).data;
    expect(coupons).toEqual([expect.objectContaining({ title: 'First points: reached 100', pointsSpent: 0, status: 'available', code: expect.stringMatching(/^MILE/) })]);
  });

  it('keeps a coupon step pending while the platform fails and issues it once on the next pass', async () => {
    const discounts = new LocalDiscounts();
    const s = await eventsApp(undefined, undefined, { platformDiscounts: discounts });
    await s.program('sign_up', { earnPoint: 100 });
    await s.program('milestone', { title: 'First points', typeMilestone: 'milestone_earned_point', milestones: [{ value: 100, action: 'free_shipping' }] });
    discounts.failNextCreate();
    await s.deliver('customers/create', { ...s.customerBody(), id: CUSTOMER });
    expect((await milestoneSteps(s.db, SHOP, CUSTOMER))[0]).toMatchObject({ outcome: 'reward_pending' });
    const deps = { db: s.db, platformDiscounts: discounts };
    expect(await issueAllMilestoneRewards(deps)).toBe(1);
    expect(await issueAllMilestoneRewards(deps)).toBe(0);
    expect((await milestoneSteps(s.db, SHOP, CUSTOMER))[0]).toMatchObject({ outcome: 'issued' });
    const rows = await s.db.selectFrom('coupons').select(['customer_id', 'points_spent']).where('shop_id', '=', SHOP).execute();
    expect(rows).toEqual([{ customer_id: CUSTOMER, points_spent: 0 }]);
  });

  it('rewards a reviews milestone when a review is approved', async () => {
    const s = await eventsApp();
    await s.program('write_review', { earnPoint: 50, reviewStatus: 'pending' });
    await s.program('milestone', { typeMilestone: 'milestone_reviews', milestones: [{ value: 1, action: 'bonus_point', earnPoint: 25 }] });
    const sent = (await (await s.proxy('POST', '/reviews', { content: 'Fits well and washes nicely.', reviewId: 'sf-1' })).json()) as { data: { review: { id: string } } };
    expect(await s.balance()).toBe(0);
    expect((await s.call('POST', `/api/reviews/${sent.data.review.id}/approve`)).status).toBe(200);
    expect((await s.entries()).map((e) => [e.source_type, e.points]).sort()).toEqual([['milestone', 25], ['review', 50]]);
  });

  it('gives nothing to a customer who left the program', async () => {
    const s = await eventsApp();
    await s.program('place_order', placeOrderData());
    await s.program('milestone', { typeMilestone: 'milestone_order', milestones: [{ value: 1, action: 'bonus_point', earnPoint: 100 }] });
    await s.db.insertInto('customers').values({ shop_id: SHOP, id: ORDER_CUSTOMER, email: '', first_name: '', last_name: '', type: 'left', created_at: '2026-01-01T00:00:00.000Z', updated_at: '2026-01-01T00:00:00.000Z' }).execute();
    await s.deliverOrder(orderBody());
    expect((await s.entries(ORDER_CUSTOMER)).filter((e) => e.source_type === 'milestone')).toEqual([]);
  });
});
