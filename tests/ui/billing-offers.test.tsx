// @vitest-environment jsdom
/**
 * The plans page's offers in jsdom (issue 12; PL10, PL11, PL14): the head start's free year and the
 * milestone trial are offered, a claim shows "Claim offer successfully" and goes to the confirmation
 * page; the onboarding call names the plan that includes it; the offers' failure shows a banner.
 */
import { cleanup, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { Offers } from '../../ui/areas/billing/api';
import { callsTo, mockFetch, renderApp, shopReply } from './helpers';

afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
  sessionStorage.clear();
});

const INFO = {
  plan: 'free', planName: 'Starter', billingMode: 'local', subscription: null, history: [], usageChargeMinor: 0, paused: [], isTrialUsed: false, downgradeCode: 'JOYDOWNGRADE50',
  allowance: { state: 'ok', used: 0, limit: 150, message: null, month: '2026-11' },
};
const OFFERS: Offers = {
  sale: { id: 'sale', code: '20%_3M', percent: 20, months: 3, planId: 'pro_3_2025', planName: 'Essential', price: 2499, discountedPrice: 1999, show: true, dismissedAt: null },
  headStart: { id: 'head_start', variant: 'trial', planId: 'head_start', planName: 'Essential', trialDays: 365 },
  milestoneTrial: { id: 'milestone_trial', planId: 'advanced_2025', planName: 'Advanced', trialDays: 14 },
  onboardingCall: { allowed: false, unlockPlan: 'Advanced', requestedAt: null, note: null },
};
const base = {
  'GET /api/shops': shopReply,
  'GET /api/subscription/plans': { body: { data: [] } },
  'GET /api/subscription': { body: { data: INFO } },
};

describe('plan offers', () => {
  it('offers the head start, the milestone trial and the sale, and a claim goes to the confirmation page', async () => {
    const fetchMock = mockFetch({
      ...base,
      'GET /api/subscription/offers': { body: { data: OFFERS } },
      'POST /api/subscription/offers/head_start/claim': {
        body: { isRedirect: true, confirmationUrl: '/subscription/billing?subscription=s1&local_charge=local-s1', subscriptionId: 's1', change: null, message: 'Claim offer successfully' },
      },
    });
    const { router } = renderApp('/settings/subscription/plans');
    const offers = (await screen.findByRole('heading', { name: 'Head start' })).closest('.card') as HTMLElement;
    expect(within(offers).getByText('Try Essential free for 365 days: everything in Essential, no charge for a year.')).toBeInTheDocument();
    expect(within(offers).getByText('Milestones come with Advanced. Try Advanced free for 14 days.')).toBeInTheDocument();
    expect(within(offers).getByRole('heading', { name: '20% off Essential for 3 months' })).toBeInTheDocument();
    expect(within(offers).getByText('Onboarding calls come with Advanced and Ultimate.')).toBeInTheDocument();
    await userEvent.click(within(offers).getByRole('button', { name: 'Start the free year' }));
    expect(await screen.findByText('Claim offer successfully')).toBeInTheDocument();
    await waitFor(() => expect(router.state.location.pathname).toBe('/subscription/billing'));
    expect(callsTo(fetchMock, 'POST', '/api/subscription/offers/head_start/claim')).toHaveLength(1);
  });

  it('says a call booked from the booking popup was asked for, on a plan without onboarding calls too', async () => {
    mockFetch({
      ...base,
      'GET /api/subscription/offers': { body: { data: { ...OFFERS, onboardingCall: { ...OFFERS.onboardingCall, requestedAt: '2026-11-20T10:00:00.000Z' } } } },
    });
    renderApp('/settings/subscription/plans');
    const offers = (await screen.findByRole('heading', { name: 'Head start' })).closest('.card') as HTMLElement;
    expect(within(offers).getByText(/^You asked for a call on .*We will get in touch by e-mail\.$/)).toBeInTheDocument();
    expect(within(offers).getByText('Onboarding calls come with Advanced and Ultimate.')).toBeInTheDocument();
  });

  it('shows a banner when the offers cannot be loaded', async () => {
    mockFetch({ ...base, 'GET /api/subscription/offers': { status: 500, body: { error: { code: 'internal', message: 'x' } } } });
    renderApp('/settings/subscription/plans');
    expect(await screen.findByText('Failed to load the offers')).toBeInTheDocument();
  });
});
