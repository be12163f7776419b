/**
 * Referral discount rewards made on the platform after the friend's order transaction (issue 11;
 * spec 002 §3 Referral settings: the friend's and the advocate's coupon).
 *
 * The referral is decided inside the order's transaction (server/services/referrals.ts), which
 * stores each discount reward as `pending` with everything needed to create it and marks the
 * referral `rewards_pending`. Here, outside any transaction, the code is created through the
 * discount adapter; then one short transaction checks the reward is still pending (the referral
 * still `completed`), stores the code on the reward, records the coupon and clears the mark. The
 * loser of a race between two processes, or a failed transaction, deletes the code it made; a
 * platform failure leaves the reward pending for the next pass (the order's own processing, then
 * the sweep that server/main.ts runs every minute). The same pattern as milestone codes
 * (server/services/milestone-rewards.ts).
 */
import { sql } from 'kysely';
import type { AppDeps } from '../deps';
import { CompiledOnce } from '../db/compiled';
import type { IssuedReward } from './referrals';
import { recordCoupon } from './redemption';

/** What issuing needs: the database, the clock, the discount adapter (nothing is made without one) and a log. */
export type ReferralRewardDeps = Pick<AppDeps, 'db' | 'platformDiscounts' | 'logger'>;

const ROLES = [
  ['friend_reward', 'friend'],
  ['advocate_reward', 'advocate'],
] as const;

/**
 * The referrals waiting for a code, of one order (key `order`) or of the whole shop (key `shop`):
 * compiled once, since every order runs the order's variant and almost always finds nothing. The
 * literal 1 (not a bound parameter) lets SQLite use the partial index `referrals_rewards_pending`.
 */
const PENDING_REFERRALS = new CompiledOnce<'shop' | 'order' | 'limit', { id: string; friend_reward: string; advocate_reward: string }>((db, p, key) => {
  const q = db.selectFrom('referrals').select(['id', 'friend_reward', 'advocate_reward']).where('shop_id', '=', p.shop).where('rewards_pending', '=', sql.lit(1));
  return (key === 'order' ? q.where('order_id', '=', p.order) : q).orderBy('id').limit(p.limit);
});

/**
 * Makes the pending discount codes of the shop's referrals (only the referral of `orderId` when
 * given; at most `limit` referrals a pass). Answers how many codes were issued. Never throws for a
 * platform failure (logged; the reward stays pending).
 */
export async function issueReferralRewards(deps: ReferralRewardDeps, shopId: string, options: { orderId?: string; limit?: number } = {}): Promise<number> {
  const discounts = deps.platformDiscounts;
  if (!discounts) return 0;
  const referrals = await PENDING_REFERRALS.rows(deps.db, options.orderId === undefined ? 'shop' : 'order', { shop: shopId, order: options.orderId, limit: options.limit ?? 100 });
  let issued = 0;
  for (const referral of referrals) {
    for (const [column, role] of ROLES) {
      const reward = JSON.parse(referral[column]) as IssuedReward;
      const pending = reward.pending;
      if (!pending) continue;
      let made: { platformId: string; code: string };
      try {
        made = await discounts.createDiscount(shopId, {
          reference: pending.couponId,
          title: pending.title,
          value: pending.value,
          prefix: pending.prefix,
          customerId: pending.customerId,
          startsAt: pending.startsAt,
          endsAt: pending.endsAt,
          minimumPurchase: pending.minimumPurchase,
        });
      } catch (e) {
        deps.logger?.warn({ err: e, shopId, referralId: referral.id, role }, 'referral reward code failed; stays pending');
        continue;
      }
      let won = false;
      try {
        won = await deps.db.transaction().execute(async (tx) => {
          const row = await tx.selectFrom('referrals').select(['status', 'friend_reward', 'advocate_reward']).where('shop_id', '=', shopId).where('id', '=', referral.id).executeTakeFirst();
          if (!row || row.status !== 'completed') return false;
          const current = JSON.parse(row[column]) as IssuedReward;
          // Another process made this code first, or the referral was cancelled meanwhile.
          if (current.pending?.couponId !== pending.couponId) return false;
          const { pending: _done, ...rest } = current;
          const done: IssuedReward = { ...rest, issued: true, code: made.code, platformId: made.platformId };
          const other = JSON.parse(column === 'friend_reward' ? row.advocate_reward : row.friend_reward) as IssuedReward;
          // The compare-and-set: only the row as read is changed, so two processes cannot both win.
          const moved = await tx
            .updateTable('referrals')
            .set({ [column]: JSON.stringify(done), rewards_pending: other.pending ? 1 : 0 })
            .where('shop_id', '=', shopId)
            .where('id', '=', referral.id)
            .where(column, '=', row[column])
            .executeTakeFirst();
          if (Number(moved.numUpdatedRows) === 0) return false;
          // The shopper's coupons list it beside redeemed ones; no points were spent.
          await recordCoupon(tx, {
            id: pending.couponId,
            shop_id: shopId,
            customer_id: pending.customerId,
            program_id: pending.programId,
            program_kind: pending.programKind,
            program_version: pending.programVersion,
            title: pending.title,
            points_spent: 0,
            code: made.code,
            platform_id: made.platformId,
            expires_at: pending.endsAt,
            created_at: pending.startsAt,
          });
          return true;
        });
      } finally {
        if (!won) await discounts.deleteDiscount(shopId, made.platformId).catch((e: unknown) => deps.logger?.warn({ err: e, shopId }, 'could not take back an unused referral code'));
      }
      if (won) issued++;
    }
  }
  return issued;
}

/** Every shop's pending referral codes (the periodic sweep). Answers how many codes were issued. */
export async function issueAllReferralRewards(deps: ReferralRewardDeps): Promise<number> {
  const shops = await deps.db.selectFrom('referrals').select('shop_id').distinct().where('rewards_pending', '=', sql.lit(1)).execute();
  let issued = 0;
  for (const { shop_id: shopId } of shops) issued += await issueReferralRewards(deps, shopId);
  return issued;
}
