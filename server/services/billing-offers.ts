/**
 * The plan offers a shop is shown besides the plans page (issue 12; coverage rows PL10, PL11, PL14):
 * - **sale** (spec 000 §2 "sale and holiday promo popups", §4 "A sale popup claim subscribes with a
 *   discount code and shows 'Claim offer successfully'", §9 promo codes): the `20%_3M` code on the
 *   next plan up; dismissing it saves the shop's `promoShowAt` (spec 000 §7 `POST /shop`) and it
 *   shows again after the banner spam gap (spec 000 §9: 6 hours);
 * - **head start** (spec 000 §4): a 1-year free trial (the `head_start` plan: Essential's features
 *   and price after 365 trial days), or, for shops on the higher platform plans (professional,
 *   shopify_plus, unlimited), a 20% coupon for the first 3 months instead;
 * - **milestone trial** (spec 002 §6 "milestone (14-day trial offered)"): Advanced, which unlocks
 *   milestones, with its 14-day trial, while the shop's plan lacks milestones and no trial was used;
 * - **onboarding call** (spec 002 §6 "onboarding call for Advanced and Enterprise only"): a booking
 *   request kept on the shop (`settings.onboardingCall`), refused below Advanced, except from the
 *   floating booking popup (spec 000 §2, §4; server/services/booking-popup.ts), which offers a call
 *   to new shops on the higher platform plans below Advanced.
 * Every claim subscribes through `subscribe` (server/services/billing.ts), so it goes through the
 * billing adapter: confirmation URL → return → verified → activated.
 */
import { checkGate, planDisplayName, planGroup } from '../../engine/gates';
import prices from '../../rules/plan-prices.json';
import type { AppDeps } from '../deps';
import { ApiError, notFound } from '../errors';
import { findShop, shopSettings, updateShopSettings, updateShopSettingsWith } from '../store/shops';
import { planOffer, planOffers, promoDiscount, subscribe, subscriptionInfo, type BillingInterval, type SubscribeResult } from './billing';
import { BOOKING_POPUP_BANNER_ID, bookingPopupForShop, dismissedBanners, HIGHER_PLATFORM_PLANS } from './booking-popup';
import { shopContext } from './shop-context';

/** Platform plans on which the head start is not offered (spec 000 §4); they get the coupon instead. One list with the booking popup's. */
export { HIGHER_PLATFORM_PLANS };
/** The sale popup's code and the head-start coupon (spec 000 §4 "20% coupon for the first 3 months", §9 `20%_3M`). */
export const SALE_CODE: string = prices.saleCode;
/** Hours a dismissed sale popup stays hidden (spec 000 §9 "Banner spam gap 6 hours"). */
export const PROMO_GAP_HOURS = 6;
/** The message a successful claim answers (spec 000 §4, §8 "Offer claimed"). */
export const CLAIMED_MESSAGE = 'Claim offer successfully';

export type OfferId = 'sale' | 'head_start' | 'milestone_trial';

/** The sale popup: `code` takes `percent` off `planId` for `months` months. Money in minor units. */
export interface SaleOffer {
  id: 'sale';
  code: string;
  percent: number;
  months: number;
  planId: string;
  planName: string;
  /** The plan's monthly price, and the price with the discount. */
  price: number;
  discountedPrice: number;
  /** False while a dismissal is younger than the gap. */
  show: boolean;
  dismissedAt: string | null;
}

/** The head start (spec 000 §4): a 1-year trial, or the coupon on the higher platform plans. */
export type HeadStartOffer =
  | { id: 'head_start'; variant: 'trial'; planId: 'head_start'; planName: string; trialDays: number }
  | { id: 'head_start'; variant: 'coupon'; planId: string; planName: string; code: string; percent: number; months: number };

/** Advanced's trial for a shop whose plan lacks milestones (spec 002 §6). */
export interface MilestoneTrialOffer {
  id: 'milestone_trial';
  planId: string;
  planName: string;
  trialDays: number;
}

/** The onboarding call (spec 002 §6): whether the plan includes it and the shop's request. */
export interface OnboardingCall {
  allowed: boolean;
  /** The plan that unlocks it, null when allowed. */
  unlockPlan: string | null;
  requestedAt: string | null;
  note: string | null;
}

/** `GET /api/subscription/offers`. */
export interface Offers {
  sale: SaleOffer | null;
  headStart: HeadStartOffer | null;
  milestoneTrial: MilestoneTrialOffer | null;
  onboardingCall: OnboardingCall;
}

const now = (deps: Pick<AppDeps, 'now'>): Date => deps.now?.() ?? new Date();

async function requireShop(deps: Pick<AppDeps, 'db'>, shopId: string) {
  const shop = await findShop(deps.db, shopId);
  if (!shop) throw notFound('unknown_shop', 'The shop does not exist');
  return shop;
}

/** The cheapest offered plan of a higher feature group than `plan`, or null on the top plan. */
function nextPlanUp(plan: string): string | null {
  const group = planGroup(plan);
  return planOffers().find((p) => p.group > group)?.id ?? null;
}

const text = (value: unknown): string | null => (typeof value === 'string' && value ? value : null);

/** Every offer the shop is shown now (see the module comment for each rule). */
export async function shopOffers(deps: AppDeps, shopId: string): Promise<Offers> {
  const shop = await requireShop(deps, shopId);
  const settings = shopSettings(shop);
  const gate = shopContext(shop).gate;
  const info = await subscriptionInfo(deps, shopId);
  const at = now(deps);

  let sale: SaleOffer | null = null;
  const salePlan = nextPlanUp(shop.plan);
  if (salePlan) {
    const promo = promoDiscount(SALE_CODE, salePlan);
    const price = planOffer(salePlan).price;
    const dismissedAt = text(settings.promoShowAt);
    const show = !dismissedAt || at.getTime() - Date.parse(dismissedAt) >= PROMO_GAP_HOURS * 3_600_000;
    sale = { id: 'sale', code: promo.code, percent: promo.percent, months: promo.months, planId: salePlan, planName: planDisplayName(salePlan), price, discountedPrice: Math.round((price * (100 - promo.percent)) / 100), dismissedAt, show };
  }

  let headStart: HeadStartOffer | null = null;
  if (!info.subscription && planGroup(shop.plan) === 0) {
    if (gate.shopifyPlan && HIGHER_PLATFORM_PLANS.includes(gate.shopifyPlan)) {
      const planId = planOffers().find((p) => p.group === 1)!.id;
      const promo = promoDiscount(SALE_CODE, planId);
      headStart = { id: 'head_start', variant: 'coupon', planId, planName: planDisplayName(planId), code: promo.code, percent: promo.percent, months: promo.months };
    } else if (!info.isTrialUsed) {
      headStart = { id: 'head_start', variant: 'trial', planId: 'head_start', planName: planDisplayName('head_start'), trialDays: planOffer('head_start').trialDays };
    }
  }

  let milestoneTrial: MilestoneTrialOffer | null = null;
  if (!info.isTrialUsed && !(await checkGate('milestone', gate)).allowed) {
    const planId = planOffers().find((p) => p.group === 2)!.id;
    milestoneTrial = { id: 'milestone_trial', planId, planName: planDisplayName(planId), trialDays: planOffer(planId).trialDays };
  }

  const call = await checkGate('onboarding_call', gate);
  const booked = (settings.onboardingCall ?? {}) as { requestedAt?: unknown; note?: unknown };
  return {
    sale,
    headStart,
    milestoneTrial,
    onboardingCall: { allowed: call.allowed, unlockPlan: call.unlockPlan, requestedAt: text(booked.requestedAt), note: text(booked.note) },
  };
}

/**
 * Claims an offer: subscribes through the billing adapter with the offer's plan, code and trial.
 * `planId` chooses the plan of the head-start coupon (any paid offered plan; Essential by default).
 * Answers what subscribing answers plus the spec's "Claim offer successfully".
 * @throws ApiError 404 `unknown_offer`, 409 `offer_unavailable`, 422 `invalid_plan` at `/planId`, and subscribe's errors
 */
export async function claimOffer(deps: AppDeps, shopId: string, offerId: string, options: { interval?: BillingInterval; planId?: string }): Promise<SubscribeResult & { message: string }> {
  if (offerId !== 'sale' && offerId !== 'head_start' && offerId !== 'milestone_trial') throw notFound('unknown_offer', `There is no offer "${offerId}"`);
  const offers = await shopOffers(deps, shopId);
  const unavailable = () => new ApiError(409, 'offer_unavailable', 'This offer is not available for your shop');
  const interval = options.interval ?? 'monthly';
  let result: SubscribeResult;
  if (offerId === 'sale') {
    if (!offers.sale) throw unavailable();
    result = await subscribe(deps, shopId, offers.sale.planId, { interval, discountCode: offers.sale.code });
  } else if (offerId === 'milestone_trial') {
    if (!offers.milestoneTrial) throw unavailable();
    result = await subscribe(deps, shopId, offers.milestoneTrial.planId, { interval });
  } else {
    const offer = offers.headStart;
    if (!offer) throw unavailable();
    if (offer.variant === 'trial') {
      result = await subscribe(deps, shopId, 'head_start', { interval: 'monthly', headStart: true });
    } else {
      const planId = options.planId ?? offer.planId;
      if (!planOffers().some((p) => p.id === planId && p.price > 0)) throw new ApiError(422, 'invalid_plan', 'Choose a paid plan', [{ path: '/planId', message: 'Choose a paid plan' }]);
      result = await subscribe(deps, shopId, planId, { interval, discountCode: offer.code });
    }
  }
  return { ...result, message: CLAIMED_MESSAGE };
}

/** Where a call request comes from: the plans page's onboarding-call card, or the floating booking popup. */
export type CallSource = 'onboarding_call' | 'booking_popup';

/**
 * Books the onboarding call (spec 002 §6): the request and the merchant's note are kept on the shop
 * (`settings.onboardingCall = { requestedAt, note, source }`) for the team to call back; a second
 * request replaces the first. From the booking popup (`source` `booking_popup`, spec 000 §2, §4) the
 * call is open to any shop the popup is shown to, whatever its plan, and the popup is dismissed in
 * the same write (its id joins `bannersDismiss`), so it does not come back after the booking.
 * @throws ApiError 403 `plan_gate` below Advanced (naming the plan); 409 `offer_unavailable` from a
 *   popup the shop is not shown; 422 at `/note` for a note that is not text of at most 500 characters
 */
export async function requestOnboardingCall(deps: AppDeps, shopId: string, note: unknown, source: CallSource = 'onboarding_call'): Promise<OnboardingCall> {
  const shop = await requireShop(deps, shopId);
  const gate = await checkGate('onboarding_call', shopContext(shop).gate);
  if (source === 'booking_popup') {
    if (!bookingPopupForShop(shop, shopSettings(shop), now(deps)).show) throw new ApiError(409, 'offer_unavailable', 'This offer is not available for your shop');
  } else if (!gate.allowed) {
    throw new ApiError(403, 'plan_gate', `Onboarding calls are available on the ${gate.unlockPlan ?? 'a higher'} plan. ${gate.reason}`, [{ path: '', message: gate.reason }]);
  }
  if (note !== undefined && note !== null && (typeof note !== 'string' || note.length > 500)) {
    throw new ApiError(422, 'validation_failed', 'Some fields need attention', [{ path: '/note', message: 'Must be text of at most 500 characters' }]);
  }
  const requestedAt = now(deps).toISOString();
  const cleanNote = typeof note === 'string' && note.trim() ? note.trim() : null;
  const onboardingCall = { requestedAt, note: cleanNote, source };
  if (source === 'booking_popup') {
    await updateShopSettingsWith(deps.db, shopId, (current) => ({ onboardingCall, bannersDismiss: [...new Set([...dismissedBanners(current), BOOKING_POPUP_BANNER_ID])] }), requestedAt);
  } else {
    await updateShopSettings(deps.db, shopId, { onboardingCall }, requestedAt);
  }
  return { allowed: gate.allowed, unlockPlan: gate.unlockPlan, requestedAt, note: cleanNote };
}
