/**
 * `check: "refund"`: an order earns points, then refunds take some back (engine/refunds.ts).
 * facts: shop, programs, order (as for `order`), refunds [{ lines: [{ lineId, quantity }] }, …]
 * applied in turn, and optionally programsAtRefund (the programs as changed since — they must not
 * matter). expect: awarded, takenBack (per refund, in order), remaining.
 */
import { evaluateOrder } from '../earning';
import { compare, resultOf, toDocs, type FixtureCheck, type FixtureProgram } from './support';
import { normalizeOrder } from '../order';
import { computeReversals, type AwardRecord, type ReversalRecord } from '../refunds';
import type { JsonObject } from '../types';

export const refundCheck: FixtureCheck = {
  async run({ facts, expect }, options) {
    const shop = (facts.shop ?? {}) as { timezone?: string; currency?: string };
    const docs = toDocs((facts.programs ?? []) as FixtureProgram[], options, '/facts/programs');
    const order = normalizeOrder(facts.order as JsonObject, shop.currency ?? 'USD');
    const evaluation = await evaluateOrder(docs, order, { timeZone: shop.timezone ?? 'UTC' });
    const awards: AwardRecord[] = evaluation.decisions
      .filter((d) => d.outcome === 'award')
      .map((d) => ({ entryId: `entry-${d.programId}`, programId: d.programId, points: d.points, autoRemovePoints: d.autoRemovePoints, lineAllocations: d.lineAllocations }));
    const previous: ReversalRecord[] = [];
    const takenBack: number[] = [];
    for (const [i, refund] of ((facts.refunds ?? []) as { lines: { lineId: string | number; quantity: number }[] }[]).entries()) {
      const reversals = computeReversals(awards, previous, { id: `refund-${i + 1}`, lines: refund.lines.map((l) => ({ lineId: String(l.lineId), quantity: l.quantity })) });
      for (const r of reversals) previous.push({ reversesId: r.reversesId, lines: r.lines });
      takenBack.push(reversals.reduce((n, r) => n + r.points, 0));
    }
    const awarded = evaluation.totalPoints;
    const remaining = awarded - takenBack.reduce((n, x) => n + x, 0);
    const comparisons = [compare('awarded', expect.awarded, awarded), compare('takenBack', expect.takenBack, takenBack), compare('remaining', expect.remaining, remaining)];
    return resultOf(comparisons, { evaluation, reversals: previous });
  },
};
