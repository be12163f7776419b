/**
 * Milestones (spec 002 §3 Milestone rule; spec 001 §3 Milestone types and rewards): a program of
 * one type (orders, amount spent, earned points, reviews, inactivity, referrals) with ordered
 * steps; when a customer's progress reaches steps not yet rewarded, the program rewards them —
 * every newly reached step with `all_rewards`, only the highest with `highest_only` (the lower
 * ones are then passed over for good).
 */
import { windowPosition } from './store-time';
import type { StoredDocument } from './types';
import { kindData } from './generated';

export type MilestoneType = 'milestone_order' | 'milestone_amount_spent' | 'milestone_earned_point' | 'milestone_reviews' | 'milestone_inactivity' | 'milestone_referral';
export type MilestoneAction = 'bonus_point' | 'amount' | 'percentage' | 'free_shipping' | 'give_product';

/** One step: reach `value` (orders, major currency units, points, reviews, inactive units, referrals). */
export interface MilestoneStep {
  value: number;
  action: MilestoneAction;
  earnPoint?: number;
  discountValue?: number;
  productId?: string;
}

/** The customer's progress, per milestone type (amounts in major currency units, inactivity in days). */
export interface MilestoneProgress {
  orders?: number;
  amountSpent?: number;
  earnedPoints?: number;
  reviews?: number;
  referrals?: number;
  inactiveDays?: number;
}

/** A step the customer reached: `points` for bonus_point, else a reward (coupon or product) to issue. */
export interface MilestoneReward {
  programId: string;
  programTitle: string;
  stepIndex: number;
  value: number;
  action: MilestoneAction;
  points: number;
  /** Discount amount or percent, or product id, for rewards other than points. */
  rewardValue: number | string | null;
}

/** What a progress update reaches. `passedOver` lists lower steps skipped under highest_only. */
export interface MilestoneEvaluation {
  rewards: MilestoneReward[];
  passedOver: { programId: string; stepIndex: number }[];
  totalPoints: number;
}

const INACTIVITY_DAYS: Record<string, number> = { day: 1, month: 30, year: 365 };

function progressFor(type: MilestoneType, progress: MilestoneProgress, inactivityUnit: string | undefined): number {
  switch (type) {
    case 'milestone_order':
      return progress.orders ?? 0;
    case 'milestone_amount_spent':
      return progress.amountSpent ?? 0;
    case 'milestone_earned_point':
      return progress.earnedPoints ?? 0;
    case 'milestone_reviews':
      return progress.reviews ?? 0;
    case 'milestone_referral':
      return progress.referrals ?? 0;
    case 'milestone_inactivity':
      return (progress.inactiveDays ?? 0) / (INACTIVITY_DAYS[inactivityUnit ?? 'day'] ?? 1);
  }
}

/**
 * Rewards for steps newly reached.
 * @param settled `${programId}#${stepIndex}` of steps already rewarded or passed over (from history)
 */
export function evaluateMilestones(programs: readonly StoredDocument[], progress: MilestoneProgress, settled: ReadonlySet<string>, at: Date, timeZone: string): MilestoneEvaluation {
  const rewards: MilestoneReward[] = [];
  const passedOver: MilestoneEvaluation['passedOver'] = [];
  for (const doc of programs.filter((d) => d.kind === 'earning.milestone')) {
    const p = kindData(doc, 'earning.milestone');
    if (p.status !== true || windowPosition(at, timeZone, p.startDate, p.endDate) !== 'within') continue;
    const reached = progressFor(p.typeMilestone, progress, p.inactivityUnit);
    const fresh = (p.milestones ?? [])
      .map((step, stepIndex) => ({ step, stepIndex }))
      .filter(({ step, stepIndex }) => step.value <= reached && !settled.has(`${doc.id}#${stepIndex}`))
      .sort((a, b) => a.step.value - b.step.value);
    const chosen = p.progression === 'highest_only' ? fresh.slice(-1) : fresh;
    if (p.progression === 'highest_only') for (const f of fresh.slice(0, -1)) passedOver.push({ programId: doc.id, stepIndex: f.stepIndex });
    for (const { step, stepIndex } of chosen) {
      rewards.push({
        programId: doc.id,
        programTitle: p.title ?? doc.id,
        stepIndex,
        value: step.value,
        action: step.action,
        points: step.action === 'bonus_point' ? (step.earnPoint ?? 0) : 0,
        rewardValue: step.action === 'give_product' ? (step.productId ?? null) : step.action === 'amount' || step.action === 'percentage' ? (step.discountValue ?? null) : null,
      });
    }
  }
  return { rewards, passedOver, totalPoints: rewards.reduce((n, r) => n + r.points, 0) };
}
