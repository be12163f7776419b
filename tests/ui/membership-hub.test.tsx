// @vitest-environment jsdom
import { cleanup, screen, within } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { gate, programRow } from './catalogue-factories';
import { mockFetch, renderApp, shopReply, type Handler } from './helpers';

const gates = [
  gate('member_exclusive_deal', 'Advanced'),
  gate('vip_tiers'),
  gate('partner_tier', 'Shopify Plus'),
  gate('subscription_membership', 'Advanced'),
];

function serve(extra: Record<string, Handler> = {}) {
  return mockFetch({
    'GET /api/shops': shopReply,
    'GET /api/gates': { body: { data: gates } },
    'GET /api/lp/programs/earning': { body: { data: [] } },
    ...extra,
  });
}

const card = async (name: string) => screen.findByRole('region', { name });

afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
  sessionStorage.clear();
});

describe('Membership hub', () => {
  it('badges each gated card with the plan that unlocks it, from /api/gates', async () => {
    serve();
    renderApp('/membership');
    const partner = await card('Partner tier (B2B, Shopify Plus only)');
    expect(await within(partner).findByText('Available on Shopify Plus')).toBeInTheDocument();
    expect(partner).toHaveTextContent('partner_tier needs the Shopify Plus plan; this shop is on Essential.');
    expect(within(await card('Member exclusive deal')).getByText('Available on Advanced')).toBeInTheDocument();
    expect(within(await card('Subscription membership')).getByText('Available on Advanced')).toBeInTheDocument();
    expect(within(await card('VIP Tiers')).queryByText(/Available on/)).toBeNull();
  });

  it('leads each card to its screen', async () => {
    serve();
    renderApp('/membership');
    expect(within(await card('Member exclusive deal')).getByRole('link', { name: 'Manage Member exclusive deal' })).toHaveAttribute('href', '/membership/exclusive-deal');
    expect(within(await card('VIP Tiers')).getByRole('link')).toHaveAttribute('href', '/membership/vip');
    expect(within(await card('Partner tier (B2B, Shopify Plus only)')).getByRole('link')).toHaveAttribute('href', '/wholesale/vip');
    expect(within(await card('Anniversary reward')).getByRole('link')).toHaveAttribute('href', '/programs/member_anniversary/new');
    // Not built yet: its only link is the plan that unlocks it (the badge).
    expect(within(await card('Subscription membership')).getByRole('link')).toHaveAttribute('href', '/subscription?plan=advanced_2025');
  });

  it('opens the shop\'s existing anniversary program instead of a new one', async () => {
    const anniversary = programRow('earning.member_anniversary', 'Happy anniversary', { id: 'a1' });
    serve({ 'GET /api/lp/programs/earning': { body: { data: [anniversary] } } });
    renderApp('/membership');
    const link = within(await card('Anniversary reward')).getByRole('link');
    await vi.waitFor(() => expect(link).toHaveAttribute('href', '/programs/point/a1'));
  });

  it('is reached from the side navigation', async () => {
    serve({ 'GET /api/kinds': { body: { data: [] } }, 'GET /api/lp/programs/spending': { body: { data: [] } } });
    renderApp('/programs');
    expect(await screen.findByRole('link', { name: /Membership/ })).toHaveAttribute('href', '/membership');
  });
});
