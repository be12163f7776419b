/**
 * `check: "milestone"`: a customer's progress against milestone programs (engine/milestones.ts).
 * facts: shop { timezone }, programs, progress, settled ["program-1#0", …], now.
 * expect: totalPoints, rewards? [{ program, stepIndex, action?, points? }], passedOver? [stepIndex…].
 */
import { compare, resultOf, toDocs, type FixtureCheck, type FixtureProgram } from './support';
import { evaluateMilestones, type MilestoneProgress } from '../milestones';

export const milestoneCheck: FixtureCheck = {
  async run({ facts, expect }, options) {
    const docs = toDocs((facts.programs ?? []) as FixtureProgram[], options, '/facts/programs');
    const shop = (facts.shop ?? {}) as { timezone?: string };
    const result = evaluateMilestones(docs, (facts.progress ?? {}) as MilestoneProgress, new Set((facts.settled ?? []) as string[]), new Date(String(facts.now)), shop.timezone ?? 'UTC');
    const comparisons = [compare('totalPoints', expect.totalPoints, result.totalPoints)];
    if (expect.rewards !== undefined) {
      const expected = expect.rewards as { program: string; stepIndex: number; action?: string; points?: number }[];
      comparisons.push(compare('rewards (program#step)', expected.map((r) => `${r.program}#${r.stepIndex}`), result.rewards.map((r) => `${r.programTitle}#${r.stepIndex}`)));
      for (const e of expected) {
        const actual = result.rewards.find((r) => r.programTitle === e.program && r.stepIndex === e.stepIndex);
        if (e.action !== undefined) comparisons.push(compare(`${e.program}#${e.stepIndex}: action`, e.action, actual?.action ?? null));
        if (e.points !== undefined) comparisons.push(compare(`${e.program}#${e.stepIndex}: points`, e.points, actual?.points ?? null));
      }
    }
    if (expect.passedOver !== undefined) comparisons.push(compare('passedOver', expect.passedOver, result.passedOver.map((p) => p.stepIndex)));
    return resultOf(comparisons, result);
  },
};
