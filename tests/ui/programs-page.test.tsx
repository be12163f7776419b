// @vitest-environment jsdom
import { cleanup, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import kinds from './fixtures/kinds.json';
import earning from './fixtures/programs-earning.json';
import { callsTo, mockFetch, renderApp, shopReply } from './helpers';

const base = {
  'GET /api/shops': shopReply,
  'GET /api/kinds': { body: { data: kinds } },
  'GET /api/lp/programs/earning': { body: { data: earning } },
  'GET /api/lp/programs/spending': { body: { data: [] } },
};

afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
  sessionStorage.clear();
});

describe('Programs page', () => {
  it('lists the earning programs with their template and status', async () => {
    mockFetch(base);
    renderApp('/programs');
    await screen.findByText('Orders earn points');
    const table = screen.getByRole('table', { name: 'Programs' });
    const [first, second] = within(table).getAllByRole('row').slice(1);
    expect(first).toHaveTextContent('Orders earn points');
    expect(first).toHaveTextContent('Place an order');
    expect(within(first!).getByText('Active')).toBeInTheDocument();
    expect(second).toHaveTextContent('Welcome bonus');
    expect(within(second!).getByText('Inactive')).toBeInTheDocument();
  });

  it('turns a program off by sending its data with status flipped and the version it read', async () => {
    const fetchMock = mockFetch({
      ...base,
      'PUT /api/kinds/earning.place_order/docs/p1': ({ body }) => ({
        body: { data: { ...earning[0], version: 4, data: (body as { data: unknown }).data } },
      }),
    });
    renderApp('/programs');
    const toggle = await screen.findByRole('switch', { name: 'Turn on Orders earn points' });
    expect(toggle).toBeChecked();
    await userEvent.click(toggle);
    await waitFor(() => expect(callsTo(fetchMock, 'PUT', '/api/kinds/earning.place_order/docs/p1')).toHaveLength(1));
    const [put] = callsTo(fetchMock, 'PUT', '/api/kinds/earning.place_order/docs/p1');
    expect(put?.body).toEqual({ data: { ...earning[0]!.data, status: false }, version: 3 });
    expect(toggle).not.toBeChecked();
    expect(await screen.findByText('Orders earn points turned off')).toBeInTheDocument();
  });

  it('rolls the toggle back and shows the server message as a banner and a toast when turning on is refused', async () => {
    mockFetch({
      ...base,
      'PUT /api/kinds/earning.sign_up/docs/p2': {
        status: 409,
        body: { error: { code: 'limit.place_order_programs', message: 'Up to 10 place-order programs are allowed.' } },
      },
    });
    renderApp('/programs');
    const toggle = await screen.findByRole('switch', { name: 'Turn on Welcome bonus' });
    await userEvent.click(toggle);
    await waitFor(() => expect(screen.getAllByRole('alert')).toHaveLength(2));
    for (const alert of screen.getAllByRole('alert')) expect(alert).toHaveTextContent('Up to 10 place-order programs are allowed.');
    expect(toggle).not.toBeChecked();
  });

  it('opens a row on click', async () => {
    mockFetch(base);
    const { router } = renderApp('/programs');
    await userEvent.click(await screen.findByText('Welcome bonus'));
    await waitFor(() => expect(router.state.location.pathname).toBe('/programs/point/p2'));
  });

  it('offers the tab\'s templates grouped by category, marks plan-gated ones and opens the chosen one', async () => {
    mockFetch(base);
    const { router } = renderApp('/programs');
    const add = await screen.findByRole('button', { name: /Add program/ });
    await waitFor(() => expect(add).toBeEnabled());
    await userEvent.click(add);
    const menu = screen.getByRole('menu');
    expect(within(menu).getByRole('group', { name: 'Place order' })).toHaveTextContent('Place an order');
    const store = within(menu).getByRole('group', { name: 'Online store' });
    expect(within(store).getByRole('menuitem', { name: /Write a review/ })).toHaveTextContent('Plan');
    expect(within(store).getByRole('menuitem', { name: /Sign up/ })).not.toHaveTextContent('Plan');
    expect(within(menu).queryByText('Amount discount')).toBeNull();
    expect(document.activeElement).toBe(within(menu).getAllByRole('menuitem')[0]);
    await userEvent.keyboard('{ArrowDown}{Enter}');
    await waitFor(() => expect(router.state.location.pathname).toBe('/programs/sign_up/new'));
  });

  it('closes the add menu on Escape and returns focus to its button', async () => {
    mockFetch(base);
    renderApp('/programs');
    const add = await screen.findByRole('button', { name: /Add program/ });
    await waitFor(() => expect(add).toBeEnabled());
    await userEvent.click(add);
    await userEvent.keyboard('{Escape}');
    expect(screen.queryByRole('menu')).toBeNull();
    expect(add).toHaveFocus();
  });

  it('deletes a program after confirmation', async () => {
    const fetchMock = mockFetch({ ...base, 'DELETE /api/kinds/earning.sign_up/docs/p2': { body: { success: true } } });
    renderApp('/programs');
    await userEvent.click(await screen.findByRole('button', { name: 'Delete Welcome bonus' }));
    const dialog = screen.getByRole('dialog', { name: 'Delete Welcome bonus?' });
    expect(dialog).toHaveTextContent("This can't be undone.");
    await userEvent.click(within(dialog).getByRole('button', { name: 'Delete' }));
    expect(await screen.findByText('Program deleted')).toBeInTheDocument();
    expect(callsTo(fetchMock, 'DELETE', '/api/kinds/earning.sign_up/docs/p2')).toHaveLength(1);
    expect(screen.queryByText('Welcome bonus')).toBeNull();
  });

  it('shows the redeem tab\'s empty state with an add action', async () => {
    mockFetch(base);
    renderApp('/programs?type=redeem');
    expect(await screen.findByRole('heading', { name: 'No redeem programs yet' })).toBeInTheDocument();
    expect(screen.getByRole('tab', { name: 'Redeem' })).toHaveAttribute('aria-selected', 'true');
  });

  it('switches tabs through the query string', async () => {
    mockFetch(base);
    const { router } = renderApp('/programs');
    await userEvent.click(await screen.findByRole('tab', { name: 'Redeem' }));
    expect(router.state.location.search).toBe('?type=redeem');
  });
});
