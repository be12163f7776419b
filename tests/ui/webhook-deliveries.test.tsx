// @vitest-environment jsdom
/** The webhook deliveries screen (issue 14): dead letters, retry, reconciliation, and its states. */
import { cleanup, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { DEFAULT_SETTINGS } from '../../server/services/settings';
import { repoRegistry } from '../support/app';
import { callsTo, mockFetch, renderApp, shopReply } from './helpers';

afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
  vi.restoreAllMocks();
  sessionStorage.clear();
});

const delivery = (over: Record<string, unknown> = {}) => ({
  id: 'd1',
  topic: 'orders/create',
  orderKey: '5000000000000000001',
  status: 'done',
  attempts: 1,
  receivedAt: '2026-06-15T12:00:00.000Z',
  finishedAt: '2026-06-15T12:00:01.000Z',
  lastError: null,
  result: null,
  ...over,
});
const LIST = 'GET /api/webhook-deliveries?limit=200';
const DEAD = 'GET /api/webhook-deliveries?limit=200&status=dead';

describe('webhook deliveries screen', () => {
  it('lists deliveries with their status and shows the last error of a failed one', async () => {
    mockFetch({ 'GET /api/shops': shopReply, [LIST]: { body: { data: [delivery(), delivery({ id: 'd2', status: 'dead', topic: 'refunds/create', attempts: 8, lastError: 'database busy' })] } } });
    renderApp('/settings/webhooks');
    const table = await screen.findByRole('table', { name: 'Webhook deliveries' });
    await within(table).findByText('Order placed'); // after the skeleton rows
    const rows = within(table).getAllByRole('row');
    expect(rows).toHaveLength(3);
    expect(rows[1]).toHaveTextContent('Order placed');
    expect(rows[1]).toHaveTextContent('Processed');
    expect(rows[2]).toHaveTextContent('Refund');
    expect(rows[2]).toHaveTextContent('Last error: database busy');
    expect(within(rows[2]!).getByRole('button', { name: 'Retry the delivery for order 5000000000000000001' })).toBeInTheDocument();
    expect(within(rows[1]!).queryByRole('button')).toBeNull();
  });

  it('retries a failed delivery and reloads the list', async () => {
    let dead = [delivery({ status: 'dead', attempts: 8, lastError: 'boom' })];
    const fetchMock = mockFetch({
      'GET /api/shops': shopReply,
      [DEAD]: () => ({ body: { data: dead } }),
      'POST /api/webhook-deliveries/d1/retry': () => {
        dead = [];
        return { body: { success: true, message: 'Delivery queued again' } };
      },
    });
    renderApp('/settings/webhooks?status=dead');
    await userEvent.click(await screen.findByRole('button', { name: /Retry the delivery/ }));
    expect(await screen.findByText('Delivery queued again')).toBeInTheDocument();
    expect(await screen.findByRole('heading', { name: 'No failed deliveries' })).toBeInTheDocument();
    expect(callsTo(fetchMock, 'POST', '/api/webhook-deliveries/d1/retry')).toHaveLength(1);
  });

  it('checks recent orders over the chosen window and reports what it queued', async () => {
    const fetchMock = mockFetch({
      'GET /api/shops': shopReply,
      [LIST]: { body: { data: [] } },
      'POST /api/webhook-deliveries/reconcile': { body: { data: { since: 'x', checked: 12, missing: {}, queued: 3, skipped: 0, truncated: false } } },
    });
    renderApp('/settings/webhooks');
    expect(await screen.findByRole('heading', { name: 'No deliveries yet' })).toBeInTheDocument();
    await userEvent.selectOptions(screen.getByRole('combobox', { name: 'Look back' }), 'Last 7 days');
    await userEvent.click(screen.getByRole('button', { name: 'Check orders' }));
    expect(await screen.findByText('Orders checked: 12. Queued for points: 3.')).toBeInTheDocument();
    expect(callsTo(fetchMock, 'POST', '/api/webhook-deliveries/reconcile')[0]?.body).toEqual({ sinceHours: 168 });
  });

  it("shows the platform's refusal when the check fails, and a reload on a failed list", async () => {
    mockFetch({
      'GET /api/shops': shopReply,
      [LIST]: { status: 500, body: { error: { code: 'internal', message: 'Database unavailable' } } },
      'POST /api/webhook-deliveries/reconcile': { status: 502, body: { error: { code: 'platform_unavailable', message: 'The platform could not be reached: fetch failed' } } },
    });
    renderApp('/settings/webhooks');
    expect(await screen.findByText('Could not load webhook deliveries')).toBeInTheDocument();
    expect(screen.getAllByRole('button', { name: 'Reload' }).length).toBeGreaterThan(0);
    await userEvent.click(screen.getByRole('button', { name: 'Check orders' }));
    expect(await screen.findByText('Could not check recent orders')).toBeInTheDocument();
    expect(screen.getByText('The platform could not be reached: fetch failed')).toBeInTheDocument();
  });

  it('is reached from Settings', async () => {
    // The settings screen reads the settings.shop kind and the shop's settings before it shows its sections.
    const settingsKind = repoRegistry().localized('settings.shop', 'en');
    mockFetch({
      'GET /api/shops': shopReply,
      [LIST]: { body: { data: [] } },
      'GET /api/kinds/settings.shop': { body: { data: settingsKind } },
      'GET /api/settings': { body: { data: DEFAULT_SETTINGS } },
      'GET /api/settings/developers/credentials': { body: { data: { appId: 'app-1', secretKeySet: false, secretKeyCreatedAt: null } } },
    });
    renderApp('/settings');
    await userEvent.click(await screen.findByRole('link', { name: 'Webhook deliveries' }));
    expect(await screen.findByRole('heading', { level: 1, name: 'Webhook deliveries' })).toBeInTheDocument();
  });
});

describe('storefront visits in the deliveries list', () => {
  it('leaves them out by default and lists them, named, once the merchant asks', async () => {
    const fetchMock = mockFetch({
      'GET /api/shops': shopReply,
      [LIST]: { body: { data: [delivery()] } },
      [`${LIST}&source=all`]: { body: { data: [delivery({ id: 'v1', topic: 'loyalty/visit', orderKey: 'customer:77' }), delivery()] } },
    });
    renderApp('/settings/webhooks');
    const table = await screen.findByRole('table', { name: 'Webhook deliveries' });
    await within(table).findByText('Order placed');
    expect(within(table).queryByText('Storefront visit')).toBeNull();
    await userEvent.click(screen.getByRole('checkbox', { name: 'Include storefront visits (failed ones always show)' }));
    const withVisits = await screen.findByRole('table', { name: 'Webhook deliveries' });
    expect(await within(withVisits).findByText('Storefront visit')).toBeInTheDocument();
    // A customer's delivery names the customer, not its internal key.
    expect(within(withVisits).getByText('Customer 77')).toBeInTheDocument();
    expect(callsTo(fetchMock, 'GET', '/api/webhook-deliveries?limit=200&source=all')).toHaveLength(1);
  });
});
