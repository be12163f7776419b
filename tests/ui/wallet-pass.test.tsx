// @vitest-environment jsdom
/**
 * Wallet passes in jsdom (CU10; spec 002 §2 "Wallet pass designer", "Generate pass wallet", §3
 * "Wallet pass: header, rows with left and right labels and values"): the designer draws the pass
 * from the unsaved form with a sample customer and follows every edit; the customer profile's
 * action shows the generated pass with its "Save to Google Wallet" link or its download, and says
 * what to do when the pass is not designed yet.
 */
import { cleanup, render, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { join } from 'node:path';
import { createMemoryRouter, RouterProvider } from 'react-router-dom';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { loadRegistry } from '../../engine/registry';
import { BulkWalletPassesAction, GenerateWalletPassAction } from '../../ui/areas/customers/wallet/GenerateWalletPass';
import { WalletPassPreview } from '../../ui/areas/customers/wallet/WalletPassCard';
import { storedDoc } from './catalogue-factories';
import { mockFetch, renderApp, shopReply, withStore, type Reply } from './helpers';

afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
  sessionStorage.clear();
});

const registry = loadRegistry(join(import.meta.dirname, '../..', 'schemas'));
const KIND = 'membership.wallet_pass';

/** The drawn pass's rows as [left label, left value, right label, right value]. */
const rowsOf = (pass: HTMLElement) =>
  within(pass)
    .getAllByTestId('wallet-pass-row')
    .map((row) => [...row.querySelectorAll('dt, dd')].map((el) => el.textContent));

describe('the wallet pass preview', () => {
  it('draws the header and each row from the design, filled with the sample customer', () => {
    render(
      withStore(
        <WalletPassPreview
          design={{
            header: { title: 'Acme Rewards' },
            colors: { background: '#000000', foreground: '#ffffff', label: '#cccccc' },
            rows: [
              { left: { label: 'Member', value: 'name' }, right: { label: 'Points', value: 'points' } },
              { left: { label: 'Since', value: 'member_since' }, right: { label: '', value: 'none' } },
            ],
          }}
        />,
      ),
    );
    const pass = screen.getByRole('figure', { name: 'Wallet pass: Acme Rewards' });
    expect(rowsOf(pass)).toEqual([
      ['Member', 'Alex Morgan', 'Points', '1,250'],
      ['Since', 'Mar 4, 2024', '', ''],
    ]);
    expect(pass.style.getPropertyValue('--pass-bg')).toBe('#000000');
  });
});

describe('/customers/wallet', () => {
  it('shows the form with the pass beside it, following every unsaved edit', async () => {
    mockFetch({
      'GET /api/shops': shopReply,
      'GET /api/kinds': { body: { data: registry.summaries('en') } },
      [`GET /api/kinds/${KIND}`]: { body: { data: registry.localized(KIND, 'en') } },
      [`GET /api/kinds/${KIND}/docs`]: { body: { data: [] } },
    });
    renderApp('/customers/wallet');
    const pass = await screen.findByRole('figure', { name: 'Wallet pass: Rewards card' });
    expect(rowsOf(pass)).toEqual([
      ['Member', 'Alex Morgan', 'Points', '1,250'],
      ['VIP tier', 'Gold', 'Member since', 'Mar 4, 2024'],
    ]);
    const title = screen.getByRole('textbox', { name: /^Title/ });
    await userEvent.clear(title);
    await userEvent.type(title, 'Acme Club');
    expect(await screen.findByRole('figure', { name: 'Wallet pass: Acme Club' })).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Google Wallet settings' })).toHaveAttribute('href', '/customers/wallet/google');
  });

  it('draws a saved design', async () => {
    const saved = storedDoc(KIND, {
      header: { title: 'Saved card' },
      colors: { background: '#112233', foreground: '#ffffff', label: '#aabbcc' },
      rows: [{ left: { label: 'Code', value: 'referral_code' }, right: { label: 'Lifetime', value: 'lifetime_points' } }],
    });
    mockFetch({
      'GET /api/shops': shopReply,
      'GET /api/kinds': { body: { data: registry.summaries('en') } },
      [`GET /api/kinds/${KIND}`]: { body: { data: registry.localized(KIND, 'en') } },
      [`GET /api/kinds/${KIND}/docs`]: { body: { data: [saved] } },
    });
    renderApp('/customers/wallet');
    expect(rowsOf(await screen.findByRole('figure', { name: 'Wallet pass: Saved card' }))).toEqual([['Code', 'ALEX2024', 'Lifetime', '3,400']]);
  });
});

describe('Generate wallet pass on the customer profile', () => {
  const pass = {
    header: { title: 'Acme Rewards', logo: null },
    colors: { background: '#1f2a44', foreground: '#ffffff', label: '#aeb9d6' },
    rows: [{ left: { label: 'Member', field: 'name', value: 'Ana Diaz' }, right: { label: 'Points', field: 'points', value: '1,250' } }],
    customerId: '42',
    accountName: 'Ana Diaz',
    points: 1250,
  };
  const mount = (reply: Reply) => {
    const fetchMock = mockFetch({ 'POST /api/customers/42/wallet-pass': reply });
    const router = createMemoryRouter([{ path: '*', element: <GenerateWalletPassAction customerId="42" /> }]);
    render(withStore(<RouterProvider router={router} />));
    return fetchMock;
  };

  it('shows the pass and its download when Google Wallet is not connected', async () => {
    vi.stubGlobal('URL', Object.assign(URL, { createObjectURL: vi.fn(() => 'blob:pass'), revokeObjectURL: vi.fn() }));
    mount({ body: { data: { pass, provider: 'local', saveUrl: null, file: { filename: 'wallet-pass-42.svg', mediaType: 'image/svg+xml', base64: btoa('<svg/>') } } } });
    await userEvent.click(screen.getByRole('button', { name: 'Generate wallet pass' }));
    const card = await screen.findByRole('figure', { name: 'Wallet pass: Acme Rewards' });
    expect(rowsOf(card)).toEqual([['Member', 'Ana Diaz', 'Points', '1,250']]);
    const download = await screen.findByRole('link', { name: 'Download pass' });
    expect(download).toHaveAttribute('download', 'wallet-pass-42.svg');
    expect(download).toHaveAttribute('href', 'blob:pass');
    expect(screen.getByText('Google Wallet is not connected: the pass is an image to download.')).toBeInTheDocument();
  });

  it('offers Save to Google Wallet with the signed link', async () => {
    const saveUrl = 'https://pay.google.com/gp/v/save/aaa.bbb.ccc';
    mount({ body: { data: { pass, provider: 'google', saveUrl, file: null } } });
    await userEvent.click(screen.getByRole('button', { name: 'Generate wallet pass' }));
    expect(await screen.findByRole('link', { name: 'Save to Google Wallet' })).toHaveAttribute('href', saveUrl);
    expect(screen.queryByRole('link', { name: 'Download pass' })).toBeNull();
  });

  it('says to design the pass first, with the way to the designer', async () => {
    mount({ status: 409, body: { error: { code: 'wallet_pass_not_designed', message: 'Design the wallet pass first (Customers › Wallet pass)' } } });
    await userEvent.click(screen.getByRole('button', { name: 'Generate wallet pass' }));
    expect(await screen.findByText('Design the wallet pass first.')).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Wallet pass design' })).toHaveAttribute('href', '/customers/wallet');
  });
});

describe('the customers list action "Generate wallet passes" (spec 002 §2)', () => {
  const filled = (name: string) => ({
    header: { title: 'Acme Rewards', logo: null },
    colors: { background: '#1f2a44', foreground: '#ffffff', label: '#aeb9d6' },
    rows: [{ left: { label: 'Member', field: 'name', value: name }, right: { label: 'Points', field: 'points', value: '10' } }],
  });
  const customers = [
    { id: '1', label: 'Ana Diaz', email: 'ana@example.com' },
    { id: '2', label: '=cmd|x', email: 'eve@example.com' },
    { id: '3', label: 'Gone Customer', email: 'gone@example.com' },
  ];
  const mount = (reply: Reply) => {
    const fetchMock = mockFetch({ 'POST /api/customers/wallet-passes': reply });
    const router = createMemoryRouter([{ path: '*', element: <BulkWalletPassesAction customers={customers} /> }]);
    render(withStore(<RouterProvider router={router} />));
    return fetchMock;
  };

  it('lists each selected customer with their Google Wallet link, offers the links as a CSV and names a customer that is gone', async () => {
    const blobs: Blob[] = [];
    vi.stubGlobal('URL', Object.assign(URL, { createObjectURL: vi.fn((blob: Blob) => (blobs.push(blob), `blob:${blobs.length}`)), revokeObjectURL: vi.fn() }));
    const link = (id: string) => `https://pay.google.com/gp/v/save/jwt-${id}`;
    const fetchMock = mount({
      body: {
        data: [
          { customerId: '1', error: null, answer: { pass: filled('Ana Diaz'), provider: 'google', saveUrl: link('1'), file: null } },
          { customerId: '2', error: null, answer: { pass: filled('Eve'), provider: 'google', saveUrl: link('2'), file: null } },
          { customerId: '3', error: 'not_found', answer: null },
        ],
      },
    });
    await userEvent.click(screen.getByRole('button', { name: 'Generate wallet passes' }));
    const dialog = await screen.findByRole('dialog', { name: 'Wallet passes for 3 customers' });
    const list = await within(dialog).findByRole('list', { name: 'Generated passes' });
    const lines = within(list).getAllByRole('listitem');
    expect(lines.map((li) => li.textContent)).toEqual(['Ana DiazSave to Google Wallet', '=cmd|xSave to Google Wallet', 'Gone CustomerNo longer a customer']);
    expect(within(lines[0]!).getByRole('link', { name: 'Save to Google Wallet' })).toHaveAttribute('href', link('1'));
    const csv = within(dialog).getByRole('link', { name: 'Download the links (CSV)' });
    expect(csv).toHaveAttribute('download', 'wallet-pass-links.csv');
    const text = await blobs.at(-1)!.text();
    // A name that starts like a formula is made inert; the gone customer has no line.
    expect(text.replace(/^\ufeff/, '').split('\r\n')).toEqual(['"Email","Name","Google Wallet link"', `"ana@example.com","Ana Diaz","${link('1')}"`, `"eve@example.com","'=cmd|x","${link('2')}"`, '']);
    const [, init] = fetchMock.mock.calls.find(([url]) => String(url).endsWith('/api/customers/wallet-passes'))!;
    expect(JSON.parse(String((init as RequestInit).body))).toEqual({ ids: ['1', '2', '3'] });
  });

  it('offers each pass image without Google Wallet, and no CSV', async () => {
    vi.stubGlobal('URL', Object.assign(URL, { createObjectURL: vi.fn(() => 'blob:pass'), revokeObjectURL: vi.fn() }));
    const file = (id: string) => ({ filename: `wallet-pass-${id}.svg`, mediaType: 'image/svg+xml', base64: btoa('<svg/>') });
    mount({ body: { data: [{ customerId: '1', error: null, answer: { pass: filled('Ana Diaz'), provider: 'local', saveUrl: null, file: file('1') } }] } });
    await userEvent.click(screen.getByRole('button', { name: 'Generate wallet passes' }));
    const download = await screen.findByRole('link', { name: 'Download pass' });
    expect(download).toHaveAttribute('download', 'wallet-pass-1.svg');
    expect(screen.queryByRole('link', { name: 'Download the links (CSV)' })).toBeNull();
    expect(screen.getByText('Google Wallet is not connected: the pass is an image to download.')).toBeInTheDocument();
  });

  it('says to design the pass first', async () => {
    mount({ status: 409, body: { error: { code: 'wallet_pass_not_designed', message: 'Design the wallet pass first (Customers › Wallet pass)' } } });
    await userEvent.click(screen.getByRole('button', { name: 'Generate wallet passes' }));
    expect(await screen.findByText('Design the wallet pass first.')).toBeInTheDocument();
  });
});
