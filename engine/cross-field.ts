/**
 * Cross-field rules JSON Schema cannot state (spec 002 §5), in one place for the server and the
 * form. Each returns field issues with the spec's message and a JSON Pointer to the field.
 */
import { daysInclusive } from './store-time';
import type { FieldIssue, JsonObject } from './types';

type CrossFieldRule = (data: JsonObject) => FieldIssue[];

/** Start date must be before the end date (spec 002 §5); the same day is allowed (a one-day program). */
const startBeforeEnd: CrossFieldRule = (data) => {
  const { startDate, endDate } = data;
  if (typeof startDate === 'string' && typeof endDate === 'string' && startDate > endDate) {
    return [{ path: '/endDate', message: 'Start date must be before end date' }];
  }
  return [];
};

/** Streak length cannot exceed program runtime (spec 002 §5): the longest streak fits between the dates. */
const streakWithinRuntime: CrossFieldRule = (data) => {
  const { startDate, endDate, streakMilestones } = data;
  if (typeof startDate !== 'string' || typeof endDate !== 'string' || !Array.isArray(streakMilestones) || startDate > endDate) return [];
  const runtime = daysInclusive(startDate, endDate);
  return streakMilestones.flatMap((m, i) =>
    m !== null && typeof m === 'object' && !Array.isArray(m) && typeof m.day === 'number' && m.day > runtime
      ? [{ path: `/streakMilestones/${i}/day`, message: `Streak length cannot exceed program runtime (${runtime} days)` }]
      : [],
  );
};

/**
 * Redeem point bounds (spec 002 §5 "Redeem"): minimum spend ≤ maximum and a multiple of the redeem
 * points; maximum ≥ minimum, ≥ the redeem points and a multiple of them.
 */
const redeemBounds: CrossFieldRule = (data) => {
  const step = typeof data.redeemPoint === 'number' ? data.redeemPoint : null;
  const min = typeof data.minimumPoints === 'number' ? data.minimumPoints : null;
  const max = typeof data.maximumPoints === 'number' ? data.maximumPoints : null;
  const issues: FieldIssue[] = [];
  if (step !== null && step > 0) {
    if (min !== null && min % step !== 0) issues.push({ path: '/minimumPoints', message: `Must be a multiple of ${step}` });
    if (max !== null && max % step !== 0) issues.push({ path: '/maximumPoints', message: `Must be a multiple of ${step}` });
    if (max !== null && max < step) issues.push({ path: '/maximumPoints', message: `Must be greater than or equal to the redeem points (${step})` });
  }
  if (min !== null && max !== null && min > max) issues.push({ path: '/minimumPoints', message: `Must be less than or equal to the maximum (${max})` });
  return issues;
};

/** Google Maps instant points are from 0 and below the earning points (spec 002 §5). */
const instantBelowEarning: CrossFieldRule = (data) =>
  typeof data.instantPoints === 'number' && typeof data.earnPoint === 'number' && data.instantPoints >= data.earnPoint
    ? [{ path: '/instantPoints', message: `Must be less than the earning points (${data.earnPoint})` }]
    : [];

/** Milestones: values unique and increasing (each above the one before); percentage discounts 1 to 100 (spec 002 §5 "Milestone"). */
const milestoneSteps: CrossFieldRule = (data) => {
  if (!Array.isArray(data.milestones)) return [];
  const issues: FieldIssue[] = [];
  const seen = new Set<number>();
  let previous: number | null = null;
  data.milestones.forEach((step, i) => {
    if (step === null || typeof step !== 'object' || Array.isArray(step)) return;
    const value = typeof step.value === 'number' ? step.value : null;
    if (value !== null && seen.has(value)) issues.push({ path: `/milestones/${i}/value`, message: 'Value already exists' });
    else if (value !== null && previous !== null && value < previous) issues.push({ path: `/milestones/${i}/value`, message: `Must be greater than ${previous}` });
    if (value !== null) {
      seen.add(value);
      previous = Math.max(previous ?? value, value);
    }
    if (step.action === 'percentage' && typeof step.discountValue === 'number' && (step.discountValue < 1 || step.discountValue > 100)) {
      issues.push({ path: `/milestones/${i}/discountValue`, message: 'Must be between 1 and 100' });
    }
    const needs: Record<string, string> = { bonus_point: 'earnPoint', amount: 'discountValue', percentage: 'discountValue', give_product: 'productId' };
    const field = typeof step.action === 'string' ? needs[step.action] : undefined;
    if (field && (step[field] === undefined || step[field] === null || step[field] === '')) issues.push({ path: `/milestones/${i}/${field}`, message: 'This field is required' });
  });
  return issues;
};

const ALWAYS: CrossFieldRule[] = [startBeforeEnd, redeemBounds];
const BY_KIND: Record<string, CrossFieldRule[]> = {
  'earning.streak_interact_website': [streakWithinRuntime],
  'earning.google_maps_review': [instantBelowEarning],
  'earning.milestone': [milestoneSteps],
};

/** Every cross-field issue of a document of `kindId` (empty when it is consistent). */
export function crossFieldIssues(kindId: string, data: JsonObject): FieldIssue[] {
  return [...ALWAYS, ...(BY_KIND[kindId] ?? [])].flatMap((rule) => rule(data));
}
