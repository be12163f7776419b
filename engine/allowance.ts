/**
 * Usage allowances by plan (spec 002 §9 monthly order allowances and referral link limits; spec
 * 001 §4 order limit banners and §8 their messages; spec 000 §4 transactions counter): how much
 * of an allowance a shop has used, whether to warn, and whether the feature is now off.
 *
 * Decisions (README): a warning shows from 90% of an allowance (spec 001 §9 lists 90 among its
 * threshold constants; its "between 200 and 150" range cannot hold); at the allowance the feature
 * stops — the order that reaches the allowance still earns, the next does not. The transactions
 * cap is not in the spec; it is TRANSACTIONS_CAP below, used only for shops flagged
 * shouldLimitTransactions.
 */
import { monthlyOrderAllowance, referralLinkLimit } from './gates';

/** Warning threshold as a fraction of the allowance. */
export const WARNING_RATIO = 0.9;
/** Transactions cap for shops flagged shouldLimitTransactions (spec 000 §4; value not in the spec). */
export const TRANSACTIONS_CAP = 10_000;

/** An allowance's state: `ok`, `warning` (close to the limit) or `reached` (the feature is off). */
export interface AllowanceState {
  state: 'ok' | 'warning' | 'reached';
  used: number;
  /** null means unlimited. */
  limit: number | null;
  /** The spec's banner text, or null when nothing shows. */
  message: string | null;
}

function quota(used: number, limit: number | null, warning: string, reached: string): AllowanceState {
  if (limit === null) return { state: 'ok', used, limit, message: null };
  if (used >= limit) return { state: 'reached', used, limit, message: reached };
  if (used >= Math.ceil(limit * WARNING_RATIO)) return { state: 'warning', used, limit, message: warning };
  return { state: 'ok', used, limit, message: null };
}

/**
 * Monthly orders: `used` orders this month before the one being counted. With 150 allowed, the
 * 150th order earns (used 149) and the 151st does not (used 150).
 */
export function orderAllowance(plan: string, used: number): AllowanceState {
  const limit = monthlyOrderAllowance(plan);
  return quota(
    used,
    limit,
    `You are about to reach the limitation of ${limit} orders/month. Loyalty program will be disabled when you reach the limit.`,
    `You have reached the limitation of ${limit} orders/month. Loyalty program has been disabled.`,
  );
}

/** Referral links: `used` links the shop has; `unlocked` is the shop's unlockUnlimitedOrderReferrals flag. */
export function referralLinkAllowance(plan: string, used: number, unlocked = false): AllowanceState {
  const limit = unlocked ? null : referralLinkLimit(plan);
  return quota(used, limit, `You are approaching the referral limit of ${limit ?? 0} links on your current plan.`, 'You have reached the referral limit');
}

/** Transactions for shops whose transactions are limited (spec 000 §4: at the cap all programs are disabled). */
export function transactionAllowance(shouldLimit: boolean, used: number): AllowanceState {
  return quota(
    used,
    shouldLimit ? TRANSACTIONS_CAP : null,
    'You are close to the transaction limit. Contact us to verify your account.',
    'Transaction limit reached: all programs are disabled. Contact us to verify your account.',
  );
}
