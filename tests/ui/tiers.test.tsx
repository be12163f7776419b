// @vitest-environment jsdom
/**
 * VIP tiers in the admin (issue 10): the Launch tab's Launch / Relaunch / Deactivate with their
 * confirmation dialogs and the server's messages, and the customer's tier card (progress, assign
 * and unassign an exclusive tier).
 */
import { cleanup, render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { CustomerTier, TierProgramStatus } from '../../ui/api/endpoints';
import { TierCard } from '../../ui/areas/customers/TierCard';
import { catalogueKinds, storedDoc, tierSettingsKind } from './catalogue-factories';
import { callsTo, mockFetch, renderApp, shopReply, withStore, type Handler } from './helpers';

afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
  sessionStorage.clear();
});

const inactive: TierProgramStatus = { status: 'inactive', launchedAt: null, startDate: null, changeNotes: '', grantEntryRewards: false, actor: null, updatedAt: null, usedBy: [] };
const launched: TierProgramStatus = { ...inactive, status: 'launched', launchedAt: '2026-06-15T16:00:00.000Z', actor: 'admin:1', changeNotes: 'Gold added' };

function serve(extra: Record<string, Handler>) {
  return mockFetch({
    'GET /api/shops': shopReply,
    'GET /api/kinds': { body: { data: catalogueKinds } },
    'GET /api/kinds/tier.settings': { body: { data: tierSettingsKind } },
    'GET /api/kinds/tier.settings/docs': { body: { data: [storedDoc('tier.settings', { general: { status: true } }, { id: 's1' })] } },
    ...extra,
  });
}

describe('the Launch tab', () => {
  it('launches after confirmation, with the entry-reward choice, and shows the result', async () => {
    const fetchMock = serve({
      'GET /api/tiers/status': { body: { data: inactive } },
      'POST /api/tiers/launch': { body: { data: { ...launched, changeNotes: '', customers: 12, moved: 12 } } },
    });
    renderApp('/membership/vip?tab=launch');
    // The first render loads the app's lazy routes: allow it more than the default second.
    await userEvent.click(await screen.findByRole('button', { name: 'Launch VIP tiers' }, { timeout: 5000 }));
    const dialog = await screen.findByRole('dialog', { name: 'Launch VIP tiers?' });
    await userEvent.click(within(dialog).getByRole('checkbox', { name: 'Grant entry rewards to customers who enter a tier now' }));
    await userEvent.click(within(dialog).getByRole('button', { name: 'Launch VIP tiers' }));
    expect(await screen.findByText('VIP tiers launched: 12 of 12 customers placed')).toBeInTheDocument();
    expect(callsTo(fetchMock, 'POST', '/api/tiers/launch').map((c) => c.body)).toEqual([{ changeNotes: '', grantEntryRewards: true }]);
    expect(await screen.findByRole('button', { name: 'Relaunch' })).toBeInTheDocument();
  });

  it('relaunches with change notes', async () => {
    const fetchMock = serve({
      'GET /api/tiers/status': { body: { data: launched } },
      'POST /api/tiers/relaunch': { body: { data: { ...launched, changeNotes: 'Orders count now', customers: 5, moved: 2 } } },
    });
    renderApp('/membership/vip?tab=launch');
    expect(await screen.findByText('Change notes: Gold added')).toBeInTheDocument();
    await userEvent.click(screen.getByRole('button', { name: 'Relaunch' }));
    const dialog = await screen.findByRole('dialog', { name: 'Relaunch VIP tiers?' });
    await userEvent.type(within(dialog).getByLabelText('Change notes (optional)'), 'Orders count now');
    await userEvent.click(within(dialog).getByRole('button', { name: 'Relaunch' }));
    expect(await screen.findByText('VIP tiers relaunched: 2 of 5 customers changed tier')).toBeInTheDocument();
    expect(callsTo(fetchMock, 'POST', '/api/tiers/relaunch')[0]?.body).toEqual({ changeNotes: 'Orders count now', grantEntryRewards: false });
  });

  it('shows the server’s refusal to deactivate with the programs that use tiers', async () => {
    serve({
      'GET /api/tiers/status': { body: { data: launched } },
      'POST /api/tiers/deactivate': {
        status: 409,
        body: { error: { code: 'tiers_in_use', message: 'Cannot deactivate VIP Tier while programs use it', details: [{ path: '/documents/p1', message: 'Silver bonus (earning.place_order) uses VIP tiers' }] } },
      },
    });
    renderApp('/membership/vip?tab=launch');
    await userEvent.click(await screen.findByRole('button', { name: 'Deactivate' }));
    const dialog = await screen.findByRole('dialog', { name: 'Deactivate VIP tiers?' });
    await userEvent.click(within(dialog).getByRole('button', { name: 'Deactivate' }));
    expect(await within(dialog).findByText('Cannot deactivate VIP Tier while programs use it')).toBeInTheDocument();
    expect(within(dialog).getByText('Silver bonus (earning.place_order) uses VIP tiers')).toBeInTheDocument();
  });

  it('offers a reload when the state cannot be loaded', async () => {
    serve({ 'GET /api/tiers/status': { status: 500, body: { error: { code: 'internal_error', message: 'Something went wrong.' } } } });
    renderApp('/membership/vip?tab=launch');
    expect(await screen.findByText('Failed to load the VIP tier program')).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Reload' })).toBeInTheDocument();
  });
});

const view = (over: Partial<CustomerTier> = {}): CustomerTier => ({
  customerId: 'c1',
  tierId: 'silver',
  tierName: 'Silver',
  manual: false,
  launched: true,
  entryMethod: 'points_earned',
  stats: { tierPoints: 740, amountSpentMinor: 74000, orders: 4 },
  assessment: { tierId: 'silver', explanation: { required: 500, seen: 740, next: { tierId: 'gold', tierName: 'Gold', required: 1000, remaining: 260 }, message: '' } },
  ladder: [
    { id: 'member', name: 'Member', required: 0 },
    { id: 'silver', name: 'Silver', required: 500 },
    { id: 'gold', name: 'Gold', required: 1000 },
  ],
  exclusiveTiers: [{ id: 'insiders', name: 'Insiders' }],
  changes: [],
  ...over,
});

describe('TierCard', () => {
  it('shows the tier and the progress to the next one', async () => {
    mockFetch({ 'GET /api/customers/c1/tier': { body: { data: view() } } });
    render(withStore(<TierCard customerId="c1" tierId="silver" />));
    expect(await screen.findByText('Silver')).toBeInTheDocument();
    expect(screen.getByText('260 points more to reach Gold')).toBeInTheDocument();
    expect(screen.getByRole('progressbar', { name: 'Progress to Gold' })).toHaveAttribute('value', String(240 / 500));
  });

  it('assigns an exclusive tier after confirmation and tells the profile', async () => {
    const onChange = vi.fn();
    const fetchMock = mockFetch({
      'GET /api/customers/c1/tier': { body: { data: view() } },
      'POST /api/customers/c1/tier': { body: { data: view({ tierId: 'insiders', tierName: 'Insiders', manual: true }) } },
    });
    render(withStore(<TierCard customerId="c1" tierId="silver" onChange={onChange} />));
    await userEvent.click(await screen.findByRole('button', { name: 'Assign exclusive tier' }));
    const dialog = await screen.findByRole('dialog', { name: 'Assign an exclusive tier' });
    await userEvent.type(within(dialog).getByLabelText('Note (optional)'), 'Subscriber');
    await userEvent.click(within(dialog).getByRole('button', { name: 'Assign exclusive tier' }));
    await waitFor(() => expect(onChange).toHaveBeenCalledWith(expect.objectContaining({ tierId: 'insiders', manual: true })));
    expect(callsTo(fetchMock, 'POST', '/api/customers/c1/tier')[0]?.body).toEqual({ tierId: 'insiders', note: 'Subscriber' });
    expect(await screen.findByText('Assigned by hand')).toBeInTheDocument();
  });

  it('shows the server’s message when unassigning fails', async () => {
    mockFetch({
      'GET /api/customers/c1/tier': { body: { data: view({ tierId: 'insiders', tierName: 'Insiders', manual: true }) } },
      'DELETE /api/customers/c1/tier': { status: 409, body: { error: { code: 'tier_not_manual', message: 'Failed to unassign exclusive tier: this customer has no manually assigned tier' } } },
    });
    render(withStore(<TierCard customerId="c1" tierId="insiders" />));
    await userEvent.click(await screen.findByRole('button', { name: 'Unassign exclusive tier' }));
    const dialog = await screen.findByRole('dialog', { name: 'Unassign the exclusive tier?' });
    await userEvent.click(within(dialog).getByRole('button', { name: 'Unassign exclusive tier' }));
    expect(await within(dialog).findByText('Failed to unassign exclusive tier: this customer has no manually assigned tier')).toBeInTheDocument();
  });
});
