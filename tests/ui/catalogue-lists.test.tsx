// @vitest-environment jsdom
import { cleanup, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { catalogueKinds, programRow, storedDoc } from './catalogue-factories';
import { callsTo, mockFetch, renderApp, shopReply, type Handler } from './helpers';

const earning = [
  programRow('earning.place_order', 'Orders earn points', { status: true }),
  programRow('earning.milestone', 'Big spender milestones'),
  programRow('earning.sign_up', 'Welcome bonus'),
];

const tiers = [
  storedDoc('tier.tier', { name: 'Gold', entryRequirement: 1000, color: '#d4a017', entryMethod: 'points_earned' }),
  storedDoc('tier.tier', { name: 'Bronze', entryRequirement: 0, color: '#cd7f32', entryMethod: 'points_earned' }),
  storedDoc('tier.tier', { name: 'Silver', entryRequirement: 200, color: '#a8a9ad', entryMethod: 'points_earned' }),
];

function serve(extra: Record<string, Handler> = {}) {
  return mockFetch({
    'GET /api/shops': shopReply,
    'GET /api/kinds': { body: { data: catalogueKinds } },
    'GET /api/lp/programs/earning': { body: { data: earning } },
    'GET /api/lp/programs/spending': { body: { data: [] } },
    'GET /api/kinds/tier.tier/docs': { body: { data: tiers } },
    'GET /api/kinds/referral.program/docs': { body: { data: [] } },
    'GET /api/kinds/referral.friend_reward/docs': { body: { data: [] } },
    'GET /api/kinds/referral.customer_reward/docs': { body: { data: [] } },
    ...extra,
  });
}

const rowNames = (table: HTMLElement) =>
  within(table)
    .getAllByRole('row')
    .slice(1)
    .map((row) => within(row).getAllByRole('cell')[0]?.textContent);

afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
  sessionStorage.clear();
});

describe('Program catalogue tabs', () => {
  it('lists earning programs without milestones on the earning tab', async () => {
    serve();
    renderApp('/programs');
    await screen.findByText('Orders earn points');
    expect(rowNames(screen.getByRole('table', { name: 'Programs' }))).toEqual(['Orders earn points', 'Welcome bonus']);
  });

  it('lists only milestone programs on the milestone tab, and its add menu offers only milestones', async () => {
    serve();
    const { router } = renderApp('/programs');
    await userEvent.click(await screen.findByRole('tab', { name: 'Milestones' }));
    expect(router.state.location.search).toBe('?type=milestone');
    await screen.findByText('Big spender milestones');
    expect(rowNames(screen.getByRole('table', { name: 'Programs' }))).toEqual(['Big spender milestones']);
    const add = screen.getByRole('button', { name: /Add program/ });
    await waitFor(() => expect(add).toBeEnabled());
    await userEvent.click(add);
    const items = within(screen.getByRole('menu')).getAllByRole('menuitem');
    expect(items).toHaveLength(1);
    expect(items[0]).toHaveTextContent('Milestone rewards');
    expect(items[0]).toHaveTextContent('Available on Advanced');
  });

  it('sorts tiers by entry requirement as numbers and marks the base tier', async () => {
    serve();
    renderApp('/programs?type=tier');
    const table = await screen.findByRole('table', { name: 'VIP tiers' });
    await within(table).findByText('Gold');
    expect(rowNames(table)).toEqual(['BronzeBase tier', 'Silver', 'Gold']);
    const [bronze, silver] = within(table).getAllByRole('row').slice(1);
    expect(bronze).toHaveTextContent('0 points earned');
    expect(bronze).toHaveTextContent('#cd7f32');
    expect(within(silver!).queryByText('Base tier')).toBeNull();
    expect(screen.getByRole('link', { name: 'Create tier' })).toHaveAttribute('href', '/programs/tier/create');
  });

  it('deletes a tier after confirmation', async () => {
    const fetchMock = serve({ [`DELETE /api/kinds/tier.tier/docs/${tiers[0]!.id}`]: { body: { success: true } } });
    renderApp('/programs?type=tier');
    await userEvent.click(await screen.findByRole('button', { name: 'Delete Gold' }));
    await userEvent.click(within(screen.getByRole('dialog', { name: 'Delete Gold?' })).getByRole('button', { name: 'Delete' }));
    expect(await screen.findByText('Tier deleted')).toBeInTheDocument();
    expect(callsTo(fetchMock, 'DELETE', `/api/kinds/tier.tier/docs/${tiers[0]!.id}`)).toHaveLength(1);
    expect(screen.queryByText('Gold')).toBeNull();
  });

  it('invites the merchant to set up the referral program while there is none', async () => {
    serve();
    renderApp('/programs?type=referral');
    expect(await screen.findByRole('heading', { name: 'Set up your referral program' })).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Set up referral program' })).toHaveAttribute('href', '/programs/referral');
  });

  it('shows the referral program card with its status and links to both rewards', async () => {
    const program = storedDoc('referral.program', { title: 'Refer a friend', status: true });
    const friend = storedDoc('referral.friend_reward', { status: true, rewardType: 'percentage_discount', value: 10 });
    serve({
      'GET /api/kinds/referral.program/docs': { body: { data: [program] } },
      'GET /api/kinds/referral.friend_reward/docs': { body: { data: [friend] } },
    });
    renderApp('/programs?type=referral');
    const card = (await screen.findByRole('heading', { name: 'Refer a friend' })).closest('section')!;
    expect(within(card).getByRole('switch', { name: 'Turn on Refer a friend' })).toBeChecked();
    expect(within(card).getByRole('link', { name: 'Edit Program settings' })).toHaveAttribute('href', '/programs/referral');
    expect(await within(card).findByText('10% off')).toBeInTheDocument();
    expect(within(card).getByRole('link', { name: 'Edit Friend reward' })).toHaveAttribute('href', '/programs/referral/friendReward');
    expect(within(card).getByRole('link', { name: 'Set up Customer reward' })).toHaveAttribute('href', '/programs/referral/customerReward');
  });

  it('rolls back a referral toggle the server refuses and shows its message as a banner and a toast', async () => {
    const program = storedDoc('referral.program', { title: 'Refer a friend', status: false });
    serve({
      'GET /api/kinds/referral.program/docs': { body: { data: [program] } },
      [`PUT /api/kinds/referral.program/docs/${program.id}`]: {
        status: 409,
        body: { error: { code: 'limit.referral_links', message: 'Referral link limit reached (100 links on the current plan).' } },
      },
    });
    renderApp('/programs?type=referral');
    const toggle = await screen.findByRole('switch', { name: 'Turn on Refer a friend' });
    await userEvent.click(toggle);
    await waitFor(() => expect(screen.getAllByRole('alert')).toHaveLength(2));
    for (const alert of screen.getAllByRole('alert')) expect(alert).toHaveTextContent('Referral link limit reached (100 links on the current plan).');
    expect(toggle).not.toBeChecked();
  });
});

describe('Document lists', () => {
  it('shows a plan gate refusal of a deal toggle as a banner until dismissed', async () => {
    const deal = storedDoc('membership.exclusive_deal', { name: 'Members 15% off', status: false, discountType: 'percentage', discountValue: 15 });
    const message = 'Member exclusive deals are available on the Advanced plan. This shop is on Essential.';
    serve({
      'GET /api/kinds/membership.exclusive_deal/docs': { body: { data: [deal] } },
      [`PUT /api/kinds/membership.exclusive_deal/docs/${deal.id}`]: { status: 403, body: { error: { code: 'plan_gate', message } } },
    });
    renderApp('/membership/exclusive-deal');
    const toggle = await screen.findByRole('switch', { name: 'Turn on Members 15% off' });
    expect(screen.getByRole('row', { name: /Members 15% off/ })).toHaveTextContent('15%');
    await userEvent.click(toggle);
    const banner = await waitFor(() => screen.getAllByRole('alert').find((alert) => alert.classList.contains('banner'))!);
    expect(banner).toHaveTextContent(message);
    expect(toggle).not.toBeChecked();
    await userEvent.click(within(banner).getByRole('button', { name: 'Dismiss' }));
    expect(banner).not.toBeInTheDocument();
  });
});
