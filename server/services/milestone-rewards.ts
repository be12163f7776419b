/**
 * Milestone rewards other than points (issue 11; spec 001 §3 milestone rewards: amount discount,
 * percentage discount, free shipping, free product): a step settled as `reward_pending` inside the
 * award's transaction (server/services/milestones.ts) becomes a single-use discount code for that
 * customer here, after the transaction — the platform call never holds the database.
 *
 * Issuing is safe to repeat and to run from two processes at once: the code is created first, then
 * one transaction moves the step from `reward_pending` to `issued` and records the coupon (the
 * shopper sees it with their other coupons, `GET /proxy/coupons`); the loser of a race, or a failed
 * transaction, deletes the code it made. A platform failure leaves the step pending for the next
 * pass (after the customer's next award, or the periodic sweep started by server/main.ts).
 */
import type { MilestoneReward } from '../../engine/milestones';
import type { JsonObject } from '../../engine/types';
import type { AppDeps } from '../deps';
import { CompiledOnce } from '../db/compiled';
import type { MilestoneStepsTable } from '../db/tables';
import type { DiscountValue } from '../platform/discounts';
import { recordCoupon } from './redemption';

/** What issuing needs: the database, the clock, the discount adapter (nothing is issued without one) and a log. */
export type MilestoneRewardDeps = Pick<AppDeps, 'db' | 'now' | 'platformDiscounts' | 'logger'>;

/** Step outcome once its code exists. */
export const MILESTONE_ISSUED = 'issued';

/** The discount a milestone reward gives, or null for a reward that is not a code (bonus points). */
export function milestoneDiscount(reward: MilestoneReward): { value: DiscountValue; appliesTo?: { productIds: string[] } } | null {
  const amount = typeof reward.rewardValue === 'number' ? reward.rewardValue : Number(reward.rewardValue);
  switch (reward.action) {
    case 'amount':
      return Number.isFinite(amount) && amount > 0 ? { value: { type: 'amount', amount } } : null;
    case 'percentage':
      return Number.isFinite(amount) && amount > 0 ? { value: { type: 'percentage', percent: Math.min(100, amount) } } : null;
    case 'free_shipping':
      return { value: { type: 'free_shipping' } };
    case 'give_product':
      // The product free: 100 % off that product, once.
      return reward.rewardValue !== null && String(reward.rewardValue) !== '' ? { value: { type: 'percentage', percent: 100 }, appliesTo: { productIds: [String(reward.rewardValue)] } } : null;
    default:
      return null;
  }
}

/**
 * The pending steps of one customer (key `customer`) or of the whole shop (key `shop`), oldest first:
 * compiled once, since every award runs the customer's variant and almost always finds nothing.
 */
export const PENDING_STEPS = new CompiledOnce<'shop' | 'customer' | 'limit', MilestoneStepsTable>((db, p, key) => {
  const q = db.selectFrom('milestone_steps').selectAll().where('shop_id', '=', p.shop).where('outcome', '=', 'reward_pending');
  return (key === 'customer' ? q.where('customer_id', '=', p.customer) : q).orderBy('created_at').limit(p.limit);
});

/**
 * Issues the pending milestone rewards of `customerId` (every customer of the shop when absent, at
 * most `limit` steps a pass). Returns how many codes were issued. Never throws for a platform
 * failure (logged; the step stays pending).
 */
export async function issueMilestoneRewards(deps: MilestoneRewardDeps, shopId: string, customerId?: string, limit = 100): Promise<number> {
  const discounts = deps.platformDiscounts;
  if (!discounts) return 0;
  const pending = await PENDING_STEPS.rows(deps.db, customerId === undefined ? 'shop' : 'customer', { shop: shopId, customer: customerId, limit });
  let issued = 0;
  for (const step of pending) {
    const reward = JSON.parse(step.reward) as MilestoneReward;
    const discount = milestoneDiscount(reward);
    if (!discount) continue;
    const program = await deps.db.selectFrom('documents').select(['kind', 'version', 'data']).where('shop_id', '=', shopId).where('id', '=', step.program_id).executeTakeFirst();
    const data = program ? (JSON.parse(program.data) as JsonObject) : {};
    const prefix = typeof data.discountPrefix === 'string' && data.discountPrefix ? data.discountPrefix : undefined;
    const at = (deps.now ?? (() => new Date()))().toISOString();
    const couponId = crypto.randomUUID();
    const title = `${reward.programTitle}: reached ${reward.value}`;
    let made: { platformId: string; code: string };
    try {
      made = await discounts.createDiscount(shopId, {
        reference: couponId,
        title,
        value: discount.value,
        ...(prefix ? { prefix } : {}),
        customerId: step.customer_id,
        startsAt: at,
        endsAt: null,
        ...(discount.appliesTo ? { appliesTo: discount.appliesTo } : {}),
      });
    } catch (e) {
      deps.logger?.warn({ err: e, shopId, programId: step.program_id, stepIndex: step.step_index }, 'milestone reward code failed; stays pending');
      continue;
    }
    let won = false;
    try {
      won = await deps.db.transaction().execute(async (tx) => {
        const moved = await tx
          .updateTable('milestone_steps')
          .set({ outcome: MILESTONE_ISSUED })
          .where('shop_id', '=', shopId)
          .where('customer_id', '=', step.customer_id)
          .where('program_id', '=', step.program_id)
          .where('step_index', '=', step.step_index)
          .where('outcome', '=', 'reward_pending')
          .executeTakeFirst();
        if (Number(moved.numUpdatedRows) === 0) return false;
        await recordCoupon(tx, {
          id: couponId,
          shop_id: shopId,
          customer_id: step.customer_id,
          program_id: step.program_id,
          program_kind: program?.kind ?? 'earning.milestone',
          program_version: program?.version ?? 0,
          title,
          points_spent: 0,
          code: made.code,
          platform_id: made.platformId,
          expires_at: null,
          created_at: at,
        });
        return true;
      });
    } finally {
      if (!won) await discounts.deleteDiscount(shopId, made.platformId).catch((e: unknown) => deps.logger?.warn({ err: e, shopId }, 'could not take back a duplicate milestone code'));
    }
    if (won) issued++;
  }
  return issued;
}

/** Every shop's pending milestone rewards (the periodic sweep). Returns how many codes were issued. */
export async function issueAllMilestoneRewards(deps: MilestoneRewardDeps): Promise<number> {
  const shops = await deps.db.selectFrom('milestone_steps').select('shop_id').distinct().where('outcome', '=', 'reward_pending').execute();
  let issued = 0;
  for (const { shop_id: shopId } of shops) issued += await issueMilestoneRewards(deps, shopId);
  return issued;
}
