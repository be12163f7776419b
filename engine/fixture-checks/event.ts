/**
 * `check: "event"`: a customer event (sign-up, birthday, review, visit, …) against the shop's
 * programs of that event (engine/events.ts). facts: shop { timezone }, programs, event, history.
 * expect: totalPoints, decisions? [{ program, outcome, points?, status?, reason? }].
 */
import type { PastAward } from '../eligibility';
import { evaluateEvent, type EarningEvent } from '../events';
import { compare, resultOf, toDocs, type FixtureCheck, type FixtureProgram } from './support';

export const eventCheck: FixtureCheck = {
  async run({ facts, expect }, options) {
    const docs = toDocs((facts.programs ?? []) as FixtureProgram[], options, '/facts/programs');
    const shop = (facts.shop ?? {}) as { timezone?: string };
    const evaluation = evaluateEvent(docs, facts.event as EarningEvent, (facts.history ?? []) as PastAward[], shop.timezone ?? 'UTC');
    const comparisons = [compare('totalPoints', expect.totalPoints, evaluation.totalPoints)];
    for (const [i, e] of ((expect.decisions ?? []) as { program: string; outcome: string; points?: number; status?: string | null; reason?: string | null }[]).entries()) {
      const actual = evaluation.decisions.find((d) => d.programTitle === e.program || d.programId === e.program);
      if (!actual) {
        comparisons.push({ what: `decisions/${i} (${e.program})`, expected: e.outcome, actual: 'no such program', pass: false });
        continue;
      }
      comparisons.push(compare(`${e.program}: outcome`, e.outcome, actual.outcome));
      if (e.points !== undefined) comparisons.push(compare(`${e.program}: points`, e.points, actual.points));
      if (e.status !== undefined) comparisons.push(compare(`${e.program}: status`, e.status, actual.status));
      if (e.reason !== undefined) comparisons.push(compare(`${e.program}: reason`, e.reason, actual.reason));
    }
    return resultOf(comparisons, evaluation);
  },
};
