/**
 * `check: "gate"`: may this shop use this feature (engine/gates.ts)? facts: shop { plan,
 * shopifyPlan, customFeatures, customizeForShops }, feature. expect: allowed, unlockPlan.
 */
import { compare, resultOf, type FixtureCheck } from './support';
import { checkGate, type GateShop } from '../gates';

export const gateCheck: FixtureCheck = {
  async run({ facts, expect }) {
    const answer = await checkGate(String(facts.feature), facts.shop as GateShop);
    const comparisons = [compare('allowed', expect.allowed, answer.allowed)];
    if (expect.unlockPlan !== undefined) comparisons.push(compare('unlockPlan', expect.unlockPlan, answer.unlockPlan));
    return resultOf(comparisons, answer);
  },
};
