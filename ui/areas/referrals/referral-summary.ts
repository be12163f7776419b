/**
 * The referral program in one plain line (issue "editors grouped into cards with a one-line plain
 * summary"; spec 000 §2 /programs/referral…): what the referred friend and the referring customer
 * get, from the `referral.friend_reward` and `referral.customer_reward` documents
 * (schemas/_bases/referral-reward.json).
 */
import type { JsonObject } from '../../../engine/types';
import { t, type MessageKey } from '../../i18n';
import { formatMoney, formatNumber } from '../../i18n/formats';

/** Which side of a referral a reward is for: the referred friend or the referring customer. */
export type ReferralSide = 'friend' | 'customer';

/** The texts of one side's reward, by `rewardType` (schemas/_shared/referral-reward-type.json). */
const REWARD_TEXTS: Record<ReferralSide, { points: MessageKey; point: MessageKey; amount_discount: MessageKey; percentage_discount: MessageKey }> = {
  friend: {
    points: 'referrals.summary.friendPoints',
    point: 'referrals.summary.friendPoint',
    amount_discount: 'referrals.summary.friendAmountOff',
    percentage_discount: 'referrals.summary.friendPercentOff',
  },
  customer: {
    points: 'referrals.summary.customerPoints',
    point: 'referrals.summary.customerPoint',
    amount_discount: 'referrals.summary.customerAmountOff',
    percentage_discount: 'referrals.summary.customerPercentOff',
  },
};

const num = (value: unknown): number | null => (typeof value === 'number' && Number.isFinite(value) ? value : null);

/**
 * One side's reward in words, as the summary line says it: "500 points", "€5.00 off their first
 * order", "10% off their next order of €50.00 or more". `data` is a referral reward document's data:
 * `rewardType` (`points` | `amount_discount` | `percentage_discount`), `value` (points, an amount in
 * major units of `currency`, or a percentage, by type) and, for discounts, `coupon.minimumPurchase`
 * (major units; 0 is none). An empty string when the reward is switched off (`status: false`) or
 * names no positive value of a known type.
 * @example referralReward('friend', { status: true, rewardType: 'amount_discount', value: 5 }, 'USD', 'en') // "$5.00 off their first order"
 */
export function referralReward(side: ReferralSide, data: JsonObject, currency: string, language: string): string {
  const value = num(data.value);
  if (data.status === false || value === null || value <= 0) return '';
  const texts = REWARD_TEXTS[side];
  if (data.rewardType === 'points') {
    return value === 1 ? t(texts.point) : t(texts.points, { points: formatNumber(value, language) });
  }
  let reward: string;
  if (data.rewardType === 'amount_discount') reward = t(texts.amount_discount, { money: formatMoney(value, currency, language) });
  else if (data.rewardType === 'percentage_discount') reward = t(texts.percentage_discount, { percent: formatNumber(value, language) });
  else return '';
  const coupon = data.coupon;
  const minimum = coupon && typeof coupon === 'object' && !Array.isArray(coupon) ? num(coupon.minimumPurchase) : null;
  return minimum !== null && minimum > 0 ? t('referrals.summary.minimum', { reward, money: formatMoney(minimum, currency, language) }) : reward;
}

/** The two reward documents' data; null or undefined for a side not set up. */
export interface ReferralRewards {
  friend: JsonObject | null | undefined;
  customer: JsonObject | null | undefined;
}

/**
 * What the referral program gives, in one line: "Friends get €5.00 off their first order; referrers
 * get 500 points when their friend orders", or one side alone when the other is not set up or off.
 * Amounts in major units of `currency` (the shop's), written in `language` (the admin's). An empty
 * string when neither side gives anything.
 */
export function referralSummary(rewards: ReferralRewards, currency: string, language: string): string {
  const friend = rewards.friend ? referralReward('friend', rewards.friend, currency, language) : '';
  const customer = rewards.customer ? referralReward('customer', rewards.customer, currency, language) : '';
  if (friend && customer) return t('referrals.summary.both', { friend, customer });
  if (friend) return t('referrals.summary.friendOnly', { friend });
  if (customer) return t('referrals.summary.customerOnly', { customer });
  return '';
}
