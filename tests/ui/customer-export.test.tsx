// @vitest-environment jsdom
/**
 * The customers list's Export dialog (spec 002 §2 "Exports are emailed as CSV", §8 "Failed to
 * export customers"): the shop's e-mail as the editable recipient, checked before sending and by
 * the server at `/recipient`; "The export will be e-mailed to {email}" at once; a failed job shown
 * with its reason and Retry.
 */
import { cleanup, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { callsTo, mockFetch, renderApp, shopReply, type Handler } from './helpers';

afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
  vi.restoreAllMocks();
  sessionStorage.clear();
  localStorage.clear();
});

const job = (over: Record<string, unknown> = {}) => ({ id: 'x1', recipient: 'owner@shop.example', query: { tab: 'all' }, status: 'queued', error: null, rowCount: null, byteSize: null, delivery: null, linkExpiresAt: null, attempts: 0, createdAt: '2026-11-20T10:00:00.000Z', startedAt: null, finishedAt: null, ...over });
const LIST = 'GET /api/customers?tab=all&sort=points_desc&limit=20';
const customers = { body: { data: [], pageInfo: { hasNextPage: false, endCursor: null }, total: 0 } };

function serve(exports: () => unknown[], extra: Record<string, Handler> = {}) {
  return mockFetch({
    'GET /api/shops': shopReply,
    [LIST]: customers,
    'GET /api/customers/exports': () => ({ body: { data: exports(), defaultRecipient: 'owner@shop.example', delivery: 'outbox' } }),
    ...extra,
  });
}

async function openDialog() {
  renderApp('/customers');
  await userEvent.click(await screen.findByRole('button', { name: 'Export' }));
  const dialog = screen.getByRole('dialog');
  const field = within(dialog).getByLabelText('Send to');
  await vi.waitFor(() => expect(field).toHaveValue('owner@shop.example'));
  return { dialog, field };
}

describe('the export dialog', () => {
  it('checks the recipient before sending and shows the server’s field error', async () => {
    const fetchMock = serve(() => [], {
      'POST /api/customers/exports': { status: 422, body: { error: { code: 'validation_failed', message: 'Failed to export customers', details: [{ path: '/recipient', message: 'Enter a valid e-mail address' }] } } },
    });
    const { dialog, field } = await openDialog();
    await userEvent.clear(field);
    await userEvent.type(field, 'owner');
    await userEvent.click(within(dialog).getByRole('button', { name: 'Send export' }));
    expect(await within(dialog).findByText('Enter a valid e-mail address')).toBeInTheDocument();
    expect(field).toHaveAttribute('aria-invalid', 'true');
    expect(callsTo(fetchMock, 'POST', '/api/customers/exports')).toHaveLength(0);

    await userEvent.clear(field);
    await userEvent.type(field, 'owner@shop.example');
    await userEvent.click(within(dialog).getByRole('button', { name: 'Send export' }));
    expect(await within(dialog).findByText('Enter a valid e-mail address')).toBeInTheDocument();
    expect(callsTo(fetchMock, 'POST', '/api/customers/exports')).toHaveLength(1);
  });

  it('sends the tab and search with the recipient and says where the export goes', async () => {
    let exports: unknown[] = [];
    const fetchMock = serve(() => exports, {
      'GET /api/customers?tab=member&sort=points_desc&limit=20&search=ada': customers,
      'POST /api/customers/exports': () => {
        exports = [job({ recipient: 'books@shop.example', query: { tab: 'member', search: 'ada' } })];
        return { status: 202, body: { data: exports[0], delivery: 'outbox' } };
      },
    });
    renderApp('/customers?tab=member&search=ada');
    await userEvent.click(await screen.findByRole('button', { name: 'Export' }));
    const dialog = screen.getByRole('dialog');
    expect(within(dialog).getByText('The customers of the Member tab matching “ada”, as CSV.')).toBeInTheDocument();
    const field = within(dialog).getByLabelText('Send to');
    await vi.waitFor(() => expect(field).toHaveValue('owner@shop.example'));
    await userEvent.clear(field);
    await userEvent.type(field, 'books@shop.example');
    await userEvent.click(within(dialog).getByRole('button', { name: 'Send export' }));
    expect((await screen.findAllByText('The export will be e-mailed to books@shop.example')).length).toBeGreaterThan(0);
    expect(screen.queryByRole('dialog')).toBeNull();
    expect(callsTo(fetchMock, 'POST', '/api/customers/exports').map((c) => c.body)).toEqual([{ recipient: 'books@shop.example', tab: 'member', search: 'ada' }]);
  });

  it('shows "Failed to export customers" with the reason, and retries', async () => {
    let exports = [job({ status: 'failed', error: '550 Recipient address rejected', rowCount: 3 })];
    const fetchMock = serve(() => exports, {
      'POST /api/customers/exports/x1/retry': () => {
        exports = [job()];
        return { status: 202, body: { data: exports[0] } };
      },
    });
    renderApp('/customers');
    const alert = await screen.findByRole('alert');
    expect(within(alert).getByText('Failed to export customers')).toBeInTheDocument();
    expect(within(alert).getByText('It could not be sent to owner@shop.example: 550 Recipient address rejected')).toBeInTheDocument();
    await userEvent.click(within(alert).getByRole('button', { name: 'Retry' }));
    expect(await screen.findByText('The export will be e-mailed to owner@shop.example')).toBeInTheDocument();
    expect(callsTo(fetchMock, 'POST', '/api/customers/exports/x1/retry')).toHaveLength(1);
  });

  it('shows the start failure in the dialog', async () => {
    serve(() => [], { 'POST /api/customers/exports': { status: 409, body: { error: { code: 'export_in_progress', message: 'Failed to export customers: 3 exports are still being prepared. Please try again when one has been sent.' } } } });
    const { dialog } = await openDialog();
    await userEvent.click(within(dialog).getByRole('button', { name: 'Send export' }));
    expect(await within(dialog).findByRole('alert')).toHaveTextContent('Failed to export customers');
  });
});
