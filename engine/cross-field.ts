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

const isEmptyList = (v: unknown): boolean => !Array.isArray(v) || v.length === 0;
const isBlank = (v: unknown): boolean => v === undefined || v === null || v === '';

/** "Select at least one product or collection" when a reward applies to specific ones (spec 002 §5). */
const appliesToSelection: CrossFieldRule = (data) => {
  if (data.appliesTo === 'specific_products' && isEmptyList(data.productIds)) return [{ path: '/productIds', message: 'Select at least one product or collection' }];
  if (data.appliesTo === 'specific_collections' && isEmptyList(data.collectionIds)) return [{ path: '/collectionIds', message: 'Select at least one product or collection' }];
  return [];
};

/** Percent values are 1 to 100 wherever a sibling says the value is a percentage (spec 002 §5 "discount percentage 1 to 100"). */
const percentValue: CrossFieldRule = (data) => {
  const checks: [unknown, unknown, string][] = [
    [data.rewardType, data.value, '/value'],
    [data.discountType, data.discountValue, '/discountValue'],
  ];
  return checks.flatMap(([type, value, path]) =>
    (type === 'percentage' || type === 'percentage_discount') && typeof value === 'number' && (value < 1 || value > 100) ? [{ path, message: 'Must be between 1 and 100' }] : [],
  );
};

/** A free gift names its product or its collection, as `giftBy` says. */
const freeGiftTarget: CrossFieldRule = (data) => {
  if (data.giftBy === 'collection' && isBlank(data.collectionId)) return [{ path: '/collectionId', message: 'Collection is required' }];
  if (data.giftBy !== 'collection' && isBlank(data.productId)) return [{ path: '/productId', message: 'Select at least one product or collection' }];
  return [];
};

/** "Specific countries must be added when selected" (spec 002 §5). */
const specificCountries: CrossFieldRule = (data) =>
  data.shippingCountries === 'specific' && isEmptyList(data.countryCodes) ? [{ path: '/countryCodes', message: 'Specific countries must be added when selected' }] : [];

/** A deal with a condition needs the condition's value. */
const dealCondition: CrossFieldRule = (data) =>
  typeof data.condition === 'string' && data.condition !== 'none' && isBlank(data.conditionValue) ? [{ path: '/conditionValue', message: 'This field is required' }] : [];

/** POS rewards are redeemed at POS: their coupon cannot be online-store only. */
const posChannel: CrossFieldRule = (data) => {
  const coupon = data.coupon;
  return coupon !== null && typeof coupon === 'object' && !Array.isArray(coupon) && coupon.salesChannel === 'online_store'
    ? [{ path: '/coupon/salesChannel', message: 'POS rewards must be available on POS' }]
    : [];
};

const ALWAYS: CrossFieldRule[] = [startBeforeEnd, redeemBounds, appliesToSelection, percentValue, specificCountries, dealCondition];
const BY_KIND: Record<string, CrossFieldRule[]> = {
  'earning.streak_interact_website': [streakWithinRuntime],
  'earning.google_maps_review': [instantBelowEarning],
  'earning.milestone': [milestoneSteps],
  'redeem.free_gift': [freeGiftTarget],
  'redeem.pos_amount_discount': [posChannel],
  'redeem.pos_percentage_discount': [posChannel],
};

/** Every cross-field issue of a document of `kindId` (empty when it is consistent). */
export function crossFieldIssues(kindId: string, data: JsonObject): FieldIssue[] {
  return [...ALWAYS, ...(BY_KIND[kindId] ?? [])].flatMap((rule) => rule(data));
}
