/**
 * Refunds and cancellations take points back (spec 001 §3 Program.autoRemovePoints): exactly what
 * the refunded lines earned, never more, computed from the line allocations stored with each
 * award — so a program changed since the order does not change what is taken back. Partial
 * quantities take back the floor of their share; the last unit takes the rest, so a line refunded
 * in several steps gives back exactly what it earned.
 */
import type { LineAllocation } from './earning';

/** An earlier award for the order, as stored in the ledger (its decision snapshot). */
export interface AwardRecord {
  entryId: string;
  programId: string;
  points: number;
  autoRemovePoints: boolean;
  lineAllocations: LineAllocation[];
}

/** An earlier reversal of an award: what it took back per line, and how many units it covered. */
export interface ReversalRecord {
  reversesId: string;
  lines: { lineId: string; quantity: number; points: number }[];
}

/**
 * A refund: the lines and quantities refunded (`quantity` units of `lineId`). `full` (a
 * cancellation) takes back everything each award gave, its shipping and tax shares included.
 */
export interface RefundInput {
  id: string;
  lines: { lineId: string; quantity: number }[];
  full?: boolean;
}

/** One reversal to append: `points` is positive here and written to the ledger as negative. */
export interface Reversal {
  reversesId: string;
  programId: string;
  points: number;
  lines: { lineId: string; quantity: number; points: number }[];
}

/**
 * The reversals a refund causes. Awards whose program had autoRemovePoints off are left alone;
 * lines the award did not cover take nothing; quantities beyond what was bought are capped. When
 * the refund leaves nothing of what the award covered (or is `full`), the whole rest of the award
 * goes back, shipping and tax shares included.
 */
export function computeReversals(awards: readonly AwardRecord[], previous: readonly ReversalRecord[], refund: RefundInput): Reversal[] {
  const out: Reversal[] = [];
  // One refund may list a line more than once (restocked to two locations): count it once.
  const merged = new Map<string, number>();
  for (const l of refund.lines) merged.set(l.lineId, (merged.get(l.lineId) ?? 0) + l.quantity);
  const refundLines = [...merged].map(([lineId, quantity]) => ({ lineId, quantity }));
  for (const award of awards) {
    if (!award.autoRemovePoints) continue;
    const prior = previous.filter((r) => r.reversesId === award.entryId).flatMap((r) => r.lines);
    const lines: Reversal['lines'] = [];
    for (const refunded of refundLines) {
      const allocation = award.lineAllocations.find((a) => a.lineId === refunded.lineId);
      if (!allocation || allocation.quantity <= 0 || refunded.quantity <= 0) continue;
      const before = prior.filter((p) => p.lineId === refunded.lineId);
      const unitsBefore = before.reduce((n, p) => n + p.quantity, 0);
      const pointsBefore = before.reduce((n, p) => n + p.points, 0);
      const units = Math.min(refunded.quantity, allocation.quantity - unitsBefore);
      if (units <= 0) continue;
      const cumulative = unitsBefore + units;
      const target = cumulative >= allocation.quantity ? allocation.points : Math.floor((allocation.points * cumulative) / allocation.quantity);
      lines.push({ lineId: refunded.lineId, quantity: units, points: Math.max(0, target - pointsBefore) });
    }
    const alreadyBack = prior.reduce((n, p) => n + p.points, 0);
    // Shipping and tax shares sit on no line: they go back when nothing of the order is left — a
    // cancellation, or a refund that completes every line the award covered.
    const refundedUnits = (lineId: string) =>
      prior.filter((p) => p.lineId === lineId).reduce((n, p) => n + p.quantity, 0) + lines.filter((l) => l.lineId === lineId).reduce((n, l) => n + l.quantity, 0);
    const covered = award.lineAllocations.filter((a) => a.quantity > 0);
    const nothingLeft = refund.full === true || (covered.length > 0 && lines.length > 0 && covered.every((a) => refundedUnits(a.lineId) >= a.quantity));
    const points = nothingLeft ? award.points - alreadyBack : Math.min(lines.reduce((n, l) => n + l.points, 0), award.points - alreadyBack);
    if (points > 0) out.push({ reversesId: award.entryId, programId: award.programId, points, lines });
  }
  return out;
}

/** A cancellation refunds every line in full (spec 002 §4: cancelled orders follow the refund policy). */
export function cancellationRefund(awards: readonly AwardRecord[], orderId: string): RefundInput {
  const lines = new Map<string, number>();
  for (const a of awards) for (const l of a.lineAllocations) lines.set(l.lineId, Math.max(lines.get(l.lineId) ?? 0, l.quantity));
  return { id: `cancel-${orderId}`, lines: [...lines].map(([lineId, quantity]) => ({ lineId, quantity })), full: true };
}
