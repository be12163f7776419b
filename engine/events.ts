/**
 * Earning events other than orders (spec 001 §3 Earning events, §9 templates; spec 002 §4, §5):
 * sign-up, newsletter, birthday, member anniversary, write review, Google Maps review, visit
 * website, visit streak, survey, custom program and the social follow, share and join events.
 * Each event is evaluated against the shop's active programs of the same event; every decision
 * carries the reason and a sentence. Pure: the server supplies the customer's history.
 *
 * Decisions (README "Decisions"): a birthday is rewarded on the customer's birthday (store-local
 * date; 29 February falls on 28 February in common years) when it was submitted, and last
 * changed, at least 30 store-local calendar days before; an anniversary on each yearly return of the member's join
 * date; a pending review earns when approved unless the program gives instant points while
 * pending; a Google Maps review earns its instant points when submitted and the rest when approved.
 */
import { applyLimit, eligibilityDenial, type CustomerProfile, type EarningAudience, type PastAward } from './eligibility';
import { localDate, windowPosition } from './store-time';
import type { StoredDocument } from './types';
import googleMapsSchema from '../schemas/earning/google_maps_review/schema.json';

/** Event names that are evaluated here (the spec's earning event enum minus place_order and milestone). */
export const EVENT_KINDS = [
  'sign_up', 'sign_up_newsletter', 'birthday', 'member_anniversary', 'write_review', 'google_maps_review',
  'interact_website', 'streak_interact_website', 'fill_survey', 'custom_program', 'social_activity',
  'like_facebook', 'follow_instagram', 'follow_twitter', 'follow_pinterest', 'share_facebook', 'share_twitter',
  'follow_tiktok', 'subscribe_youtube', 'join_discord', 'join_telegram', 'join_whatsapp', 'join_line',
] as const;
export type EventKind = (typeof EVENT_KINDS)[number];

/** Spec 002 §5 / spec 001 §5: a birthday must be submitted at least 30 days beforehand. */
export const BIRTHDAY_NOTICE_DAYS = 30;

/** The customer as events see them: the profile plus dates some events need. */
export interface EventCustomer extends CustomerProfile {
  /** Birthday as MM-DD (year optional: YYYY-MM-DD accepted). */
  birthday?: string | null;
  /** When the birthday was first submitted and last changed (ISO instants). */
  birthdaySubmittedAt?: string | null;
  birthdayUpdatedAt?: string | null;
  /** When the customer joined the program (ISO instant). */
  memberSince?: string | null;
}

/** One earning event. `type` is the event name; the optional parts belong to specific events. */
export interface EarningEvent {
  type: EventKind;
  /** ISO instant of the event. */
  at: string;
  customer: EventCustomer;
  /** write_review: the review as the review app reports it. */
  review?: { id: string; content: string; hasMedia?: boolean; status: 'pending' | 'approved' | 'disapproved' };
  /** google_maps_review: the link and where the review is in approval. */
  googleReview?: { url: string; stage: 'submitted' | 'approved' | 'rejected' };
  /** fill_survey: the customer's answer text. */
  survey?: { answer: string };
  /** custom_program: the action key the trigger sent. */
  actionKey?: string;
  /** streak_interact_website: store-local dates (YYYY-MM-DD) of the customer's earlier visits. */
  visitDates?: string[];
}

/** Whether awarded points can be spent now or wait (spec 002 §4 pending points, review approval). */
export type PointsStatus = 'available' | 'pending';

/** A program's decision about one event. */
export interface EventDecision {
  programId: string;
  programTitle: string;
  kind: string;
  outcome: 'award' | 'deny';
  points: number;
  status: PointsStatus | null;
  reason: string | null;
  message: string;
}

/** Every decision about one event and the points it awards. */
export interface EventEvaluation {
  event: EventKind;
  totalPoints: number;
  decisions: EventDecision[];
}

/** Program settings events read (a union over the event templates; absent fields are unused). */
interface EventProgram extends EarningAudience {
  title?: string;
  status?: boolean;
  earnPoint?: number;
  startDate?: string;
  endDate?: string;
  minimumCharacters?: number;
  mediaBonusPoints?: number;
  reviewStatus?: 'pending' | 'approveAuto';
  instantPointsWhilePending?: boolean;
  limitPerCustomer?: number;
  instantPoints?: number;
  actionKey?: string;
  streakMilestones?: { day: number; earnPoint: number }[];
}

type Verdict = { points: number; status: PointsStatus; note?: string } | { deny: string; message: string };

const monthDay = (value: string): string | null => {
  const m = /^(?:\d{4}-)?(\d{2})-(\d{2})$/.exec(value.trim());
  return m ? `${m[1]}-${m[2]}` : null;
};
const isLeap = (year: number): boolean => (year % 4 === 0 && year % 100 !== 0) || year % 400 === 0;
/** The day a month-day falls on in a given year (02-29 → 02-28 in common years). */
const observed = (md: string, year: number): string => (md === '02-29' && !isLeap(year) ? '02-28' : md);
/** Store-local calendar days from one instant to another (30 days = 30 dates apart, whatever the hour). */
const calendarDaysBetween = (earlier: Date, later: Date, tz: string): number =>
  Math.round((Date.parse(`${localDate(later, tz)}T00:00:00Z`) - Date.parse(`${localDate(earlier, tz)}T00:00:00Z`)) / 86_400_000);
/** The Google Maps link pattern is the template's own, so the form and the engine accept the same links. */
const GOOGLE_MAPS_URL = new RegExp(googleMapsSchema.properties.googleMapsUrl.pattern, 'u');

/** Event-specific rules; each returns points (before limits) or a denial. */
const RULES: Partial<Record<EventKind, (p: EventProgram, e: EarningEvent, tz: string) => Verdict>> = {
  birthday(p, e, tz) {
    const md = e.customer.birthday ? monthDay(e.customer.birthday) : null;
    if (!md) return { deny: 'no_birthday', message: 'Birthday is invalid' };
    const at = new Date(e.at);
    const today = localDate(at, tz);
    if (today.slice(5) !== observed(md, Number(today.slice(0, 4)))) return { deny: 'not_birthday', message: `Today (${today}) is not the customer's birthday (${md}).` };
    for (const [field, label] of [['birthdaySubmittedAt', 'submitted'], ['birthdayUpdatedAt', 'last changed']] as const) {
      const when = e.customer[field];
      if (when && calendarDaysBetween(new Date(when), at, tz) < BIRTHDAY_NOTICE_DAYS) {
        return { deny: 'birthday_too_recent', message: `Birthday must be submitted at least ${BIRTHDAY_NOTICE_DAYS} days beforehand (it was ${label} on ${when.slice(0, 10)}).` };
      }
    }
    return { points: p.earnPoint ?? 0, status: 'available' };
  },
  member_anniversary(p, e, tz) {
    if (!e.customer.memberSince) return { deny: 'not_anniversary', message: 'The customer has no join date.' };
    const joined = localDate(new Date(e.customer.memberSince), tz);
    const today = localDate(new Date(e.at), tz);
    const year = Number(today.slice(0, 4));
    if (year <= Number(joined.slice(0, 4)) || today.slice(5) !== observed(joined.slice(5), year)) {
      return { deny: 'not_anniversary', message: `Today (${today}) is not an anniversary of joining (${joined}).` };
    }
    return { points: p.earnPoint ?? 0, status: 'available' };
  },
  write_review(p, e) {
    const review = e.review;
    if (!review) return { deny: 'no_review', message: 'The event carries no review.' };
    if (review.status === 'disapproved') return { deny: 'review_disapproved', message: "Your review has been rejected because it does not meet community standards or the store's location" };
    const min = p.minimumCharacters ?? 0;
    if (review.content.trim().length < min) return { deny: 'review_too_short', message: `The review has ${review.content.trim().length} characters; at least ${min} are needed.` };
    const points = (p.earnPoint ?? 0) + (review.hasMedia ? (p.mediaBonusPoints ?? 0) : 0);
    const approved = review.status === 'approved' || p.reviewStatus === 'approveAuto' || p.instantPointsWhilePending === true;
    return { points, status: approved ? 'available' : 'pending', ...(approved ? {} : { note: 'points wait for the review to be approved' }) };
  },
  google_maps_review(p, e) {
    const review = e.googleReview;
    if (!review || !GOOGLE_MAPS_URL.test(review.url)) {
      return { deny: 'invalid_google_maps_link', message: 'You must enter a link from Google Maps' };
    }
    const instant = Math.min(p.instantPoints ?? 0, Math.max(0, (p.earnPoint ?? 0) - 1));
    if (review.stage === 'rejected') return { deny: 'review_rejected', message: "Your review has been rejected because it does not meet community standards or the store's location" };
    if (review.stage === 'submitted') {
      return instant > 0 ? { points: instant, status: 'available', note: 'instant points on submission' } : { deny: 'awaiting_approval', message: 'Points are given when the review is approved.' };
    }
    return { points: (p.earnPoint ?? 0) - instant, status: 'available', note: instant > 0 ? `the rest after ${instant} instant points` : undefined };
  },
  fill_survey(p, e) {
    const answer = e.survey?.answer ?? '';
    const min = p.minimumCharacters ?? 0;
    if (answer.trim().length < min) return { deny: 'answer_too_short', message: `The answer has ${answer.trim().length} characters; at least ${min} are needed.` };
    return { points: p.earnPoint ?? 0, status: 'available' };
  },
  custom_program(p, e) {
    if (!p.actionKey || e.actionKey !== p.actionKey) return { deny: 'action_key_mismatch', message: `The trigger's action key "${e.actionKey ?? ''}" is not this program's.` };
    return { points: p.earnPoint ?? 0, status: 'available' };
  },
  streak_interact_website(p, e, tz) {
    const today = localDate(new Date(e.at), tz);
    const visits = new Set(e.visitDates ?? []);
    if (visits.has(today)) return { deny: 'already_visited_today', message: 'The customer already earned for visiting today.' };
    let streak = 1;
    for (let day = previousDay(today); visits.has(day) && (!p.startDate || day >= p.startDate); day = previousDay(day)) streak += 1;
    const bonus = (p.streakMilestones ?? []).filter((m) => m.day === streak).reduce((n, m) => n + m.earnPoint, 0);
    return { points: (p.earnPoint ?? 0) + bonus, status: 'available', note: `day ${streak} of the streak${bonus > 0 ? `, ${bonus} bonus points` : ''}` };
  },
};

function previousDay(date: string): string {
  const d = new Date(`${date}T00:00:00Z`);
  d.setUTCDate(d.getUTCDate() - 1);
  return d.toISOString().slice(0, 10);
}

/**
 * Evaluates an event against the shop's programs of that event (`earning.<event>` documents).
 * @param history the customer's past awards (any program), for per-customer limits
 * @param timeZone the store's IANA timezone
 */
export function evaluateEvent(programs: readonly StoredDocument[], event: EarningEvent, history: readonly PastAward[], timeZone: string): EventEvaluation {
  const at = new Date(event.at);
  const relevant = programs.filter((d) => d.kind === `earning.${event.type}`);
  const decisions = relevant.map((doc) => decide(doc, event, history, timeZone, at));
  return { event: event.type, totalPoints: decisions.reduce((n, d) => n + d.points, 0), decisions };
}

function decide(doc: StoredDocument, event: EarningEvent, history: readonly PastAward[], tz: string, at: Date): EventDecision {
  const p = doc.data as unknown as EventProgram;
  const name = typeof p.title === 'string' ? p.title : doc.id;
  const base = { programId: doc.id, programTitle: name, kind: doc.kind };
  const deny = (reason: string, message: string): EventDecision => ({ ...base, outcome: 'deny', points: 0, status: null, reason, message: `"${name}": ${message}` });
  if (p.status !== true) return deny('program_inactive', 'the program is turned off.');
  const position = windowPosition(at, tz, p.startDate, p.endDate);
  if (position === 'before') return deny('not_started', `the program starts on ${p.startDate ?? ''} (store time).`);
  if (position === 'after') return deny('ended', `the program ended on ${p.endDate ?? ''} (store time).`);
  const notEligible = eligibilityDenial(event.customer, p.customerEligibility, p.eligibleTiers);
  if (notEligible) return deny('customer_not_eligible', notEligible);
  const rule = RULES[event.type];
  const verdict: Verdict = rule ? rule(p, event, tz) : { points: p.earnPoint ?? 0, status: 'available' };
  if ('deny' in verdict) return deny(verdict.deny, verdict.message);
  if (p.limitPerCustomer !== undefined && history.filter((h) => h.programId === doc.id && h.points > 0).length >= p.limitPerCustomer) {
    return deny('limit_reached', `the limit of ${p.limitPerCustomer} times per customer is reached.`);
  }
  // The rest of a Google Maps review after its instant points belongs to the same review: the
  // limit was applied when the instant points were given.
  const continuation = event.type === 'google_maps_review' && event.googleReview?.stage === 'approved' && (p.instantPoints ?? 0) > 0;
  const limit = continuation ? ({ allowed: true, points: verdict.points, capped: false } as const) : applyLimit(p, doc.id, history, verdict.points, at, tz);
  if (!limit.allowed) return deny('limit_reached', limit.message);
  if (limit.points <= 0) return deny('zero_points', 'the event earns 0 points.');
  const note = [verdict.note, limit.capped ? `capped from ${verdict.points} by the points limit` : undefined].filter(Boolean).join('; ');
  return {
    ...base,
    outcome: 'award',
    points: limit.points,
    status: verdict.status,
    reason: null,
    message: `"${name}" awards ${limit.points} points${verdict.status === 'pending' ? ' (pending)' : ''}${note ? ` (${note})` : ''}.`,
  };
}

