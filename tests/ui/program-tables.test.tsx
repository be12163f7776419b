// @vitest-environment jsdom
/**
 * The walkthrough's fixes to the program tables and pages (issue 12 "What the walkthrough found"):
 * search, sort, a column for what each program gives, Scheduled and Expired badges, the add menu
 * saying why "Place an order" is unavailable at the limit, each page setting the document title and
 * focusing its heading; and the setup page replacing the app while the shop's setup is not done.
 */
import { cleanup, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { catalogueKinds, programRow } from './catalogue-factories';
import { callsTo, mockFetch, renderApp, shopReply } from './helpers';

afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
  sessionStorage.clear();
});

const rows = [
  programRow('earning.place_order', 'Orders earn points', { status: true, data: { title: 'Orders earn points', status: true, earnBy: 'order', earnPoint: 10, rateMoney: 1 }, createdAt: '2025-01-01T00:00:00.000Z' }),
  programRow('earning.sign_up', 'Welcome bonus', { status: true, data: { title: 'Welcome bonus', status: true, earnPoint: 100, startDate: '2999-01-01' }, createdAt: '2025-01-02T00:00:00.000Z' }),
  programRow('earning.sign_up', 'Spring sign-ups', { status: true, data: { title: 'Spring sign-ups', status: true, earnPoint: 50, startDate: '2020-03-01', endDate: '2020-05-31' }, createdAt: '2025-01-03T00:00:00.000Z' }),
];

const base = {
  'GET /api/shops': shopReply,
  'GET /api/kinds': { body: { data: catalogueKinds } },
  'GET /api/lp/programs/earning': { body: { data: rows } },
  'GET /api/lp/programs/spending': { body: { data: [] } },
};

const rowNames = (table: HTMLElement) => within(table).getAllByRole('row').slice(1).map((row) => within(row).getAllByRole('cell')[0]!.textContent);

describe('program tables', () => {
  it('say what each program gives and badge scheduled and expired programs', async () => {
    mockFetch(base);
    renderApp('/programs');
    const table = await screen.findByRole('table', { name: 'Programs' });
    await within(table).findByText('Orders earn points');
    expect(within(table).getByRole('columnheader', { name: 'Gives' })).toBeInTheDocument();
    const [orders, welcome, spring] = within(table).getAllByRole('row').slice(1);
    expect(orders).toHaveTextContent('10 points for every €1.00 spent');
    expect(within(orders!).getByText('Active')).toBeInTheDocument();
    expect(welcome).toHaveTextContent('100 points');
    expect(within(welcome!).getByText('Scheduled')).toBeInTheDocument();
    expect(within(spring!).getByText('Expired')).toBeInTheDocument();
  });

  it('search by title or type, and sort by name or age', async () => {
    mockFetch(base);
    renderApp('/programs');
    const table = await screen.findByRole('table', { name: 'Programs' });
    await within(table).findByText('Orders earn points');
    expect(rowNames(table)).toEqual(['Orders earn points', 'Welcome bonus', 'Spring sign-ups']);
    await userEvent.selectOptions(screen.getByRole('combobox', { name: /^Sort by/ }), 'Name Z–A');
    expect(rowNames(table)).toEqual(['Welcome bonus', 'Spring sign-ups', 'Orders earn points']);
    await userEvent.selectOptions(screen.getByRole('combobox', { name: /^Sort by/ }), 'Newest first');
    expect(rowNames(table)).toEqual(['Spring sign-ups', 'Welcome bonus', 'Orders earn points']);
    await userEvent.type(screen.getByLabelText('Search programs'), 'SIGN UP');
    expect(rowNames(table)).toEqual(['Spring sign-ups', 'Welcome bonus']);
    await userEvent.clear(screen.getByLabelText('Search programs'));
    await userEvent.type(screen.getByLabelText('Search programs'), 'nothing like it');
    expect(screen.getByText('No programs match “nothing like it”')).toBeInTheDocument();
  });

  it('shows "Place an order" unavailable, with the reason, once the shop has 10 place-order programs', async () => {
    const ten = Array.from({ length: 10 }, (_, i) => programRow('earning.place_order', `Orders ${i + 1}`, { id: `po${i}` }));
    mockFetch({ ...base, 'GET /api/lp/programs/earning': { body: { data: ten } } });
    renderApp('/programs');
    await screen.findByText('Orders 1');
    await userEvent.click(screen.getByRole('button', { name: /Add program/ }));
    const item = screen.getByRole('menuitem', { name: /Place an order/ });
    expect(item).toHaveAttribute('aria-disabled', 'true');
    expect(item).toHaveTextContent('Up to 10 place-order programs are allowed; you have 10. Delete one to add another.');
    await userEvent.click(item);
    expect(screen.getByRole('heading', { name: 'Programs', level: 1 })).toBeInTheDocument();
    expect(screen.getByRole('menuitem', { name: /Sign up/ })).not.toHaveAttribute('aria-disabled');
  });

  it('set the document title and move focus to the page heading', async () => {
    mockFetch(base);
    renderApp('/programs');
    const heading = await screen.findByRole('heading', { name: 'Programs', level: 1 });
    await waitFor(() => expect(document.title).toBe('Programs · Loyalty & Rewards'));
    expect(heading).toHaveFocus();
  });
});

describe('first-time setup (spec 000 §2)', () => {
  it('replaces the app with the setup page while the shop is not set up, and Skip setup lets it in', async () => {
    let done = false;
    const fetchMock = mockFetch({
      ...base,
      'GET /api/shops': () => {
        const reply = shopReply.body as { shop: object; shopInfo: object };
        return { body: { ...reply, shop: { ...reply.shop, setupDone: done } } };
      },
      'GET /api/setup': () => ({ body: { data: { setupDone: done, setupDoneAt: null, steps: { earning: false, redeeming: false, widgetTheme: false } } } }),
      'PUT /api/setup': () => {
        done = true;
        return { body: { data: { setupDone: true, setupDoneAt: '2026-01-01T00:00:00.000Z', steps: { earning: false, redeeming: false, widgetTheme: false } } } };
      },
      'GET /api/dashboard': { status: 500, body: { error: { code: 'x', message: 'x' } } },
      'GET /api/subscription/offers': { status: 500, body: { error: { code: 'x', message: 'x' } } },
      'GET /api/recommended-apps': { body: { data: [] } },
    });
    renderApp('/programs');
    expect(await screen.findByRole('heading', { name: 'Set up your loyalty program', level: 1 })).toBeInTheDocument();
    expect(screen.getByRole('list', { name: 'Setup steps' })).toBeInTheDocument();
    expect(screen.getByRole('radio', { name: /Place an order/ })).toBeChecked();
    await userEvent.click(screen.getByRole('button', { name: 'Skip setup' }));
    expect(await screen.findByRole('heading', { name: 'Dashboard', level: 1 })).toBeInTheDocument();
    expect(callsTo(fetchMock, 'PUT', '/api/setup')).toHaveLength(1);
  });
});
