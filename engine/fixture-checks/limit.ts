/**
 * `check: "limit"`: a change (create, or update when `change.id` names an existing program)
 * against the shop's programs (engine/limits.ts). expect: violations [{ code, message? }].
 */
import { compare, resultOf, toDocs, type FixtureCheck, type FixtureProgram } from './support';
import { checkLimits } from '../limits';

export const limitCheck: FixtureCheck = {
  async run({ facts, expect }, options) {
    const docs = toDocs((facts.programs ?? []) as FixtureProgram[], options, '/facts/programs');
    const change = facts.change as FixtureProgram;
    const data = options.prepare ? options.prepare(change.kind, change.data, '/facts/change/data') : change.data;
    const shop = (facts.shop ?? {}) as { timezone?: string };
    const violations = await checkLimits({ kind: change.kind, id: change.id ?? null, data }, docs, new Date(String(facts.now)), shop.timezone ?? 'UTC');
    const expected = (expect.violations ?? []) as { code: string; message?: string }[];
    const comparisons = [compare('violations', expected.map((v) => v.code), violations.map((v) => v.code))];
    for (const v of expected) {
      if (v.message !== undefined) comparisons.push(compare(`${v.code}: message`, v.message, violations.find((a) => a.code === v.code)?.message ?? null));
    }
    return resultOf(comparisons, violations);
  },
};
