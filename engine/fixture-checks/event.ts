/**
 * `check: "event"`: a customer event (sign-up, birthday, review, visit, …) against the shop's
 * programs of that event (engine/events.ts). facts: shop { timezone }, programs, event, history.
 * expect: totalPoints, decisions? [{ program, outcome, points?, status?, reason? }].
 */
import type { PastAward } from '../eligibility';
import { evaluateEvent, type EarningEvent } from '../events';
import { compare, compareDecisions, resultOf, toDocs, type ExpectedDecision, type FixtureCheck, type FixtureProgram } from './support';

export const eventCheck: FixtureCheck = {
  async run({ facts, expect }, options) {
    const docs = toDocs((facts.programs ?? []) as FixtureProgram[], options, '/facts/programs');
    const shop = (facts.shop ?? {}) as { timezone?: string };
    const evaluation = evaluateEvent(docs, facts.event as EarningEvent, (facts.history ?? []) as PastAward[], shop.timezone ?? 'UTC');
    const comparisons = [compare('totalPoints', expect.totalPoints, evaluation.totalPoints)];
    comparisons.push(...compareDecisions((expect.decisions ?? []) as ExpectedDecision[], evaluation.decisions));
    return resultOf(comparisons, evaluation);
  },
};
