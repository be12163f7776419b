/**
 * Pending points (spec 002 §4: "Pending points become available after a waiting period";
 * spec 000 §3 point history types with pending variants). A pending award is available from
 * `availableAt`; balances derive from the ledger, so nothing is rewritten when time passes.
 */

/** The shop's pending-points setting. `days` is the waiting period in whole days. */
export interface PendingSettings {
  enabled: boolean;
  days: number;
}

/** A ledger row as balances read it: signed points and, for pending awards, when they become available. */
export interface BalanceEntry {
  points: number;
  /** ISO instant; absent or past means available. */
  availableAt?: string | null;
}

/** When points awarded at `at` become available: now when pending points are off. */
export function availableAt(at: Date, settings: PendingSettings | undefined): Date {
  if (!settings?.enabled || settings.days <= 0) return at;
  return new Date(at.getTime() + settings.days * 86_400_000);
}

/**
 * Available and pending balances at `now` (whole points). An entry whose `availableAt` is still
 * ahead counts toward pending, whatever its sign: a `pending_deduct` entry (negative, carrying the
 * pending award's `availableAt`) cancels that award's pending points, which is how turning pending
 * points off converts them (spec 002 §4) without rewriting the ledger. Every other deduction counts
 * against the available balance.
 */
export function balances(entries: readonly BalanceEntry[], now: Date): { available: number; pending: number } {
  let available = 0;
  let pending = 0;
  for (const e of entries) {
    if (e.availableAt && new Date(e.availableAt).getTime() > now.getTime()) pending += e.points;
    else available += e.points;
  }
  return { available, pending };
}
