/**
 * The floating booking popup's rule (spec 000 §4 "shown only to shops installed within the last 7
 * days, on higher platform plans, not yet dismissed, and not on the top plans"; coverage SH10).
 */
import { describe, expect, it } from 'vitest';
import { bookingPopupDecision, type BookingPopupFacts } from '../../server/services/booking-popup';

const NOW = new Date('2026-03-10T12:00:00.000Z');
/** A shop the popup is shown to: installed a day ago, on Shopify Plus, on the free plan, nothing dismissed. */
const shop = (over: Partial<BookingPopupFacts> = {}): BookingPopupFacts => ({
  installedAt: '2026-03-09T12:00:00.000Z',
  shopifyPlan: 'shopify_plus',
  plan: 'free',
  bannersDismiss: [],
  ...over,
});

describe('booking popup eligibility', () => {
  it('shows to a shop installed a day ago on a higher platform plan, below the top plans, not dismissed', () => {
    expect(bookingPopupDecision(shop(), NOW)).toEqual({ show: true, hiddenBecause: [] });
  });

  it('still shows exactly 7 days after the install and hides a millisecond later', () => {
    expect(bookingPopupDecision(shop({ installedAt: '2026-03-03T12:00:00.000Z' }), NOW).show).toBe(true);
    expect(bookingPopupDecision(shop({ installedAt: '2026-03-03T11:59:59.999Z' }), NOW)).toEqual({ show: false, hiddenBecause: ['installed_over_7_days'] });
  });

  it('hides when the install time is not a date', () => {
    expect(bookingPopupDecision(shop({ installedAt: 'yesterday' }), NOW).hiddenBecause).toEqual(['installed_over_7_days']);
  });

  it.each(['professional', 'shopify_plus', 'unlimited'])('shows on the higher platform plan %s', (shopifyPlan) => {
    expect(bookingPopupDecision(shop({ shopifyPlan }), NOW).show).toBe(true);
  });

  it.each([['basic'], ['shopify'], ['advanced'], [null]])('hides on the platform plan %s', (shopifyPlan) => {
    expect(bookingPopupDecision(shop({ shopifyPlan }), NOW).hiddenBecause).toEqual(['platform_plan_not_higher']);
  });

  it('hides once booking_popup is in bannersDismiss, and other dismissed banners do not matter', () => {
    expect(bookingPopupDecision(shop({ bannersDismiss: ['booking_popup'] }), NOW).hiddenBecause).toEqual(['dismissed']);
    expect(bookingPopupDecision(shop({ bannersDismiss: ['exclusive_deal'] }), NOW).show).toBe(true);
  });

  it.each(['pro_3_2025', 'pro_4_2025', 'pro', 'head_start'])('shows on %s, below Advanced', (plan) => {
    expect(bookingPopupDecision(shop({ plan }), NOW).show).toBe(true);
  });

  it.each(['advanced', 'advanced_2025', 'enterprise', 'enterprise_2025'])('hides on the top plan %s (its onboarding call comes with the plan)', (plan) => {
    expect(bookingPopupDecision(shop({ plan }), NOW).hiddenBecause).toEqual(['top_plan']);
  });

  it('names every rule that hides it', () => {
    const decision = bookingPopupDecision({ installedAt: '2026-01-01T00:00:00.000Z', shopifyPlan: 'basic', plan: 'enterprise_2025', bannersDismiss: ['booking_popup'] }, NOW);
    expect(decision).toEqual({ show: false, hiddenBecause: ['installed_over_7_days', 'platform_plan_not_higher', 'dismissed', 'top_plan'] });
  });
});
