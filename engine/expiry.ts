/**
 * Point expiry (spec 002 §1 "point expiration", §9 "Point expiry reminders 7-day and 3-day").
 * Pure: given a customer's credits (positive ledger entries) and debits (negative ones), replays
 * them oldest first, each debit consuming the oldest credits still holding points (FIFO; a
 * reversal first takes from the award it reverses; an earlier expiry takes exactly the credits it
 * recorded), and answers which credits' remaining points expire on a store-local date, which
 * credits each expiry consumes, and which reminders are due.
 *
 * The rule (README "Decisions"): a credit earned on store-local date D expires at the start of
 * D + `afterValue` `afterUnit` (the daily job of that store-local date takes it); debits larger than
 * every credit leave a deficit that the next credits pay first.
 */
import { localDate } from './store-time';
import { addToLocalDate, type InactivityUnit } from './tiers';

/** The shop's expiry rule (shop settings `pointExpiry`, server/store/shops.ts). */
export interface ExpiryRule {
  enabled: boolean;
  /** Points expire this long after they were earned. */
  afterValue: number;
  afterUnit: InactivityUnit;
  /** Reminder e-mails this many days before points expire (spec §9: 7 and 3). */
  reminderDaysBefore: number[];
}

/** A positive ledger entry. Points are whole points. */
export interface Credit {
  id: string;
  points: number;
  /** ISO instant the entry was written. */
  at: string;
}

/** A negative ledger entry, `points` as a positive magnitude. */
export interface Debit {
  id: string;
  points: number;
  at: string;
  /** For reversals: the credit it takes back first. */
  reversesId?: string | null;
  /** For earlier expiries: exactly which credits it consumed (their explanation). */
  allocations?: readonly { creditId: string; points: number }[];
}

/** Points taken from one credit. */
export interface Consumption {
  creditId: string;
  points: number;
}

/** A credit with what is left of it and when it expires. */
export interface CreditState {
  id: string;
  points: number;
  remaining: number;
  earnedOn: string;
  expiresOn: string;
}

/** The store-local date a credit earned at `at` expires on (its first day without the points). */
export function expiresOn(at: string, rule: Pick<ExpiryRule, 'afterValue' | 'afterUnit'>, timeZone: string): string {
  return addToLocalDate(localDate(new Date(at), timeZone), rule.afterValue, rule.afterUnit);
}

/**
 * Replays credits and debits in time order (credits first at equal instants) and answers every
 * credit with its remaining points. Debits beyond the credits so far wait as a deficit that
 * later credits pay first.
 */
export function replay(credits: readonly Credit[], debits: readonly Debit[], rule: Pick<ExpiryRule, 'afterValue' | 'afterUnit'>, timeZone: string): CreditState[] {
  type Ev = { at: string; order: number; credit?: Credit; debit?: Debit };
  const events: Ev[] = [...credits.map((c) => ({ at: c.at, order: 0, credit: c })), ...debits.map((d) => ({ at: d.at, order: 1, debit: d }))];
  events.sort((a, b) => (a.at < b.at ? -1 : a.at > b.at ? 1 : a.order - b.order));
  const states: CreditState[] = [];
  const byId = new Map<string, CreditState>();
  let deficit = 0;
  const takeFifo = (amount: number): number => {
    let left = amount;
    for (const s of states) {
      if (left === 0) break;
      const take = Math.min(s.remaining, left);
      s.remaining -= take;
      left -= take;
    }
    return left;
  };
  for (const e of events) {
    if (e.credit) {
      const earnedOn = localDate(new Date(e.credit.at), timeZone);
      const s: CreditState = { id: e.credit.id, points: e.credit.points, remaining: e.credit.points, earnedOn, expiresOn: addToLocalDate(earnedOn, rule.afterValue, rule.afterUnit) };
      const paid = Math.min(deficit, s.remaining);
      s.remaining -= paid;
      deficit -= paid;
      states.push(s);
      byId.set(s.id, s);
      continue;
    }
    const d = e.debit!;
    let left = d.points;
    for (const a of d.allocations ?? []) {
      const s = byId.get(a.creditId);
      if (!s) continue;
      const take = Math.min(s.remaining, a.points, left);
      s.remaining -= take;
      left -= take;
    }
    if (d.reversesId) {
      const s = byId.get(d.reversesId);
      if (s) {
        const take = Math.min(s.remaining, left);
        s.remaining -= take;
        left -= take;
      }
    }
    deficit += takeFifo(left);
  }
  return states;
}

/** What expires for one customer on one store-local date. */
export interface ExpiryDecision {
  /** Total points expiring (whole points, positive). */
  points: number;
  /** The credits consumed, oldest first, and how much of each. */
  consumed: (Consumption & { earnedOn: string; expiresOn: string })[];
}

/**
 * The points that expire on `today` (store-local YYYY-MM-DD): the remaining points of every credit
 * whose expiry date is `today` or earlier. Empty (`points` 0) when nothing is due.
 * @example expiringOn([{ id: 'a', points: 100, at: '2025-01-10T12:00:00Z' }], [{ id: 'b', points: 30, at: '2025-02-01T00:00:00Z' }], { afterValue: 1, afterUnit: 'year' }, 'UTC', '2026-01-10') // 70 points from a
 */
export function expiringOn(credits: readonly Credit[], debits: readonly Debit[], rule: Pick<ExpiryRule, 'afterValue' | 'afterUnit'>, timeZone: string, today: string): ExpiryDecision {
  const consumed = replay(credits, debits, rule, timeZone)
    .filter((s) => s.remaining > 0 && s.expiresOn <= today)
    .map((s) => ({ creditId: s.id, points: s.remaining, earnedOn: s.earnedOn, expiresOn: s.expiresOn }));
  return { points: consumed.reduce((n, c) => n + c.points, 0), consumed };
}

/** A reminder due today: `points` expire on `expiresOn`, `daysBefore` days from now. */
export interface DueReminder {
  expiresOn: string;
  daysBefore: number;
  points: number;
}

/**
 * Reminders due on `today`: for each of the rule's reminder offsets d, the points still held by
 * credits expiring exactly d days after `today` (one reminder per expiry date and offset).
 */
export function dueReminders(credits: readonly Credit[], debits: readonly Debit[], rule: ExpiryRule, timeZone: string, today: string): DueReminder[] {
  const states = replay(credits, debits, rule, timeZone);
  const out: DueReminder[] = [];
  for (const d of [...new Set(rule.reminderDaysBefore)].sort((a, b) => b - a)) {
    const date = addToLocalDate(today, d, 'day');
    const points = states.filter((s) => s.expiresOn === date).reduce((n, s) => n + s.remaining, 0);
    if (points > 0) out.push({ expiresOn: date, daysBefore: d, points });
  }
  return out;
}

/**
 * The earliest store-local earning date whose credits can be due on `today` or within the largest
 * reminder offset: credits earned on or after it and on or before `latestEarnedOn` are the ones a
 * run on `today` looks at.
 */
export function latestEarnedOn(today: string, rule: ExpiryRule): string {
  const ahead = Math.max(0, ...rule.reminderDaysBefore);
  return addToLocalDate(addToLocalDate(today, ahead, 'day'), -rule.afterValue, rule.afterUnit);
}
