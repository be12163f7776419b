/**
 * `check: "balance"`: available and pending points at a moment (engine/pending.ts).
 * facts: shop { pendingPoints: { enabled, days } }, entries [{ points, at }] (awards become
 * pending per the setting; negative points are deductions), now. expect: available, pending.
 */
import { compare, resultOf, type FixtureCheck } from './support';
import { availableAt, balances, type PendingSettings } from '../pending';

export const balanceCheck: FixtureCheck = {
  async run({ facts, expect }) {
    const settings = ((facts.shop ?? {}) as { pendingPoints?: PendingSettings }).pendingPoints;
    const entries = ((facts.entries ?? []) as { points: number; at: string }[]).map((e) => ({
      points: e.points,
      availableAt: e.points > 0 ? availableAt(new Date(e.at), settings).toISOString() : null,
    }));
    const answer = balances(entries, new Date(String(facts.now)));
    return resultOf([compare('available', expect.available, answer.available), compare('pending', expect.pending, answer.pending)], { entries, ...answer });
  },
};
