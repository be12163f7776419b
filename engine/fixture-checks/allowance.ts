/**
 * `check: "allowance"`: where a shop stands on a plan allowance (engine/allowance.ts).
 * facts: allowance (`orders`, `referral_links` or `transactions`), shop { plan,
 * shouldLimitTransactions, unlockUnlimitedOrderReferrals }, used. expect: state, message?, limit?.
 */
import { orderAllowance, referralLinkAllowance, transactionAllowance } from '../allowance';
import { compare, FixtureFormatError, resultOf, type FixtureCheck } from './support';

export const allowanceCheck: FixtureCheck = {
  async run({ facts, expect }) {
    const shop = (facts.shop ?? {}) as { plan?: string; shouldLimitTransactions?: boolean; unlockUnlimitedOrderReferrals?: boolean };
    const used = Number(facts.used);
    const plan = shop.plan ?? 'free';
    const answer =
      facts.allowance === 'orders'
        ? orderAllowance(plan, used)
        : facts.allowance === 'referral_links'
          ? referralLinkAllowance(plan, used, shop.unlockUnlimitedOrderReferrals === true)
          : facts.allowance === 'transactions'
            ? transactionAllowance(shop.shouldLimitTransactions === true, used)
            : null;
    if (!answer) throw new FixtureFormatError('/facts/allowance', 'must be orders, referral_links or transactions');
    const comparisons = [compare('state', expect.state, answer.state)];
    if (expect.message !== undefined) comparisons.push(compare('message', expect.message, answer.message));
    if (expect.limit !== undefined) comparisons.push(compare('limit', expect.limit, answer.limit));
    return resultOf(comparisons, answer);
  },
};
