/**
 * `check: "order"`: an order against the shop's place-order programs (engine/earning.ts).
 * facts: shop { timezone, currency, plan, monthlyOrderCount }, programs, order (platform JSON),
 * now (arrival; program dates use the order's created_at when it has one), customer (profile: type, tierId), history (past awards). expect: totalPoints,
 * orderSkipped?, decisions? [{ program, outcome, points?, reason? }].
 */
import { orderAllowance } from '../allowance';
import { evaluateOrder } from '../earning';
import type { CustomerProfile, PastAward } from '../eligibility';
import { compare, compareDecisions, resultOf, toDocs, type ExpectedDecision, type FixtureCheck, type FixtureProgram } from './support';
import { normalizeOrder } from '../order';
import type { JsonObject } from '../types';

export interface ShopFacts {
  timezone?: string;
  currency?: string;
  plan?: string;
  monthlyOrderCount?: number;
}

export const orderCheck: FixtureCheck = {
  async run({ facts, expect }, options) {
    const shop = (facts.shop ?? {}) as ShopFacts;
    const docs = toDocs((facts.programs ?? []) as FixtureProgram[], options, '/facts/programs');
    const order = normalizeOrder(facts.order as JsonObject, shop.currency ?? 'USD');
    const allowance = shop.plan !== undefined && shop.monthlyOrderCount !== undefined ? orderAllowance(shop.plan, shop.monthlyOrderCount) : null;
    const evaluation = await evaluateOrder(docs, order, {
      timeZone: shop.timezone ?? 'UTC',
      ...(typeof facts.now === 'string' ? { at: new Date(facts.now) } : {}),
      ...(facts.customer ? { customer: facts.customer as CustomerProfile } : {}),
      ...(facts.history ? { history: facts.history as PastAward[] } : {}),
      ...(allowance ? { allowance: { disabled: allowance.state === 'reached', message: allowance.message ?? '' } } : {}),
    });
    const comparisons = [compare('totalPoints', expect.totalPoints, evaluation.totalPoints)];
    if (expect.orderSkipped !== undefined) comparisons.push(compare('orderSkipped', expect.orderSkipped, evaluation.orderSkipped));
    comparisons.push(...compareDecisions((expect.decisions ?? []) as ExpectedDecision[], evaluation.decisions));
    return resultOf(comparisons, evaluation);
  },
};
