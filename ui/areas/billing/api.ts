/**
 * The billing area's calls (server/routes/billing.ts, spec 000 §7) and the standalone session's
 * (server/routes/auth.ts). Money is in minor units of USD.
 */
import { request } from '../../api/client';

export type BillingInterval = 'monthly' | 'annual';

/** A plan as the plans page shows it (spec 000 §3 Subscription plan). */
export interface PlanOffer {
  id: string;
  name: string;
  group: number;
  price: number;
  priceAnnually: number;
  pricePerMonthYearly: number;
  freePerMonth: number;
  pricePerOrder: number;
  cappedAmount: number;
  trialDays: number;
  circleDays: number;
  mostPopular: boolean;
  promoPrices: Record<string, number>;
  features: { id: string; label: string }[];
}

export interface SubscriptionView {
  id: string;
  plan: string;
  planName: string;
  interval: BillingInterval;
  status: 'pending' | 'active' | 'declined' | 'replaced' | 'cancelled' | string;
  price: number;
  discountCode: string | null;
  discountPercent: number;
  discountMonths: number;
  trialDays: number;
  trialEndsAt: string | null;
  createdAt: string;
  activatedAt: string | null;
  endedAt: string | null;
}

export interface PausedProgram {
  id: string;
  kind: string;
  title: string;
  feature: string;
  unlockPlan: string | null;
}

export interface SubscriptionInfo {
  plan: string;
  planName: string;
  billingMode: 'local' | 'shopify';
  subscription: SubscriptionView | null;
  history: SubscriptionView[];
  allowance: { state: 'ok' | 'warning' | 'reached'; used: number; limit: number | null; message: string | null; month: string };
  usageChargeMinor: number;
  paused: PausedProgram[];
  isTrialUsed: boolean;
  downgradeCode: string;
}

export interface PlanChange {
  plan: string;
  planName: string;
  paused: PausedProgram[];
  resumed: PausedProgram[];
}

export interface SubscribeResult {
  isRedirect: boolean;
  confirmationUrl: string | null;
  subscriptionId: string | null;
  change: PlanChange | null;
}

export interface AccessStatus {
  state: 'ok' | 'missing' | 'revoked';
  scopes: string[];
  missingScopes: string[];
  needsReinstall: boolean;
}

/**
 * The subscribe query (spec 000 §5): empty, false, null and undefined values are dropped.
 * @example subscribeQuery({ interval: 'annual', discountCode: '' }) // '?interval=annual'
 */
export function subscribeQuery(params: Record<string, string | boolean | null | undefined>): string {
  const kept = Object.entries(params).filter((entry): entry is [string, string | true] => entry[1] !== '' && entry[1] !== false && entry[1] !== null && entry[1] !== undefined);
  return kept.length ? `?${new URLSearchParams(kept.map(([k, v]) => [k, String(v)])).toString()}` : '';
}

/** The sale popup's offer (server/services/billing-offers.ts; spec 000 §4). Money in minor units. */
export interface SaleOffer {
  id: 'sale';
  code: string;
  percent: number;
  months: number;
  planId: string;
  planName: string;
  price: number;
  discountedPrice: number;
  show: boolean;
  dismissedAt: string | null;
}

/** The head start (spec 000 §4): a 1-year free trial, or a coupon on the higher platform plans. */
export type HeadStartOffer =
  | { id: 'head_start'; variant: 'trial'; planId: 'head_start'; planName: string; trialDays: number }
  | { id: 'head_start'; variant: 'coupon'; planId: string; planName: string; code: string; percent: number; months: number };

/** `GET /api/subscription/offers`: what the shop is offered now (PL10, PL11, PL14). */
export interface Offers {
  sale: SaleOffer | null;
  headStart: HeadStartOffer | null;
  milestoneTrial: { id: 'milestone_trial'; planId: string; planName: string; trialDays: number } | null;
  onboardingCall: { allowed: boolean; unlockPlan: string | null; requestedAt: string | null; note: string | null };
}

export type OfferId = 'sale' | 'head_start' | 'milestone_trial';

export const billingApi = {
  subscription: () => request<{ data: SubscriptionInfo }>('/api/subscription').then((r) => r.data),
  plans: () => request<{ data: PlanOffer[] }>('/api/subscription/plans').then((r) => r.data),
  preview: (planId: string) => request<{ data: PausedProgram[] }>(`/api/subscription/preview/${encodeURIComponent(planId)}`).then((r) => r.data),
  subscribe: (planId: string, params: { interval?: BillingInterval; discountCode?: string | null }) =>
    request<SubscribeResult>(`/api/subscription/shopify/subscribe/${encodeURIComponent(planId)}${subscribeQuery(params)}`),
  confirm: (subscriptionId: string, chargeId: string | null) =>
    request<{ data: PlanChange & { subscription: SubscriptionView } }>('/api/subscription/confirm', { method: 'POST', body: { subscriptionId, ...(chargeId ? { chargeId } : {}) } }).then((r) => r.data),
  cancel: () => request<{ data: PlanChange }>('/api/subscription/cancel', { method: 'POST', body: {} }).then((r) => r.data),
  promo: (code: string, planId: string) => request<{ data: { code: string; percent: number; months: number } }>('/api/subscription/promo', { method: 'POST', body: { code, planId } }).then((r) => r.data),
  answerLocalCharge: (chargeId: string, answer: 'approve' | 'decline') =>
    request<{ data: { ok: true } }>(`/api/subscription/local-charges/${encodeURIComponent(chargeId)}/${answer}`, { method: 'POST', body: {} }),
  offers: () => request<{ data: Offers }>('/api/subscription/offers').then((r) => r.data),
  /** Subscribes with the offer's plan, code and trial; answers as subscribe plus "Claim offer successfully". */
  claim: (offerId: OfferId, body: { interval?: BillingInterval; planId?: string } = {}) =>
    request<SubscribeResult & { message: string }>(`/api/subscription/offers/${offerId}/claim`, { method: 'POST', body }),
  /** Books the call; `booking_popup` books it from the floating booking popup, which the server then dismisses. */
  bookOnboardingCall: (note: string, source: 'onboarding_call' | 'booking_popup' = 'onboarding_call') =>
    request<{ data: Offers['onboardingCall'] }>('/api/subscription/onboarding-call', { method: 'POST', body: source === 'onboarding_call' ? { note } : { note, source } }).then((r) => r.data),
  /** Adds a banner id to the shop's dismissed banners (spec 000 §4, §7 `POST /shop` `bannersDismiss`); answers the whole list. */
  dismissBanner: (id: string) => request<{ data: { bannersDismiss: string[] } }>('/api/shop', { method: 'POST', body: { bannersDismiss: [id] } }).then((r) => r.data.bannersDismiss),
  /** Saves when a promo popup was dismissed (spec 000 §7 `POST /shop`). */
  dismissPromo: (field: 'promoShowAt' | 'promoHolidaySaleShowAt', at: Date = new Date()) => request<{ data: Record<string, string> }>('/api/shop', { method: 'POST', body: { [field]: at.toISOString() } }),
  access: () => request<{ data: AccessStatus }>('/api/platform/access').then((r) => r.data),
  exchange: () => request<{ data: AccessStatus }>('/api/platform/access/exchange', { method: 'POST', body: {} }).then((r) => r.data),
  restoreSession: () => request<{ token: string; shopDomain: string }>('/auth/session', { method: 'POST', body: {}, anonymous: true }),
  logout: () => request<{ ok: true }>('/auth/logout', { method: 'POST', body: {}, anonymous: true }),
};

/** The offered plan a gate's unlock plan names ("Advanced" → advanced_2025); null for Shopify Plus. */
export const PLAN_BY_DISPLAY_NAME: Readonly<Record<string, string>> = {
  Starter: 'free',
  Essential: 'pro_3_2025',
  'Essential + POS': 'pro_4_2025',
  Advanced: 'advanced_2025',
  Ultimate: 'enterprise_2025',
};

/** `$24.99` from 2499 minor units (USD). */
export function formatMoney(minor: number, language = 'en'): string {
  return new Intl.NumberFormat(language, { style: 'currency', currency: 'USD', minimumFractionDigits: minor % 100 === 0 ? 0 : 2 }).format(minor / 100);
}

/**
 * What a month costs on a plan for `orders` orders (the price calculator, spec 002 §2): the monthly
 * price plus each order beyond the allowance, the extra capped at the plan's cap. Minor units.
 */
export function monthlyCost(plan: PlanOffer, orders: number): number {
  const extra = Math.max(0, Math.floor(orders) - plan.freePerMonth) * plan.pricePerOrder;
  return plan.price + Math.min(extra, plan.cappedAmount);
}
