/**
 * Redeem checks (spec 002 §5 "Redeem": reward program required, balance sufficient, redeem amount
 * > 0, multiples of the redeem points, minimum and maximum, variant and collection required;
 * spec 001 §8 storefront messages). Answers every problem with the spec's message; the first
 * one is what the shopper sees.
 */
import type { StoredDocument } from './types';

/** A shopper asks to spend `points` on a reward. */
export interface RedeemRequest {
  /** The reward program, or null when none was chosen or it no longer exists. */
  program: StoredDocument | null;
  /** Points to spend (whole points). */
  points: number;
  /** The customer's available balance (whole points). */
  balance: number;
  customerType?: 'member' | 'guest' | 'left';
  /** free_gift: the chosen product variant; buy_x_get_y: the chosen collection. */
  variantId?: string | null;
  collectionId?: string | null;
  /** Redemptions of this program so far: by this customer, and by everyone. */
  customerRedemptions?: number;
  totalRedemptions?: number;
}

/** One reason the redemption cannot go ahead. */
export interface RedeemViolation {
  code: string;
  message: string;
}

interface RewardSettings {
  status?: boolean;
  redeemPoint?: number;
  minimumPoints?: number;
  maximumPoints?: number;
  maximumUses?: number;
  maximumUsesPerCustomer?: number;
}

/** Every violation of a redeem request, in the order the storefront reports them (empty = allowed). */
export function checkRedeem(request: RedeemRequest): RedeemViolation[] {
  const out: RedeemViolation[] = [];
  if (!request.program) return [{ code: 'reward_program_blank', message: 'Reward program is blank' }];
  const reward = request.program.data as RewardSettings;
  const kind = request.program.kind;
  if (reward.status !== true) out.push({ code: 'reward_inactive', message: 'This reward is not available' });
  if (request.customerType && request.customerType !== 'member') out.push({ code: 'not_a_member', message: 'Only members can redeem rewards' });
  if (!(request.points > 0)) out.push({ code: 'redeem_amount_not_positive', message: 'Redeem amount must be greater than 0' });
  else {
    const step = reward.redeemPoint ?? 0;
    if (step > 0 && reward.minimumPoints === undefined && reward.maximumPoints === undefined && request.points !== step) {
      out.push({ code: 'redeem_amount_mismatch', message: `This reward costs ${step} points` });
    }
    if (step > 0 && request.points % step !== 0) out.push({ code: 'redeem_amount_not_multiple', message: `Redeem amount must be a multiple of ${step}` });
    if (reward.minimumPoints !== undefined && request.points < reward.minimumPoints) out.push({ code: 'redeem_amount_below_minimum', message: `Redeem amount must be at least ${reward.minimumPoints}` });
    if (reward.maximumPoints !== undefined && request.points > reward.maximumPoints) out.push({ code: 'redeem_amount_above_maximum', message: `Redeem amount must be at most ${reward.maximumPoints}` });
    if (request.points > request.balance) out.push({ code: 'insufficient_balance', message: 'Current balance is insufficient' });
  }
  if (kind === 'redeem.free_gift' && !request.variantId) out.push({ code: 'variant_required', message: 'Variant is required' });
  if (kind === 'redeem.buy_x_get_y' && !request.collectionId) out.push({ code: 'collection_required', message: 'Collection is required' });
  if (reward.maximumUsesPerCustomer !== undefined && (request.customerRedemptions ?? 0) >= reward.maximumUsesPerCustomer) {
    out.push({ code: 'customer_uses_exhausted', message: 'You have run out of redemption' });
  }
  if (reward.maximumUses !== undefined && (request.totalRedemptions ?? 0) >= reward.maximumUses) {
    out.push({ code: 'reward_uses_exhausted', message: 'We have run out of reward coupons' });
  }
  return out;
}
