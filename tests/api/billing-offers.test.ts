/**
 * Plan offers through the API (issue 12; coverage PL10, PL11, PL14): the sale popup's claim with its
 * discount code ("Claim offer successfully", spec 000 §4, §8, §9), the head start (a 1-year free
 * trial, or a 20% coupon for 3 months on the higher platform plans, spec 000 §4), the milestone
 * trial (spec 002 §6) and the onboarding call for Advanced and Ultimate (spec 002 §6). Each claim
 * goes through the local billing adapter: confirmation URL → approval → verified return.
 */
import { describe, expect, it } from 'vitest';
import { createApp } from '../../server/app';
import { signSessionToken } from '../../server/auth';
import type { AppDeps } from '../../server/deps';
import { LocalBilling } from '../../server/platform/billing';
import { ensureShop } from '../../server/store/shops';
import { AUTH, openTestDatabase, repoRegistry, SHOP } from '../support/app';

type Json = Record<string, unknown>;
type Offers = {
  sale: { code: string; percent: number; months: number; planId: string; price: number; discountedPrice: number; show: boolean } | null;
  headStart: ({ variant: 'trial'; planId: string; trialDays: number } | { variant: 'coupon'; planId: string; code: string; percent: number; months: number }) | null;
  milestoneTrial: { planId: string; trialDays: number } | null;
  onboardingCall: { allowed: boolean; unlockPlan: string | null; requestedAt: string | null; note: string | null };
};

async function offersApp(plan: string, shopifyPlan = 'basic') {
  const db = await openTestDatabase();
  await ensureShop(db, SHOP, new Date().toISOString(), { plan, settings: JSON.stringify({ shopifyPlan }) });
  let clock = new Date('2026-03-02T12:00:00Z');
  const deps: AppDeps = { db, registry: repoRegistry(), auth: AUTH, platformBilling: new LocalBilling(), now: () => clock };
  const app = createApp(deps);
  const token = await signSessionToken(AUTH, SHOP);
  const call = async (method: string, path: string, body?: unknown): Promise<{ status: number; body: Json }> => {
    const res = await app.request(path, { method, headers: { Authorization: `Bearer ${token}`, 'Content-Type': 'application/json' }, ...(body === undefined ? {} : { body: JSON.stringify(body) }) });
    return { status: res.status, body: (await res.json()) as Json };
  };
  const offers = async () => (await call('GET', '/api/subscription/offers')).body.data as Offers;
  /** Approves the pending charge of a claim's confirmation URL as the merchant would, and returns. */
  const approve = async (claim: Json) => {
    const url = new URL(String(claim.confirmationUrl), 'http://app.local');
    const chargeId = url.searchParams.get('local_charge') ?? '';
    expect((await call('POST', `/api/subscription/local-charges/${chargeId}/approve`)).status).toBe(200);
    return call('POST', '/api/subscription/confirm', { subscriptionId: url.searchParams.get('subscription'), chargeId });
  };
  return { call, offers, approve, tick: (hours: number) => (clock = new Date(clock.getTime() + hours * 3_600_000)) };
}

describe('sale popup (PL10: spec 000 §4, §8, §9)', () => {
  it('offers 20%_3M on the next plan up, and a claim subscribes with the code through the adapter', async () => {
    const { call, offers, approve } = await offersApp('free');
    const sale = (await offers()).sale!;
    expect(sale).toMatchObject({ code: '20%_3M', percent: 20, months: 3, planId: 'pro_3_2025', price: 2499, discountedPrice: 1999, show: true });

    const claim = await call('POST', '/api/subscription/offers/sale/claim', {});
    expect(claim.status).toBe(200);
    expect(claim.body).toMatchObject({ isRedirect: true, message: 'Claim offer successfully' });
    const confirmed = await approve(claim.body);
    expect(confirmed.status).toBe(200);
    expect((confirmed.body.data as { plan: string; subscription: Json }).subscription).toMatchObject({ plan: 'pro_3_2025', discountCode: '20%_3M', discountPercent: 20, discountMonths: 3 });
    // Now on Essential, the sale moves up to Advanced.
    expect((await offers()).sale?.planId).toBe('advanced_2025');
  });

  it('knows the three promo codes of spec 000 §9, and subscribes with grow-hacking-9-25 through the adapter', async () => {
    const { call, approve } = await offersApp('free');
    for (const [code, percent] of [['20%_3M', 20], ['JOYDOWNGRADE50', 50], ['grow-hacking-9-25', 25]] as const) {
      const res = await call('POST', '/api/subscription/promo', { code, planId: 'pro_3_2025' });
      expect(res.status, code).toBe(200);
      expect(res.body.data).toEqual({ code, percent, months: 3 });
    }
    const refused = await call('POST', '/api/subscription/promo', { code: 'grow-hacking-9-26', planId: 'pro_3_2025' });
    expect(refused.status).toBe(422);
    expect((refused.body.error as { details: { path: string; message: string }[] }).details).toEqual([{ path: '/discountCode', message: 'Invalid coupon code' }]);
    const sub = await call('GET', `/api/subscription/shopify/subscribe/pro_4_2025?discountCode=${encodeURIComponent('grow-hacking-9-25')}`);
    const confirmed = await approve(sub.body);
    expect((confirmed.body.data as { subscription: Json }).subscription).toMatchObject({ plan: 'pro_4_2025', discountCode: 'grow-hacking-9-25', discountPercent: 25, discountMonths: 3 });
  });

  it('hides after a dismissal (POST /shop promoShowAt) for the 6-hour gap, then shows again', async () => {
    const { call, offers, tick } = await offersApp('free');
    const saved = await call('POST', '/api/shop', { promoShowAt: '2026-03-02T12:00:00.000Z' });
    expect(saved.status).toBe(200);
    expect(saved.body.data).toEqual({ promoShowAt: '2026-03-02T12:00:00.000Z' });
    expect((await offers()).sale?.show).toBe(false);
    tick(6);
    expect((await offers()).sale?.show).toBe(true);
    const bad = await call('POST', '/api/shop', { promoShowAt: 'soon', plan: 'enterprise_2025' });
    expect(bad.status).toBe(422);
    expect(((bad.body.error as { details: { path: string }[] }).details).map((d) => d.path)).toEqual(['/promoShowAt', '/plan']);
  });

  it('is not offered on the top plan: a claim is a 409, an unknown offer a 404', async () => {
    const { call, offers } = await offersApp('enterprise_2025');
    expect((await offers()).sale).toBeNull();
    const claim = await call('POST', '/api/subscription/offers/sale/claim', {});
    expect(claim.status).toBe(409);
    expect((claim.body.error as Json).code).toBe('offer_unavailable');
    expect((await call('POST', '/api/subscription/offers/nothing/claim', {})).status).toBe(404);
  });
});

describe('head start (PL11: spec 000 §4)', () => {
  it('is a 1-year free trial on the lower platform plans, once', async () => {
    const { call, offers, approve } = await offersApp('free', 'basic');
    expect((await offers()).headStart).toEqual({ id: 'head_start', variant: 'trial', planId: 'head_start', planName: 'Essential', trialDays: 365 });
    // Not on the plans page: only the claim subscribes to it.
    expect((await call('GET', '/api/subscription/shopify/subscribe/head_start')).status).toBe(404);
    const claim = await call('POST', '/api/subscription/offers/head_start/claim', {});
    expect(claim.body.message).toBe('Claim offer successfully');
    const confirmed = await approve(claim.body);
    expect(confirmed.body.data).toMatchObject({ plan: 'head_start', subscription: { plan: 'head_start', trialDays: 365 } });
    const after = await offers();
    expect(after.headStart).toBeNull();
    expect(after.milestoneTrial).toBeNull(); // the trial is used
    expect((await call('POST', '/api/subscription/offers/head_start/claim', {})).status).toBe(409);
  });

  it('is a 20% coupon for the first 3 months instead on professional, shopify_plus and unlimited', async () => {
    for (const shopifyPlan of ['professional', 'shopify_plus', 'unlimited']) {
      const { offers } = await offersApp('free', shopifyPlan);
      expect((await offers()).headStart).toMatchObject({ variant: 'coupon', planId: 'pro_3_2025', code: '20%_3M', percent: 20, months: 3 });
    }
    const { call, approve } = await offersApp('free', 'shopify_plus');
    expect((await call('POST', '/api/subscription/offers/head_start/claim', { planId: 'free' })).status).toBe(422);
    const claim = await call('POST', '/api/subscription/offers/head_start/claim', { planId: 'advanced_2025' });
    expect(claim.status).toBe(200);
    const confirmed = await approve(claim.body);
    expect((confirmed.body.data as { subscription: Json }).subscription).toMatchObject({ plan: 'advanced_2025', discountCode: '20%_3M', discountPercent: 20, discountMonths: 3, trialDays: 14 });
  });
});

describe('milestone trial and onboarding call (PL14: spec 002 §6)', () => {
  it("offers Advanced's 14-day trial while the plan lacks milestones, and the claim unlocks them", async () => {
    const { call, offers, approve } = await offersApp('pro_3_2025');
    expect((await offers()).milestoneTrial).toEqual({ id: 'milestone_trial', planId: 'advanced_2025', planName: 'Advanced', trialDays: 14 });
    const confirmed = await approve((await call('POST', '/api/subscription/offers/milestone_trial/claim', {})).body);
    expect(confirmed.body.data).toMatchObject({ plan: 'advanced_2025', subscription: { trialDays: 14 } });
    expect((await offers()).milestoneTrial).toBeNull();
    const gates = (await call('GET', '/api/gates')).body.data as { feature: string; allowed: boolean }[];
    expect(gates.find((g) => g.feature === 'milestone')?.allowed).toBe(true);
  });

  it('books the onboarding call on Advanced and Ultimate only', async () => {
    const essential = await offersApp('pro_3_2025');
    expect((await essential.offers()).onboardingCall).toEqual({ allowed: false, unlockPlan: 'Advanced', requestedAt: null, note: null });
    const refused = await essential.call('POST', '/api/subscription/onboarding-call', {});
    expect(refused.status).toBe(403);
    expect((refused.body.error as Json).code).toBe('plan_gate');

    for (const plan of ['advanced_2025', 'enterprise_2025']) {
      const { call, offers } = await offersApp(plan);
      expect((await call('POST', '/api/subscription/onboarding-call', { note: 'x'.repeat(501) })).status).toBe(422);
      const booked = await call('POST', '/api/subscription/onboarding-call', { note: ' Mornings, please ' });
      expect(booked.status).toBe(200);
      expect(booked.body.data).toEqual({ allowed: true, unlockPlan: null, requestedAt: '2026-03-02T12:00:00.000Z', note: 'Mornings, please' });
      expect((await offers()).onboardingCall.requestedAt).toBe('2026-03-02T12:00:00.000Z');
    }
  });
});
