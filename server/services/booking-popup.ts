/**
 * The floating booking popup, "Book a call" (spec 000 §2 "a floating booking popup (Book a call)",
 * §4 "Floating booking popup is shown only to shops installed within the last 7 days, on higher
 * platform plans, not yet dismissed, and not on the top plans"; coverage row SH10).
 *
 * Where the spec is silent, this project reads it so:
 * - **installed**: the shop row's `created_at` (what `GET /api/shops` answers as `installedAt`);
 *   "within the last 7 days" is at most 7 × 24 hours before now, inclusive. An install time in the
 *   future (clock skew) counts as just installed; one that is not a date never shows the popup.
 * - **higher platform plans**: the shop platform's plans of spec 000 §4's head-start rule,
 *   `professional`, `shopify_plus` and `unlimited` (HIGHER_PLATFORM_PLANS), read from
 *   `settings.shopifyPlan`. A shop whose platform plan is unknown is not on one.
 * - **top plans**: the app plans that already include a call with the team, i.e. the plans the
 *   onboarding-call gate opens (rules/plan-gates.json `gate.onboarding_call`, spec 002 §6
 *   "onboarding call for Advanced and Enterprise only"): feature group 2 and above in
 *   rules/plans.json, Advanced and Ultimate (`advanced`, `advanced_2025`, `enterprise`,
 *   `enterprise_2025`). Those shops book their call from the plans page's onboarding-call card, so
 *   the popup and the card never offer the same shop a call twice. The group is read from the gate
 *   rule, so moving the gate moves the popup with it.
 * - **dismissed**: BOOKING_POPUP_BANNER_ID is in the shop's `bannersDismiss` list (spec 000 §4
 *   "Dismissing a banner adds its id to the shop's bannersDismiss list"); booking the call from the
 *   popup dismisses it too (server/services/billing-offers.ts `requestOnboardingCall`).
 *
 * @example
 * bookingPopupDecision({ installedAt: '2026-03-01T00:00:00Z', shopifyPlan: 'shopify_plus', plan: 'free', bannersDismiss: [] }, new Date('2026-03-02T00:00:00Z'));
 * // → { show: true, hiddenBecause: [] }
 */
import { planGroup } from '../../engine/gates';
import gateRules from '../../rules/plan-gates.json';

/** The popup's id in the shop's `bannersDismiss` list. */
export const BOOKING_POPUP_BANNER_ID = 'booking_popup';

/** How long after the install the popup is offered: 7 days, in milliseconds. */
export const BOOKING_POPUP_WINDOW_MS = 7 * 24 * 3_600_000;

/**
 * Platform plans counted as "higher" (spec 000 §4: professional, shopify_plus, unlimited). The same
 * list decides the head start's coupon (billing-offers.ts re-exports it under its older name).
 */
export const HIGHER_PLATFORM_PLANS: readonly string[] = ['professional', 'shopify_plus', 'unlimited'];

/** The lowest feature group of a "top plan": the group the onboarding-call gate requires. */
export const TOP_PLAN_GROUP: number = (() => {
  const rule = (gateRules as unknown as { event: { params: { feature?: string; requiredGroup?: number } } }[]).find((r) => r.event.params.feature === 'onboarding_call');
  const group = rule?.event.params.requiredGroup;
  if (typeof group !== 'number') throw new Error('booking-popup: rules/plan-gates.json has no onboarding_call gate with a requiredGroup');
  return group;
})();

/** Why the popup is hidden; empty when it shows. */
export type BookingPopupHiddenReason = 'installed_over_7_days' | 'platform_plan_not_higher' | 'dismissed' | 'top_plan';

/** The facts the decision reads, from the shop (spec 000 §3 Shop). */
export interface BookingPopupFacts {
  /** The install time, ISO 8601. */
  installedAt: string;
  /** The shop platform's plan (`basic`, `shopify_plus`), null when unknown. */
  shopifyPlan: string | null;
  /** The app plan id (`free`, `pro_3_2025`, `enterprise_2025`). */
  plan: string;
  /** Ids of the banners the merchant dismissed. */
  bannersDismiss: readonly string[];
}

/** Whether the popup shows, and each rule that hides it (in the spec's order). */
export interface BookingPopupDecision {
  show: boolean;
  hiddenBecause: BookingPopupHiddenReason[];
}

/**
 * Decides the booking popup for a shop at `now` (pure; see the module comment for each rule).
 * @param facts the shop's install time, platform plan, app plan and dismissed banners
 * @param now the current time
 * @returns `{ show, hiddenBecause }`, `show` true only when no rule hides it
 */
export function bookingPopupDecision(facts: BookingPopupFacts, now: Date): BookingPopupDecision {
  const hiddenBecause: BookingPopupHiddenReason[] = [];
  const installed = Date.parse(facts.installedAt);
  if (Number.isNaN(installed) || now.getTime() - installed > BOOKING_POPUP_WINDOW_MS) hiddenBecause.push('installed_over_7_days');
  if (!facts.shopifyPlan || !HIGHER_PLATFORM_PLANS.includes(facts.shopifyPlan)) hiddenBecause.push('platform_plan_not_higher');
  if (facts.bannersDismiss.includes(BOOKING_POPUP_BANNER_ID)) hiddenBecause.push('dismissed');
  if (planGroup(facts.plan) >= TOP_PLAN_GROUP) hiddenBecause.push('top_plan');
  return { show: hiddenBecause.length === 0, hiddenBecause };
}

/** The shop's `bannersDismiss` list from its settings JSON (text entries only; missing → empty). */
export function dismissedBanners(settings: Record<string, unknown>): string[] {
  const list = settings.bannersDismiss;
  return Array.isArray(list) ? list.filter((x): x is string => typeof x === 'string') : [];
}

/**
 * The decision for a shop row (`created_at` is its install time; plan facts from its settings).
 * @param row the shop's `plan`, `created_at` and its parsed `settings`
 */
export function bookingPopupForShop(row: { plan: string; created_at: string }, settings: Record<string, unknown>, now: Date): BookingPopupDecision {
  return bookingPopupDecision(
    {
      installedAt: row.created_at,
      shopifyPlan: typeof settings.shopifyPlan === 'string' ? settings.shopifyPlan : null,
      plan: row.plan,
      bannersDismiss: dismissedBanners(settings),
    },
    now,
  );
}
