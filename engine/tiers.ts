/**
 * VIP tier assessment (spec 002 §3 Tier, §4 VIP Tier program and Tier demotion, §5 tier rules,
 * §9 tier reset periods). Pure: takes the tier ladder, the program settings and a customer's tier
 * stats, and answers which tier the customer qualifies for (or moves to on demotion) with an
 * explanation naming the requirement and the value seen. The server applies the answers.
 *
 * Policy decisions (README "Decisions"):
 * - The program's entry method (`tier.settings` general.entryMethod) decides for every tier; a
 *   tier's own `entryMethod` is read only when no settings document exists (then the base tier's).
 * - Amount-spent requirements are in major currency units (the form's "500" is $500); stats are
 *   minor units, so the requirement is scaled by the currency exponent exactly.
 * - Exclusive tiers are never reached by assessment, only by manual assignment.
 * - A ledger change only ever promotes; moving down is the demotion rule's job (inactivity).
 */
import type { OrderEvaluation, ProgramDecision } from './earning';
import { allocate } from './points';
import type { StoredDocument } from './types';

/** The schema's entry methods (schemas/tier/settings general.entryMethod), verbatim. */
export type EntryMethod = 'points_earned' | 'amount_spent' | 'number_of_orders';
export const ENTRY_METHODS: readonly EntryMethod[] = ['points_earned', 'amount_spent', 'number_of_orders'];

/** The schema's demotion modes (schemas/tier/settings demotion.mode), verbatim. */
export type DemotionMode = 'downgrade_tier' | 'reset_tier';
export type InactivityUnit = 'day' | 'week' | 'month' | 'year';
export type AssessmentCycle = 'lifetime' | 'calendar_year' | 'half_calendar_year' | 'rolling';

/** One tier as assessment reads it (a `tier.tier` document). */
export interface TierDef {
  /** The tier document's edit version (for ledger entries' program_version; issue 15). */
  version?: number;
  id: string;
  name: string;
  /** Points, major currency units or orders, per the entry method; the base tier has 0. */
  entryRequirement: number;
  exclusive: boolean;
  /** Bonus points on entering the tier (entryReward.earnPoint). */
  entryRewardPoints: number;
  /** Earning multiplier from a `points_multiplier` perk (e.g. 1.5), or null. */
  pointsMultiplier: number | null;
  entryMethod: EntryMethod;
}

/** The VIP program settings assessment reads (the `tier.settings` document). */
export interface TierProgramSettings {
  entryMethod: EntryMethod;
  startDate: string | null;
  assessment: { cycle: AssessmentCycle; offsetMonths: number; lookbackMonths: number };
  demotion: { mode: DemotionMode; inactivityValue: number; inactivityUnit: InactivityUnit };
  grantEntryRewards: boolean;
  changeNotes: string;
}

/** A customer's tier stats over the assessment period. */
export interface TierStats {
  /** Tier points (whole points). */
  tierPoints: number;
  /** Minor currency units. */
  amountSpentMinor: number;
  orders: number;
}

/** Why a tier was answered. */
export interface TierExplanation {
  method: EntryMethod;
  /** The requirement of the answered tier, in the stats' units (points, minor units, orders). */
  required: number;
  /** The customer's value in the same units. */
  seen: number;
  /** The next tier up, what it needs and how far the customer is (null at the top). */
  next: { tierId: string; tierName: string; required: number; remaining: number } | null;
  message: string;
}

/** The assessment answer. `tierId` null only when the shop has no assessable tier. */
export interface TierAssessment {
  tierId: string | null;
  explanation: TierExplanation;
}

const num = (v: unknown, fallback: number): number => (typeof v === 'number' && Number.isFinite(v) ? v : fallback);
const str = <T extends string>(v: unknown, allowed: readonly T[], fallback: T): T => (typeof v === 'string' && (allowed as readonly string[]).includes(v) ? (v as T) : fallback);
const obj = (v: unknown): Record<string, unknown> => (v !== null && typeof v === 'object' && !Array.isArray(v) ? (v as Record<string, unknown>) : {});

/** The multiplier of a tier's `points_multiplier` perks (the largest when several), or null. */
function multiplierOf(perks: unknown): number | null {
  if (!Array.isArray(perks)) return null;
  let best: number | null = null;
  for (const p of perks) {
    const perk = obj(p);
    if (perk.type !== 'points_multiplier') continue;
    const m = num(perk.multiplier, Number.NaN);
    if (m > 0 && (best === null || m > best)) best = m;
  }
  return best;
}

/** A `tier.tier` document as a TierDef (defaults from the schema for missing fields). */
export function tierFromDocument(doc: StoredDocument): TierDef {
  const d = doc.data as Record<string, unknown>;
  return {
    id: doc.id,
    version: doc.version,
    name: typeof d.name === 'string' ? d.name : doc.id,
    entryRequirement: Math.max(0, num(d.entryRequirement, 0)),
    exclusive: d.exclusive === true,
    entryRewardPoints: Math.max(0, Math.trunc(num(obj(d.entryReward).earnPoint, 0))),
    pointsMultiplier: multiplierOf(d.perks),
    entryMethod: str(d.entryMethod, ENTRY_METHODS, 'points_earned'),
  };
}

/** The program settings from a `tier.settings` document (or the schema's defaults when absent). */
export function settingsFromDocument(doc: StoredDocument | undefined, tiers: readonly TierDef[] = []): TierProgramSettings {
  const d = obj(doc?.data);
  const general = obj(d.general);
  const assessment = obj(d.assessment);
  const demotion = obj(d.demotion);
  const launch = obj(d.launch);
  const base = ladder(tiers)[0];
  return {
    entryMethod: doc ? str(general.entryMethod, ENTRY_METHODS, 'points_earned') : (base?.entryMethod ?? 'points_earned'),
    startDate: typeof general.startDate === 'string' && general.startDate ? general.startDate : null,
    assessment: {
      cycle: str(assessment.cycle, ['lifetime', 'calendar_year', 'half_calendar_year', 'rolling'] as const, 'lifetime'),
      offsetMonths: Math.min(11, Math.max(0, Math.trunc(num(assessment.offsetMonths, 0)))),
      lookbackMonths: Math.min(36, Math.max(1, Math.trunc(num(assessment.lookbackMonths, 12)))),
    },
    demotion: {
      mode: str(demotion.mode, ['downgrade_tier', 'reset_tier'] as const, 'downgrade_tier'),
      inactivityValue: Math.max(1, Math.trunc(num(demotion.inactivityValue, 6))),
      inactivityUnit: str(demotion.inactivityUnit, ['day', 'week', 'month', 'year'] as const, 'month'),
    },
    grantEntryRewards: launch.grantEntryRewards === true,
    changeNotes: typeof launch.changeNotes === 'string' ? launch.changeNotes : '',
  };
}

/** The assessable ladder: non-exclusive tiers by entry requirement, lowest (the base tier) first. */
export function ladder(tiers: readonly TierDef[]): TierDef[] {
  return tiers.filter((t) => !t.exclusive).sort((a, b) => a.entryRequirement - b.entryRequirement || a.id.localeCompare(b.id));
}

/** A tier's requirement in the stats' units: points, minor currency units (exact), or orders. */
export function requirementInStatUnits(tier: TierDef, method: EntryMethod, exponent: number): number {
  if (method !== 'amount_spent') return Math.ceil(tier.entryRequirement);
  // Decimal-string scaling keeps 19.99 × 100 exact (no 1998.9999…).
  const [whole = '0', fraction = ''] = String(tier.entryRequirement).split('.');
  const padded = (fraction + '0'.repeat(exponent)).slice(0, exponent);
  const minor = Number(whole) * 10 ** exponent + (padded ? Number(padded) : 0);
  return fraction.length > exponent ? minor + 1 : minor;
}

/** The customer's value for an entry method, in the stats' units. */
export function statFor(stats: TierStats, method: EntryMethod): number {
  return method === 'points_earned' ? stats.tierPoints : method === 'amount_spent' ? stats.amountSpentMinor : stats.orders;
}

const METHOD_WORDS: Record<EntryMethod, string> = { points_earned: 'tier points earned', amount_spent: 'amount spent (minor units)', number_of_orders: 'orders' };

/**
 * The tier a customer qualifies for: the highest non-exclusive tier whose entry requirement the
 * customer's stat for `method` reaches. Throws nothing; with no assessable tier answers null.
 * @param exponent the shop currency's minor-unit exponent (USD 2), for amount-spent requirements
 * @example assessTier(tiers, 'number_of_orders', { tierPoints: 0, amountSpentMinor: 0, orders: 3 }, 2)
 */
export function assessTier(tiers: readonly TierDef[], method: EntryMethod, stats: TierStats, exponent: number): TierAssessment {
  const steps = ladder(tiers);
  const seen = statFor(stats, method);
  let reached = -1;
  steps.forEach((t, i) => {
    if (seen >= requirementInStatUnits(t, method, exponent)) reached = i;
  });
  // The base tier (requirement 0) is always reached; a ladder whose lowest tier needs more leaves
  // the customer below it only if they have not reached it either.
  const tier = reached >= 0 ? steps[reached] : undefined;
  const nextTier = steps[reached + 1];
  const next = nextTier
    ? { tierId: nextTier.id, tierName: nextTier.name, required: requirementInStatUnits(nextTier, method, exponent), remaining: Math.max(0, requirementInStatUnits(nextTier, method, exponent) - seen) }
    : null;
  const required = tier ? requirementInStatUnits(tier, method, exponent) : 0;
  const message = tier
    ? `Qualifies for ${tier.name}: ${METHOD_WORDS[method]} ${seen} ≥ ${required}${next ? `; ${next.remaining} more for ${next.tierName}` : ''}.`
    : steps.length === 0
      ? 'The shop has no tier customers can reach by assessment.'
      : `Below every tier: ${METHOD_WORDS[method]} ${seen}${next ? `; ${next.remaining} more for ${next.tierName}` : ''}.`;
  return { tierId: tier?.id ?? null, explanation: { method, required, seen, next, message } };
}

/**
 * Whether a new assessment moves the customer up: true when `candidate` is higher on the ladder
 * than `current` (a customer without a tier, or in a tier no longer on the ladder, moves to any).
 */
export function isPromotion(tiers: readonly TierDef[], current: string | null, candidate: string | null): boolean {
  if (candidate === null || candidate === current) return false;
  const steps = ladder(tiers);
  const from = steps.findIndex((t) => t.id === current);
  const to = steps.findIndex((t) => t.id === candidate);
  return to > from;
}

/** Adds `value` units to a store-local date (YYYY-MM-DD), clamping the day to the month's end. */
export function addToLocalDate(date: string, value: number, unit: InactivityUnit): string {
  const [y = 1970, m = 1, d = 1] = date.split('-').map(Number);
  if (unit === 'day' || unit === 'week') {
    const t = new Date(Date.UTC(y, m - 1, d + value * (unit === 'week' ? 7 : 1)));
    return t.toISOString().slice(0, 10);
  }
  const months = unit === 'year' ? value * 12 : value;
  const total = y * 12 + (m - 1) + months;
  const year = Math.floor(total / 12);
  const month = (total % 12) + 1;
  const last = new Date(Date.UTC(year, month, 0)).getUTCDate();
  return `${year}-${String(month).padStart(2, '0')}-${String(Math.min(d, last)).padStart(2, '0')}`;
}

/** A demotion decision. */
export interface DemotionDecision {
  demote: boolean;
  toTierId: string | null;
  /** True when the customer's tier points restart (reset_tier: at 0; downgrade_tier: at the new tier's entry requirement). */
  resetStatsTo: number | null;
  message: string;
}

/**
 * Tier demotion (spec 002 §4): after `inactivityValue inactivityUnit` without activity (counted in
 * store-local dates from `lastActivityDate`), `downgrade_tier` moves one step down the ladder and
 * restarts the tier stat at that tier's requirement (spec §4 "a direct tier change resets tier
 * points to the new tier's entry points"); `reset_tier` moves to the lowest tier with 0. Exclusive
 * (manual) tiers and the base tier are never demoted.
 * @param lastActivityDate store-local YYYY-MM-DD of the last activity (or of the last tier change)
 * @param today store-local YYYY-MM-DD now
 */
export function assessDemotion(tiers: readonly TierDef[], settings: TierProgramSettings, currentTierId: string | null, manual: boolean, lastActivityDate: string | null, today: string, exponent: number): DemotionDecision {
  const none = (message: string): DemotionDecision => ({ demote: false, toTierId: currentTierId, resetStatsTo: null, message });
  if (manual) return none('Exclusive tiers are assigned manually and never demoted.');
  const steps = ladder(tiers);
  const index = steps.findIndex((t) => t.id === currentTierId);
  if (index <= 0) return none('The customer is in the lowest tier (or none).');
  if (!lastActivityDate) return none('No activity recorded yet.');
  const { inactivityValue, inactivityUnit, mode } = settings.demotion;
  const due = addToLocalDate(lastActivityDate, inactivityValue, inactivityUnit);
  if (today < due) return none(`Active on ${lastActivityDate}; demotion due on ${due}.`);
  const to = mode === 'reset_tier' ? steps[0]! : steps[index - 1]!;
  const resetStatsTo = mode === 'reset_tier' ? 0 : requirementInStatUnits(to, settings.entryMethod, exponent);
  return {
    demote: true,
    toTierId: to.id,
    resetStatsTo,
    message: `No activity since ${lastActivityDate} (${inactivityValue} ${inactivityUnit}${inactivityValue === 1 ? '' : 's'}): ${mode === 'reset_tier' ? `reset to ${to.name} with 0 tier points` : `downgraded to ${to.name}`}.`,
  };
}

/**
 * The store-local months (YYYY-MM, inclusive) whose activity counts in the current assessment
 * period (spec 002 §9 "assessment cycle with offset and lookback"): lifetime (from = null),
 * calendar year or half calendar year starting `offsetMonths` after January, or the last
 * `lookbackMonths` months including this one.
 */
export function assessmentMonths(assessment: TierProgramSettings['assessment'], today: string): { from: string | null; to: string } {
  const [y = 1970, m = 1] = today.split('-').map(Number);
  const to = today.slice(0, 7);
  const index = y * 12 + (m - 1);
  const key = (i: number): string => `${Math.floor(i / 12)}-${String((i % 12) + 1).padStart(2, '0')}`;
  switch (assessment.cycle) {
    case 'lifetime':
      return { from: null, to };
    case 'rolling':
      return { from: key(index - assessment.lookbackMonths + 1), to };
    case 'calendar_year':
    case 'half_calendar_year': {
      const length = assessment.cycle === 'calendar_year' ? 12 : 6;
      const shifted = index - assessment.offsetMonths;
      return { from: key(shifted - (((shifted % length) + length) % length) + assessment.offsetMonths), to };
    }
  }
}

/**
 * Scales awarded points by a tier's earning multiplier (the `points_multiplier` perk): whole
 * points, rounded down, exactly (the multiplier is taken to hundredths).
 * @example multiplyPoints(15, 1.5) // 22
 */
export function multiplyPoints(points: number, multiplier: number): number {
  const hundredths = Math.round(multiplier * 100);
  return Number((BigInt(Math.trunc(points)) * BigInt(hundredths)) / 100n);
}

/**
 * Applies a tier's earning multiplier to an order's awards (spec 002 §3 Tier perks): each awarding
 * decision's points are multiplied (rounded down, `multiplyPoints`), its line allocations are
 * re-split over the same lines in the same proportions (largest remainder, so refunds take back
 * exactly what each line earned), its message says so and `tierMultiplier` records the base
 * points. Denials are unchanged. Returns a new evaluation; the input is not modified.
 */
export function applyTierMultiplier(evaluation: OrderEvaluation, tier: { tierId: string; tierName: string; multiplier: number }): OrderEvaluation {
  const decisions = evaluation.decisions.map((d): ProgramDecision => {
    if (d.outcome !== 'award') return d;
    const points = multiplyPoints(d.points, tier.multiplier);
    const lineTotal = d.lineAllocations.reduce((n, a) => n + a.points, 0);
    // Shipping and tax shares sit on no line: they scale with the rest.
    const lineShare = d.points > 0 ? multiplyPoints(lineTotal, tier.multiplier) : 0;
    const parts = allocate(lineShare, d.lineAllocations.map((a) => a.points));
    return {
      ...d,
      points,
      lineAllocations: d.lineAllocations.map((a, i) => ({ ...a, points: parts[i] ?? 0 })),
      message: `${d.message} ×${tier.multiplier} for the ${tier.tierName} tier: ${d.points} → ${points} points.`,
      tierMultiplier: { ...tier, basePoints: d.points },
    };
  });
  return { ...evaluation, decisions, totalPoints: decisions.reduce((n, d) => n + (d.outcome === 'award' ? d.points : 0), 0) };
}
