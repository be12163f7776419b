// @vitest-environment jsdom
/**
 * The billing screens in jsdom (issue 12; spec 000 §4, §5, §8): the plans page with the yearly
 * toggle, subscribing (redirect toast and the local confirmation page), the spec's failure toast,
 * the reinstall banner, and the subscribe query dropping empty values.
 */
import { cleanup, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { monthlyCost, subscribeQuery, type PlanOffer } from '../../ui/areas/billing/api';
import { callsTo, mockFetch, renderApp, shopReply } from './helpers';

afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
  sessionStorage.clear();
});

const plan = (id: string, name: string, price: number, freePerMonth: number, pricePerOrder: number, group: number): PlanOffer => ({
  id,
  name,
  group,
  price,
  priceAnnually: price * 12,
  pricePerMonthYearly: price,
  freePerMonth,
  pricePerOrder,
  cappedAmount: 47400,
  trialDays: price > 0 ? 14 : 0,
  circleDays: 30,
  mostPopular: false,
  promoPrices: {},
  features: [],
});
const PLANS = [plan('free', 'Starter', 0, 150, 0, 0), plan('pro_3_2025', 'Essential', 2499, 500, 15, 1)];
const INFO = {
  plan: 'free',
  planName: 'Starter',
  billingMode: 'local',
  subscription: null,
  history: [],
  allowance: { state: 'ok', used: 12, limit: 150, message: null, month: '2026-11' },
  usageChargeMinor: 0,
  paused: [],
  isTrialUsed: false,
  downgradeCode: 'JOYDOWNGRADE50',
};

describe('subscribe query (spec 000 §5)', () => {
  it('drops empty, false, null and undefined values', () => {
    expect(subscribeQuery({ interval: 'annual', discountCode: '', a: null, b: undefined, c: false })).toBe('?interval=annual');
    expect(subscribeQuery({ discountCode: null })).toBe('');
  });

  it('prices a month with extra orders, capped', () => {
    expect(monthlyCost(PLANS[1]!, 600)).toBe(2499 + 100 * 15);
    expect(monthlyCost(PLANS[1]!, 100_000)).toBe(2499 + 47400);
  });
});

describe('plans page', () => {
  it('shows monthly and yearly prices and subscribes through the confirmation page', async () => {
    const fetchMock = mockFetch({
      'GET /api/shops': shopReply,
      'GET /api/subscription/plans': { body: { data: PLANS } },
      'GET /api/subscription': { body: { data: INFO } },
      'GET /api/subscription/shopify/subscribe/pro_3_2025?interval=annual': { body: { isRedirect: true, confirmationUrl: '/subscription/billing?subscription=s1&local_charge=local-s1', subscriptionId: 's1', change: null } },
    });
    const { router } = renderApp('/subscription');
    const essential = (await screen.findByRole('heading', { name: 'Essential' })).closest('li')!;
    expect(within(essential).getByText('$24.99')).toBeInTheDocument();
    await userEvent.click(screen.getByRole('tab', { name: 'Yearly' }));
    expect(within(essential).getByText('$299.88')).toBeInTheDocument();
    await userEvent.click(within(essential).getByRole('button', { name: 'Choose Essential' }));
    expect(await screen.findByText('Redirecting to Shopify')).toBeInTheDocument();
    await waitFor(() => expect(router.state.location.pathname).toBe('/subscription/billing'));
    expect(callsTo(fetchMock, 'GET', '/api/subscription/shopify/subscribe/pro_3_2025?interval=annual')).toHaveLength(1);
    expect(await screen.findByRole('heading', { name: 'Approve the test charge' })).toBeInTheDocument();
  });

  it('shows the server error text when subscribing fails', async () => {
    mockFetch({
      'GET /api/shops': shopReply,
      'GET /api/subscription/plans': { body: { data: PLANS } },
      'GET /api/subscription': { body: { data: INFO } },
      'GET /api/subscription/shopify/subscribe/pro_3_2025?interval=monthly': { status: 502, body: { error: { code: 'platform_unavailable', message: 'The platform answered 500' } } },
    });
    renderApp('/subscription');
    const essential = (await screen.findByRole('heading', { name: 'Essential' })).closest('li')!;
    await waitFor(() => expect(within(essential).getByRole('button', { name: 'Choose Essential' })).toBeEnabled());
    await userEvent.click(within(essential).getByRole('button', { name: 'Choose Essential' }));
    expect(await screen.findByText('The platform answered 500')).toBeInTheDocument();
  });
});

describe('billing dashboard', () => {
  it('shows the spec message when the subscription cannot be loaded', async () => {
    mockFetch({ 'GET /api/shops': shopReply, 'GET /api/subscription': { status: 500, body: { error: { code: 'internal_error', message: 'boom' } } } });
    renderApp('/billing-dashboard');
    const message = 'Failed to get subscription info. If the problem persists after reload, please contact us.';
    await waitFor(() => expect(screen.getAllByText(message).length).toBeGreaterThanOrEqual(1));
  });
});

describe('reinstall banner', () => {
  it('tells the merchant to install the app again when access was revoked', async () => {
    mockFetch({
      'GET /api/shops': shopReply,
      'GET /api/subscription/plans': { body: { data: PLANS } },
      'GET /api/subscription': { body: { data: INFO } },
      'GET /api/platform/access': { body: { data: { state: 'revoked', scopes: [], missingScopes: [], needsReinstall: true } } },
    });
    renderApp('/subscription');
    expect(await screen.findByText('The app needs to be installed again')).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Install again' })).toBeInTheDocument();
  });
});
