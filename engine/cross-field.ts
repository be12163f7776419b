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

const ALWAYS: CrossFieldRule[] = [startBeforeEnd];
const BY_KIND: Record<string, CrossFieldRule[]> = {
  'earning.streak_interact_website': [streakWithinRuntime],
};

/** Every cross-field issue of a document of `kindId` (empty when it is consistent). */
export function crossFieldIssues(kindId: string, data: JsonObject): FieldIssue[] {
  return [...ALWAYS, ...(BY_KIND[kindId] ?? [])].flatMap((rule) => rule(data));
}
