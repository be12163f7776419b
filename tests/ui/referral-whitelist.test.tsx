// @vitest-environment jsdom
/** The referral whitelist screen (issue 11, spec 002 §2): list, search by e-mail, add, remove with a confirmation, and its states. */
import { cleanup, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { callsTo, mockFetch, renderApp, shopReply } from './helpers';

afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
  vi.restoreAllMocks();
  sessionStorage.clear();
});

const entry = (n: number) => ({ customerId: `c${n}`, email: `friend${n}@example.com`, firstName: 'Friend', lastName: `N${n}`, actor: 'admin:1', addedAt: '2026-11-20T10:00:00.000Z' });
const LIST = 'GET /api/referrals/whitelist?sort=added_desc&limit=20&page=1';

describe('referral whitelist screen', () => {
  it('lists whitelisted customers with the total and searches by full e-mail', async () => {
    const fetchMock = mockFetch({
      'GET /api/shops': shopReply,
      [LIST]: { body: { data: [entry(1), entry(2)], total: 2 } },
      'GET /api/referrals/whitelist?search=friend2%40example.com&sort=added_desc&limit=20&page=1': { body: { data: [entry(2)], total: 1 } },
    });
    renderApp('/customers/whitelist/referral');
    const table = await screen.findByRole('table', { name: 'Referral whitelist' });
    await within(table).findByText('friend1@example.com');
    expect(within(table).getAllByRole('row')).toHaveLength(3);
    expect(screen.getByText('2 customers')).toBeInTheDocument();
    await userEvent.type(screen.getByLabelText('Search by email'), 'friend2@example.com');
    await userEvent.click(screen.getByRole('button', { name: 'Search' }));
    expect(await screen.findByText('1 customers')).toBeInTheDocument();
    expect(callsTo(fetchMock, 'GET', '/api/referrals/whitelist?search=friend2%40example.com&sort=added_desc&limit=20&page=1')).toHaveLength(1);
  });

  it('adds a customer by e-mail and says when no customer has it', async () => {
    let list = [entry(1)];
    const fetchMock = mockFetch({
      'GET /api/shops': shopReply,
      [LIST]: () => ({ body: { data: list, total: list.length } }),
      'POST /api/referrals/whitelist': ({ body }) => {
        const email = (body as { email: string }).email;
        if (email !== 'friend3@example.com') return { status: 404, body: { error: { code: 'customer_not_found', message: 'No customer found', details: [{ path: '/email', message: 'No customer with this email' }] } } };
        list = [entry(3), ...list];
        return { body: { data: entry(3), message: 'Saved successfully' } };
      },
    });
    renderApp('/customers/whitelist/referral');
    await screen.findByText('friend1@example.com');
    await userEvent.click(screen.getByRole('button', { name: 'Add customer' }));
    const dialog = screen.getByRole('dialog');
    await userEvent.type(within(dialog).getByLabelText('Customer email'), 'nobody@example.com');
    await userEvent.click(within(dialog).getByRole('button', { name: 'Add customer' }));
    expect(await within(dialog).findByText('No customer with this email')).toBeInTheDocument();
    await userEvent.clear(within(dialog).getByLabelText('Customer email'));
    await userEvent.type(within(dialog).getByLabelText('Customer email'), 'friend3@example.com');
    await userEvent.click(within(dialog).getByRole('button', { name: 'Add customer' }));
    expect(await screen.findByText('friend3@example.com')).toBeInTheDocument();
    expect(callsTo(fetchMock, 'POST', '/api/referrals/whitelist').map((c) => c.body)).toEqual([{ email: 'nobody@example.com' }, { email: 'friend3@example.com' }]);
  });

  it('removes the selected customers only after the confirmation', async () => {
    let list = [entry(1), entry(2)];
    const fetchMock = mockFetch({
      'GET /api/shops': shopReply,
      [LIST]: () => ({ body: { data: list, total: list.length } }),
      'POST /api/referrals/whitelist/remove': ({ body }) => {
        const ids = (body as { customerIds: string[] }).customerIds;
        list = list.filter((e) => !ids.includes(e.customerId));
        return { body: { data: { removed: ids.length } } };
      },
    });
    renderApp('/customers/whitelist/referral');
    await userEvent.click(await screen.findByLabelText('Select friend1@example.com'));
    expect(screen.getByText('1 selected')).toBeInTheDocument();
    await userEvent.click(screen.getByRole('button', { name: 'Remove' }));
    expect(callsTo(fetchMock, 'POST', '/api/referrals/whitelist/remove')).toHaveLength(0);
    await userEvent.click(within(screen.getByRole('dialog')).getByRole('button', { name: 'Remove' }));
    expect(await screen.findByText('1 removed')).toBeInTheDocument();
    expect(callsTo(fetchMock, 'POST', '/api/referrals/whitelist/remove').map((c) => c.body)).toEqual([{ customerIds: ['c1'] }]);
    await waitFor(() => expect(screen.queryByText('friend1@example.com')).toBeNull());
  });

  it('shows the empty state and the load error with a reload', async () => {
    mockFetch({ 'GET /api/shops': shopReply, [LIST]: { body: { data: [], total: 0 } } });
    renderApp('/customers/whitelist/referral');
    expect(await screen.findByRole('heading', { name: 'No customers on the whitelist' })).toBeInTheDocument();
    cleanup();
    mockFetch({ 'GET /api/shops': shopReply, [LIST]: { status: 500, body: { error: { code: 'internal_error', message: 'boom' } } } });
    renderApp('/customers/whitelist/referral');
    expect(await screen.findByText('Failed to load the referral whitelist')).toBeInTheDocument();
  });
});
