/**
 * `check: "redeem"`: may this customer spend these points on this reward (engine/redeem.ts)?
 * facts: program ({ kind, data } or null), points, balance, customerType, variantId, collectionId,
 * customerRedemptions, totalRedemptions. expect: violations [codes], message? (the first shown).
 */
import { compare, resultOf, toDocs, type FixtureCheck, type FixtureProgram } from './support';
import { checkRedeem } from '../redeem';

export const redeemCheck: FixtureCheck = {
  async run({ facts, expect }, options) {
    const program = facts.program ? (toDocs([facts.program as FixtureProgram], options, '/facts/program')[0] ?? null) : null;
    const violations = checkRedeem({
      program,
      points: Number(facts.points),
      balance: Number(facts.balance ?? 0),
      ...(facts.customerType ? { customerType: facts.customerType as 'member' | 'guest' | 'left' } : {}),
      variantId: (facts.variantId as string | undefined) ?? null,
      collectionId: (facts.collectionId as string | undefined) ?? null,
      customerRedemptions: Number(facts.customerRedemptions ?? 0),
      totalRedemptions: Number(facts.totalRedemptions ?? 0),
    });
    const comparisons = [compare('violations', expect.violations, violations.map((v) => v.code))];
    if (expect.message !== undefined) comparisons.push(compare('message', expect.message, violations[0]?.message ?? null));
    return resultOf(comparisons, violations);
  },
};
