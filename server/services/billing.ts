/**
 * Plans and billing (issue 12; spec 000 §3 Subscription plan, §4 Changing plan, §8, §9; spec 002
 * §4 "Rules are paused on plan downgrade until upgrade", §9): the plan offers, the shop's
 * subscription, subscribing (confirmation URL → return → verified with the platform → activated,
 * the shop's `plan` changed), promo codes, downgrade and cancel. The platform side is the adapter
 * of server/platform/billing.ts.
 */
import { checkGate, GATED_FEATURES, planDisplayName, planGroup, monthlyOrderAllowance } from '../../engine/gates';
import { orderAllowance, type AllowanceState } from '../../engine/allowance';
import { localDate } from '../../engine/store-time';
import prices from '../../rules/plan-prices.json';
import gateRules from '../../rules/plan-gates.json';
import type { Db } from '../db/database';
import type { BillingSubscriptionsTable, ShopsTable } from '../db/tables';
import type { AppDeps } from '../deps';
import { ApiError, notFound } from '../errors';
import { accessToken, revokeAccessToken } from '../platform/access-tokens';
import { LocalBilling, ShopifyBilling, type PlatformBilling } from '../platform/billing';
import { listDocuments } from '../store/documents';
import { findShop } from '../store/shops';
import { shopContext } from './shop-context';

export type BillingInterval = 'monthly' | 'annual';

interface PriceRow {
  offered: boolean;
  priceMinor: number;
  pricePerOrderMinor: number;
  cappedAmountMinor: number;
  trialDays: number;
  mostPopular?: boolean;
  promoPricesMinor?: Record<string, number>;
}

const PRICES: ReadonlyMap<string, PriceRow> = new Map(Object.entries(prices.plans as Record<string, PriceRow>));
const PROMO_CODES: ReadonlyMap<string, { percent: number; months: number }> = new Map(
  Object.entries(prices.promoCodes as Record<string, unknown>).filter((e): e is [string, { percent: number; months: number }] => !e[0].startsWith('$')),
);
/** The code the /downSell page offers to stay on the current plan (spec 000 §9). */
export const DOWNGRADE_CODE: string = prices.downgradeCode;

/** A plan as the plans page shows it (spec 000 §3 Subscription plan). Money in minor units of USD. */
export interface PlanOffer {
  id: string;
  name: string;
  /** Feature group (spec 000 §6): 0 Starter … 3 Ultimate. */
  group: number;
  /** Monthly price. */
  price: number;
  /** 12 × monthly (spec 000 §9). */
  priceAnnually: number;
  /** The annual price per month (equal to `price`: the annual plan has no discount). */
  pricePerMonthYearly: number;
  /** Orders included per month (spec 002 §9). */
  freePerMonth: number;
  /** Each order beyond `freePerMonth`. */
  pricePerOrder: number;
  cappedAmount: number;
  trialDays: number;
  circleDays: number;
  type: 'recurring';
  mostPopular: boolean;
  promoPrices: Record<string, number>;
  /** Gated features this plan adds over the group below (rules/plan-gates.json labels). */
  features: { id: string; label: string }[];
}

/** A subscription row as the API answers it. */
export interface SubscriptionView {
  id: string;
  plan: string;
  planName: string;
  interval: BillingInterval;
  status: string;
  /** Per interval, before discount, minor units. */
  price: number;
  discountCode: string | null;
  discountPercent: number;
  discountMonths: number;
  trialDays: number;
  /** The end of the trial (activation + trial days), or null. */
  trialEndsAt: string | null;
  createdAt: string;
  activatedAt: string | null;
  endedAt: string | null;
}

/** A program the plan keeps from running (spec 002 §4): on, but its feature is gated. */
export interface PausedProgram {
  id: string;
  kind: string;
  title: string;
  feature: string;
  unlockPlan: string | null;
}

/** `GET /api/subscription`: the shop's plan, its subscription, the month's orders and what is paused. */
export interface SubscriptionInfo {
  plan: string;
  planName: string;
  billingMode: 'local' | 'shopify';
  subscription: SubscriptionView | null;
  history: SubscriptionView[];
  allowance: AllowanceState & { month: string };
  /** What this month's orders beyond the allowance cost so far, minor units (capped). */
  usageChargeMinor: number;
  paused: PausedProgram[];
  isTrialUsed: boolean;
  downgradeCode: string;
}

/** The result of a plan change (activation, free plan, cancel). */
export interface PlanChange {
  plan: string;
  planName: string;
  /** Programs now paused by the new plan, and ones the new plan lets run again. */
  paused: PausedProgram[];
  resumed: PausedProgram[];
}

const FEATURE_LABELS: ReadonlyMap<string, { label: string; group: number; plus: boolean }> = new Map(
  (gateRules as unknown as { event: { params: { feature: string; label: string; requiredGroup: number; unlockPlan: string } } }[]).map((r) => [
    r.event.params.feature,
    { label: r.event.params.label, group: r.event.params.requiredGroup, plus: r.event.params.unlockPlan === 'Shopify Plus' },
  ]),
);

/** The offered plans (spec 000 §9), cheapest first, in minor units. */
export function planOffers(): PlanOffer[] {
  return [...PRICES.entries()].filter(([, p]) => p.offered).map(([id]) => planOffer(id));
}

/** One plan's offer (any known plan id, legacy ones too). @throws ApiError 404 `unknown_plan` */
export function planOffer(id: string): PlanOffer {
  const p = PRICES.get(id);
  if (!p) throw notFound('unknown_plan', `There is no plan "${id}"`);
  const group = planGroup(id);
  return {
    id,
    name: planDisplayName(id),
    group,
    price: p.priceMinor,
    priceAnnually: p.priceMinor * 12,
    pricePerMonthYearly: p.priceMinor,
    freePerMonth: monthlyOrderAllowance(id),
    pricePerOrder: p.pricePerOrderMinor,
    cappedAmount: p.cappedAmountMinor,
    trialDays: p.trialDays,
    circleDays: prices.circleDays,
    type: 'recurring',
    mostPopular: p.mostPopular === true,
    promoPrices: p.promoPricesMinor ?? {},
    features: GATED_FEATURES.flatMap((f) => {
      const meta = FEATURE_LABELS.get(f);
      return meta && meta.group === group && group > 0 && !meta.plus ? [{ id: f, label: meta.label }] : [];
    }),
  };
}

/**
 * A promo code's discount for `planId` (spec 000 §9 codes; case as written). Free plans take none.
 * @throws ApiError 422 `invalid_coupon` "Invalid coupon code" (spec 002 §8) at `/discountCode`
 */
export function promoDiscount(code: string, planId: string): { code: string; percent: number; months: number } {
  const promo = PROMO_CODES.get(code.trim());
  if (!promo || (PRICES.get(planId)?.priceMinor ?? 0) === 0) throw new ApiError(422, 'invalid_coupon', 'Invalid coupon code', [{ path: '/discountCode', message: 'Invalid coupon code' }]);
  return { code: code.trim(), ...promo };
}

const adapters = new WeakMap<object, PlatformBilling>();

/** The shop's billing adapter: deps.platformBilling, else local in demo mode, else the Admin GraphQL one. */
export function billingAdapter(deps: AppDeps): PlatformBilling {
  if (deps.platformBilling) return deps.platformBilling;
  let adapter = adapters.get(deps);
  if (!adapter) {
    adapter = deps.auth.demo
      ? new LocalBilling()
      : new ShopifyBilling({
          apiKey: deps.auth.apiKey,
          accessToken: (shopId) => accessToken(deps, shopId),
          onUnauthorized: (shopId) => revokeAccessToken(deps.db, shopId, (deps.now?.() ?? new Date()).toISOString()),
          test: process.env.SHOPIFY_BILLING_TEST === '1',
        });
    adapters.set(deps, adapter);
  }
  return adapter;
}

function view(row: BillingSubscriptionsTable): SubscriptionView {
  const trialEndsAt = row.activated_at && row.trial_days > 0 ? new Date(Date.parse(row.activated_at) + row.trial_days * 86_400_000).toISOString() : null;
  return {
    id: row.id,
    plan: row.plan,
    planName: planDisplayName(row.plan),
    interval: row.billing_interval === 'annual' ? 'annual' : 'monthly',
    status: row.status,
    price: row.price_minor,
    discountCode: row.discount_code,
    discountPercent: row.discount_percent,
    discountMonths: row.discount_months,
    trialDays: row.trial_days,
    trialEndsAt,
    createdAt: row.created_at,
    activatedAt: row.activated_at,
    endedAt: row.ended_at,
  };
}

const now = (deps: AppDeps): Date => deps.now?.() ?? new Date();

async function requireShop(db: Db, shopId: string) {
  const shop = await findShop(db, shopId);
  if (!shop) throw notFound('unknown_shop', 'The shop does not exist');
  return shop;
}

/**
 * Programs that are on but whose feature `plan` lacks (spec 002 §4: paused until an upgrade; they
 * stay editable while off, server/services/documents.ts).
 */
export async function pausedPrograms(deps: AppDeps, shopId: string, plan: string): Promise<PausedProgram[]> {
  const shop = await requireShop(deps.db, shopId);
  const gate = { ...shopContext(shop).gate, plan };
  const gatedKinds = deps.registry.kinds.filter((k) => k.feature);
  const docs = await listDocuments(deps.db, shopId, gatedKinds.map((k) => k.id));
  const out: PausedProgram[] = [];
  for (const doc of docs) {
    const kind = gatedKinds.find((k) => k.id === doc.kind);
    if (!kind?.feature || (doc.data as { status?: unknown }).status !== true) continue;
    const answer = await checkGate(kind.feature, gate);
    if (answer.allowed) continue;
    const title = (doc.data as { title?: unknown }).title;
    out.push({ id: doc.id, kind: doc.kind, title: typeof title === 'string' && title ? title : kind.title, feature: kind.feature, unlockPlan: answer.unlockPlan });
  }
  return out;
}

/**
 * Whether a program of `kindId` may run for the shop now (spec 002 §4: rules are paused on a
 * downgrade until an upgrade): true for kinds without a plan feature, else the gate's answer for
 * the shop's current plan (per-shop unlocks included). For the award paths (earning events,
 * milestones, redemption) to skip paused programs.
 */
export async function programRuns(deps: Pick<AppDeps, 'registry'>, shop: ShopsTable, kindId: string): Promise<boolean> {
  const feature = deps.registry.get(kindId)?.feature;
  if (!feature) return true;
  return (await checkGate(feature, shopContext(shop).gate)).allowed;
}

/** Sets the shop's plan and says which programs it pauses and resumes. */
async function changePlan(deps: AppDeps, shopId: string, from: string, to: string): Promise<PlanChange> {
  const before = await pausedPrograms(deps, shopId, from);
  await deps.db.updateTable('shops').set({ plan: to, updated_at: now(deps).toISOString() }).where('id', '=', shopId).execute();
  const after = await pausedPrograms(deps, shopId, to);
  return { plan: to, planName: planDisplayName(to), paused: after, resumed: before.filter((p) => !after.some((a) => a.id === p.id)) };
}

async function rows(db: Db, shopId: string): Promise<BillingSubscriptionsTable[]> {
  return db.selectFrom('billing_subscriptions').selectAll().where('shop_id', '=', shopId).orderBy('created_at', 'desc').orderBy('id', 'desc').limit(50).execute();
}

/** `GET /api/subscription` (spec 000 §7): the plan, the active subscription, history newest first, this month's orders and paused programs. */
export async function subscriptionInfo(deps: AppDeps, shopId: string): Promise<SubscriptionInfo> {
  const shop = await requireShop(deps.db, shopId);
  const history = await rows(deps.db, shopId);
  const active = history.find((r) => r.status === 'active');
  const month = localDate(now(deps), shop.iana_timezone).slice(0, 7);
  const usage = await deps.db.selectFrom('order_allowance_usage').select('orders').where('shop_id', '=', shopId).where('month', '=', month).executeTakeFirst();
  const used = Number(usage?.orders ?? 0);
  const price = PRICES.get(shop.plan);
  const extra = Math.max(0, used - monthlyOrderAllowance(shop.plan));
  return {
    plan: shop.plan,
    planName: planDisplayName(shop.plan),
    billingMode: billingAdapter(deps).mode,
    subscription: active ? view(active) : null,
    history: history.map(view),
    allowance: { ...orderAllowance(shop.plan, used), month },
    usageChargeMinor: price ? Math.min(extra * price.pricePerOrderMinor, price.cappedAmountMinor) : 0,
    paused: await pausedPrograms(deps, shopId, shop.plan),
    isTrialUsed: history.some((r) => r.activated_at !== null && (PRICES.get(r.plan)?.priceMinor ?? 0) > 0),
    downgradeCode: DOWNGRADE_CODE,
  };
}

/** What subscribing answers (spec 000 §7): a confirmation URL to redirect to, or the free plan already active. */
export interface SubscribeResult {
  isRedirect: boolean;
  confirmationUrl: string | null;
  subscriptionId: string | null;
  change: PlanChange | null;
}

/**
 * Subscribes the shop to `planId` (spec 000 §4 Changing plan). The free plan needs no
 * confirmation: any paid subscription is cancelled at the platform and the plan becomes free at
 * once (`isRedirect` false). A paid plan creates a pending charge at the platform and answers its
 * confirmation URL; nothing changes until the return is verified (`confirmSubscription`). A trial
 * is given once per shop; a promo code takes its percent off for its months. `headStart` lets the
 * head-start claim subscribe to the `head_start` plan, which the plans page does not offer.
 * @throws ApiError 404 `unknown_plan` (or a legacy plan no longer offered), 422 `invalid_coupon`, 409 `already_subscribed`, adapter errors
 */
export async function subscribe(deps: AppDeps, shopId: string, planId: string, options: { interval?: BillingInterval; discountCode?: string; headStart?: boolean }): Promise<SubscribeResult> {
  const shop = await requireShop(deps.db, shopId);
  const price = PRICES.get(planId);
  // The head start is not on the plans page; only its claim (server/services/billing-offers.ts) subscribes to it.
  if (!price || (!price.offered && !(options.headStart && planId === 'head_start'))) throw notFound('unknown_plan', `The plan "${planId}" cannot be subscribed to`);
  const info = await subscriptionInfo(deps, shopId);
  if (price.priceMinor === 0) {
    if (info.subscription) await endActive(deps, shopId, 'cancelled');
    return { isRedirect: false, confirmationUrl: null, subscriptionId: null, change: await changePlan(deps, shopId, shop.plan, planId) };
  }
  const interval: BillingInterval = options.interval === 'annual' ? 'annual' : 'monthly';
  const discount = options.discountCode ? promoDiscount(options.discountCode, planId) : null;
  if (!discount && info.subscription?.plan === planId && info.subscription.interval === interval) {
    throw new ApiError(409, 'already_subscribed', `This shop is already on the ${planDisplayName(planId)} plan`);
  }
  const id = crypto.randomUUID();
  const priceMinor = interval === 'annual' ? price.priceMinor * 12 : price.priceMinor;
  const trialDays = info.isTrialUsed ? 0 : price.trialDays;
  // A discount of N months lasts N monthly intervals, or one annual interval.
  const discountIntervals = discount ? (interval === 'annual' ? 1 : discount.months) : 0;
  const adapter = billingAdapter(deps);
  const returnUrl = adapter.returnUrl(shopId, id);
  const allowance = monthlyOrderAllowance(planId);
  const created = await adapter.createSubscription(shopId, {
    subscriptionId: id,
    name: `${planDisplayName(planId)} (${interval})`,
    priceMinor,
    interval,
    trialDays,
    discount: discount ? { percent: discount.percent, intervals: discountIntervals } : null,
    usage: price.pricePerOrderMinor > 0 ? { cappedAmountMinor: price.cappedAmountMinor, terms: `${allowance} orders a month included; $${(price.pricePerOrderMinor / 100).toFixed(2)} for each order beyond` } : null,
    returnUrl,
  });
  await deps.db
    .insertInto('billing_subscriptions')
    .values({
      id,
      shop_id: shopId,
      plan: planId,
      billing_interval: interval,
      status: 'pending',
      platform_id: created.platformId,
      price_minor: priceMinor,
      discount_code: discount?.code ?? null,
      discount_percent: discount?.percent ?? 0,
      discount_months: discount?.months ?? 0,
      trial_days: trialDays,
      confirmation_url: created.confirmationUrl,
      created_at: now(deps).toISOString(),
      activated_at: null,
      ended_at: null,
    })
    .execute();
  return { isRedirect: true, confirmationUrl: created.confirmationUrl, subscriptionId: id, change: null };
}

/** Ends the shop's active subscription at the platform and on its row (`cancelled` or `replaced`). */
async function endActive(deps: AppDeps, shopId: string, status: 'cancelled' | 'replaced', except?: string): Promise<void> {
  const active = await deps.db.selectFrom('billing_subscriptions').selectAll().where('shop_id', '=', shopId).where('status', '=', 'active').execute();
  for (const row of active) {
    if (row.id === except) continue;
    // A replaced charge is ended by the platform itself when the new one is approved.
    if (status === 'cancelled' && row.platform_id) await billingAdapter(deps).cancelSubscription(shopId, row.platform_id);
    await deps.db.updateTable('billing_subscriptions').set({ status, ended_at: now(deps).toISOString() }).where('shop_id', '=', shopId).where('id', '=', row.id).execute();
  }
}

/**
 * The merchant is back from the confirmation page: verifies the charge with the platform and, when
 * it is ACTIVE, activates the subscription (the previous one becomes `replaced`) and sets the
 * shop's plan. A second return for an active subscription answers the same again.
 * `chargeId` is what the platform appended (`charge_id`, the numeric end of the gid) or the local id.
 * @throws ApiError 404 `subscription_not_found`, 400 `charge_mismatch`, 409 `subscription_declined` / `subscription_pending` / `subscription_ended`
 */
export async function confirmSubscription(deps: AppDeps, shopId: string, subscriptionId: string, chargeId: string | undefined): Promise<PlanChange & { subscription: SubscriptionView }> {
  const shop = await requireShop(deps.db, shopId);
  const row = await deps.db.selectFrom('billing_subscriptions').selectAll().where('shop_id', '=', shopId).where('id', '=', subscriptionId).executeTakeFirst();
  if (!row?.platform_id) throw notFound('subscription_not_found', 'This subscription does not exist');
  if (chargeId && chargeId !== row.platform_id && !row.platform_id.endsWith(`/${chargeId}`)) throw new ApiError(400, 'charge_mismatch', 'The returned charge is not this subscription');
  if (row.status === 'active') return { plan: shop.plan, planName: planDisplayName(shop.plan), paused: await pausedPrograms(deps, shopId, shop.plan), resumed: [], subscription: view(row) };
  if (row.status !== 'pending') throw new ApiError(409, 'subscription_ended', 'This subscription is no longer waiting for confirmation');
  const status = await billingAdapter(deps).subscriptionStatus(shopId, row.platform_id);
  const at = now(deps).toISOString();
  if (status === 'DECLINED' || status === 'EXPIRED' || status === 'CANCELLED') {
    await deps.db.updateTable('billing_subscriptions').set({ status: 'declined', ended_at: at }).where('shop_id', '=', shopId).where('id', '=', row.id).execute();
    throw new ApiError(409, 'subscription_declined', 'The subscription was not approved. Your plan did not change.');
  }
  if (status !== 'ACTIVE') throw new ApiError(409, 'subscription_pending', 'The subscription is still waiting for approval');
  await endActive(deps, shopId, 'replaced', row.id);
  const activated = await deps.db
    .updateTable('billing_subscriptions')
    .set({ status: 'active', activated_at: at })
    .where('shop_id', '=', shopId)
    .where('id', '=', row.id)
    .where('status', '=', 'pending')
    .returningAll()
    .executeTakeFirstOrThrow();
  const change = await changePlan(deps, shopId, shop.plan, row.plan);
  return { ...change, subscription: view(activated) };
}

/**
 * Cancels the shop's paid subscription at the platform; the shop returns to the free plan and the
 * programs it gates are reported paused.
 * @throws ApiError 409 `no_subscription` when nothing is active
 */
export async function cancelSubscription(deps: AppDeps, shopId: string): Promise<PlanChange> {
  const shop = await requireShop(deps.db, shopId);
  const active = await deps.db.selectFrom('billing_subscriptions').select('id').where('shop_id', '=', shopId).where('status', '=', 'active').executeTakeFirst();
  if (!active) throw new ApiError(409, 'no_subscription', 'This shop has no paid subscription to cancel');
  await endActive(deps, shopId, 'cancelled');
  return changePlan(deps, shopId, shop.plan, 'free');
}

/** The local adapter's approval page answers (demo mode and tests). @throws ApiError 404 when billing is not local */
export async function answerLocalCharge(deps: AppDeps, shopId: string, chargeId: string, approve: boolean): Promise<void> {
  const adapter = billingAdapter(deps);
  if (!(adapter instanceof LocalBilling)) throw notFound('not_found', 'Test charges exist only with local billing');
  const row = await deps.db.selectFrom('billing_subscriptions').select('id').where('shop_id', '=', shopId).where('platform_id', '=', chargeId).executeTakeFirst();
  if (!row) throw notFound('charge_not_found', 'The platform knows no such charge');
  if (approve) adapter.approve(shopId, chargeId);
  else adapter.decline(shopId, chargeId);
}
