/**
 * Who may earn from a program (spec 002 §6 "Customer eligibility for earning: all members,
 * everyone including guests, only VIP tier members, specific tiers"; spec 002 §4 customer types
 * Member, Guest, Left Program) and how often (per-customer limits over the customer's history).
 */
import { periodKey, type TimeUnit } from './periods';

/** The customer as eligibility sees them. `tierId` is null for members without a VIP tier. */
export interface CustomerProfile {
  id: string;
  /** Spec 002 §3 Customer.type. Left and excluded customers never earn. */
  type: 'member' | 'guest' | 'left';
  tierId?: string | null;
  /** An admin excluded this member from all programs (spec 002 §4). */
  excluded?: boolean;
}

export type CustomerEligibility = 'all_members' | 'everyone' | 'vip_members' | 'specific_tiers';

/** Why a customer may not earn from a program, or null when they may. */
export function eligibilityDenial(customer: CustomerProfile, eligibility: CustomerEligibility | undefined, eligibleTiers: readonly string[] | undefined): string | null {
  if (customer.excluded) return 'This customer is excluded from the loyalty program.';
  if (customer.type === 'left') return 'This customer left the loyalty program.';
  switch (eligibility ?? 'all_members') {
    case 'everyone':
      return null;
    case 'all_members':
      return customer.type === 'member' ? null : 'Only members earn from this program; the customer is a guest.';
    case 'vip_members':
      return customer.type === 'member' && customer.tierId ? null : 'Only VIP tier members earn from this program.';
    case 'specific_tiers':
      return customer.type === 'member' && customer.tierId && (eligibleTiers ?? []).includes(customer.tierId)
        ? null
        : `Only members of the tiers ${(eligibleTiers ?? []).join(', ') || '(none selected)'} earn from this program.`;
  }
}

/** A past award from one program to one customer (from the ledger). Points are whole points. */
export interface PastAward {
  programId: string;
  points: number;
  /** ISO instant. */
  at: string;
}

/** A program's per-customer limit settings. */
export interface LimitSettings {
  hasLimit?: boolean;
  limitInterval?: number;
  limitUnit?: TimeUnit;
  earnPointsLimit?: number;
}

/** Who may earn and how often: the settings every earning template shares (spec 001 §3, spec 002 §6). */
export interface EarningAudience extends LimitSettings {
  customerEligibility?: CustomerEligibility;
  eligibleTiers?: string[];
}

/** What the limit leaves: `points` to award (≤ requested) or a denial sentence. */
export type LimitOutcome = { allowed: true; points: number; capped: boolean } | { allowed: false; message: string };

/**
 * Applies a program's limit to `requested` points for a customer at `at`: at most `limitInterval`
 * awards and at most `earnPointsLimit` points per `limitUnit` period (store-local calendar).
 * Without `hasLimit`, everything is allowed.
 */
export function applyLimit(settings: LimitSettings, programId: string, history: readonly PastAward[], requested: number, at: Date, timeZone: string): LimitOutcome {
  if (!settings.hasLimit) return { allowed: true, points: requested, capped: false };
  const unit = settings.limitUnit ?? 'lifetime';
  const key = periodKey(at, unit, timeZone);
  const inPeriod = history.filter((h) => h.programId === programId && h.points > 0 && periodKey(new Date(h.at), unit, timeZone) === key);
  const times = settings.limitInterval ?? 1;
  const per = unit === 'lifetime' ? 'in a lifetime' : `per ${unit}`;
  if (inPeriod.length >= times) return { allowed: false, message: `The limit of ${times} time${times === 1 ? '' : 's'} ${per} is reached.` };
  if (settings.earnPointsLimit !== undefined) {
    const earned = inPeriod.reduce((n, h) => n + h.points, 0);
    const left = settings.earnPointsLimit - earned;
    if (left <= 0) return { allowed: false, message: `The limit of ${settings.earnPointsLimit} points ${per} is reached.` };
    if (requested > left) return { allowed: true, points: left, capped: true };
  }
  return { allowed: true, points: requested, capped: false };
}
