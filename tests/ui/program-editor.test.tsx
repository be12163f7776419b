// @vitest-environment jsdom
import { cleanup, fireEvent, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { join } from 'node:path';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { loadRegistry } from '../../engine/registry';
import { kindDetail, kindSummary } from './catalogue-factories';
import kinds from './fixtures/kinds.json';
import placeOrder from './fixtures/kind-place-order.json';
import earning from './fixtures/programs-earning.json';
import { callsTo, mockFetch, renderApp, shopReply, type Handler, type Reply } from './helpers';

const base: Record<string, Reply> = {
  'GET /api/shops': shopReply,
  'GET /api/kinds': { body: { data: kinds } },
  'GET /api/kinds/earning.place_order': { body: { data: placeOrder } },
  'GET /api/lp/programs/earning': { body: { data: earning } },
  'GET /api/lp/programs/p1': { body: { data: earning[0] } },
};

const saveBar = () => screen.queryByRole('region', { name: 'Unsaved changes' });

async function openNewForm(extra: Record<string, Handler> = {}) {
  const fetchMock = mockFetch({ ...base, ...extra });
  const view = renderApp('/programs/place_order/new');
  await screen.findByLabelText('Earn points');
  return { fetchMock, ...view };
}

afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
  sessionStorage.clear();
});

describe('New program form', () => {
  it('starts from the template defaults with no save bar', async () => {
    await openNewForm();
    expect(screen.getByRole('heading', { name: 'Place an order' })).toBeInTheDocument();
    expect(screen.getByLabelText('Earn points')).toHaveValue(10);
    expect(saveBar()).toBeNull();
  });

  it('raises the save bar on an edit and Discard restores the starting values', async () => {
    await openNewForm();
    const input = screen.getByLabelText('Earn points');
    await userEvent.clear(input);
    await userEvent.type(input, '25');
    expect(saveBar()).not.toBeNull();
    await userEvent.click(within(saveBar()!).getByRole('button', { name: 'Discard' }));
    expect(screen.getByLabelText('Earn points')).toHaveValue(10);
    expect(saveBar()).toBeNull();
  });

  it('hides the save bar again when an edit is undone by hand', async () => {
    await openNewForm();
    const input = screen.getByLabelText('Earn points');
    await userEvent.type(input, '5');
    expect(saveBar()).not.toBeNull();
    await userEvent.type(input, '{Backspace}');
    expect(saveBar()).toBeNull();
  });

  it('shows the server\'s 422 details on their fields', async () => {
    await openNewForm({
      'POST /api/kinds/earning.place_order/docs': {
        status: 422,
        body: {
          error: {
            code: 'validation_failed',
            message: 'Some fields need attention.',
            details: [{ path: '/earnPoint', message: 'Must be at most 100000' }, { path: '/conditions/0/content', message: 'Enter a value' }],
          },
        },
      },
    });
    await userEvent.type(screen.getByLabelText('Earn points'), '0000000');
    await userEvent.click(within(saveBar()!).getByRole('button', { name: 'Save' }));
    const earn = screen.getByLabelText('Earn points');
    await waitFor(() => expect(earn).toHaveAccessibleDescription(expect.stringContaining('Must be at most 100000')));
    expect(screen.getByLabelText('Value')).toHaveAccessibleDescription(expect.stringContaining('Enter a value'));
    expect(screen.getByRole('alert')).toHaveTextContent('Some fields need attention.');
  });

  it('drops a server error from a field once the merchant changes that field', async () => {
    await openNewForm({
      'POST /api/kinds/earning.place_order/docs': {
        status: 422,
        body: { error: { code: 'validation_failed', message: 'Invalid', details: [{ path: '/earnPoint', message: 'Too many' }] } },
      },
    });
    const earn = screen.getByLabelText('Earn points');
    await userEvent.type(earn, '0');
    await userEvent.click(within(saveBar()!).getByRole('button', { name: 'Save' }));
    await screen.findByText('Too many');
    await userEvent.type(earn, '{Backspace}');
    expect(screen.queryByText('Too many')).toBeNull();
  });

  it('checks the form in the browser before sending anything', async () => {
    const { fetchMock } = await openNewForm();
    await userEvent.clear(screen.getByLabelText('Program name'));
    await userEvent.click(within(saveBar()!).getByRole('button', { name: 'Save' }));
    expect(screen.getByLabelText('Program name')).toHaveAttribute('aria-invalid', 'true');
    expect(screen.getByLabelText('Program name')).toHaveAccessibleDescription(expect.stringContaining('This field is required'));
    expect(callsTo(fetchMock, 'POST', '/api/kinds/earning.place_order/docs')).toHaveLength(0);
  });

  it('checks the spec\'s cross-field rules in the browser and puts the message on its field', async () => {
    const withEndDate = { ...placeOrder, schema: { ...placeOrder.schema, properties: { ...placeOrder.schema.properties, endDate: { type: 'string', format: 'date', title: 'End date' } } } };
    const { fetchMock } = await openNewForm({ 'GET /api/kinds/earning.place_order': { body: { data: withEndDate } } });
    fireEvent.change(screen.getByLabelText('Start date'), { target: { value: '2026-12-10' } });
    fireEvent.change(screen.getByLabelText('End date'), { target: { value: '2026-12-01' } });
    await userEvent.click(within(saveBar()!).getByRole('button', { name: 'Save' }));
    const end = screen.getByLabelText('End date');
    await waitFor(() => expect(end).toHaveAccessibleDescription(expect.stringContaining('Start date must be before end date')));
    expect(screen.getByRole('alert')).toHaveTextContent('Fix the highlighted fields and save again.');
    expect(callsTo(fetchMock, 'POST', '/api/kinds/earning.place_order/docs')).toHaveLength(0);
  });

  it('shows a limit refusal once, as a critical banner (no toast besides it)', async () => {
    await openNewForm({
      'POST /api/kinds/earning.place_order/docs': {
        status: 409,
        body: { error: { code: 'limit.place_order_programs', message: 'Up to 10 place-order programs are allowed.' } },
      },
    });
    await userEvent.type(screen.getByLabelText('Earn points'), '5');
    await userEvent.click(within(saveBar()!).getByRole('button', { name: 'Save' }));
    expect(await screen.findByRole('alert')).toHaveTextContent('Up to 10 place-order programs are allowed.');
    expect(screen.getAllByRole('alert')).toHaveLength(1);
  });

  it('marks the field a limit names, besides the banner', async () => {
    await openNewForm({
      'POST /api/kinds/earning.place_order/docs': {
        status: 409,
        body: { error: { code: 'limit.priority_taken', message: 'Priority must be unique.', details: [{ path: '/earnPoint', message: 'Value already exists' }] } },
      },
    });
    await userEvent.type(screen.getByLabelText('Earn points'), '5');
    await userEvent.click(within(saveBar()!).getByRole('button', { name: 'Save' }));
    await waitFor(() => expect(screen.getByLabelText('Earn points')).toHaveAccessibleDescription(expect.stringContaining('Value already exists')));
    expect(screen.getAllByRole('alert')[0]).toHaveTextContent('Priority must be unique.');
  });

  it("saves a new program with its template's defaults, no change needed first", async () => {
    const { fetchMock, router } = await openNewForm({
      'POST /api/kinds/earning.place_order/docs': ({ body }) => ({
        status: 201,
        body: { data: { ...earning[0], id: 'p9', version: 1, data: (body as { data: unknown }).data } },
      }),
      'GET /api/lp/programs/p9': { body: { data: { ...earning[0], id: 'p9', version: 1 } } },
    });
    expect(saveBar()).toBeNull();
    await userEvent.click(screen.getByRole('button', { name: 'Save' }));
    expect(await screen.findByText('Program saved')).toBeInTheDocument();
    await waitFor(() => expect(router.state.location.pathname).toBe('/programs/point/p9'));
    const [post] = callsTo(fetchMock, 'POST', '/api/kinds/earning.place_order/docs');
    expect(post?.body).toMatchObject({ data: { earnPoint: 10, title: 'Place an order' } });
  });

  it('sums up what the program gives in one plain line over the form, following the edits', async () => {
    await openNewForm();
    expect(screen.getByText('Customers earn 10 points for every €100.00 spent')).toBeInTheDocument();
    const input = screen.getByLabelText('Earn points');
    await userEvent.clear(input);
    await userEvent.type(input, '25');
    expect(await screen.findByText('Customers earn 25 points for every €100.00 spent')).toBeInTheDocument();
  });

  it('saves on Enter in a field', async () => {
    const { fetchMock } = await openNewForm({
      'POST /api/kinds/earning.place_order/docs': ({ body }) => ({
        status: 201,
        body: { data: { ...earning[0], id: 'p9', version: 1, data: (body as { data: unknown }).data } },
      }),
      'GET /api/lp/programs/p9': { body: { data: { ...earning[0], id: 'p9', version: 1 } } },
    });
    await userEvent.type(screen.getByLabelText('Earn points'), '5{Enter}');
    expect(await screen.findByText('Program saved')).toBeInTheDocument();
    const [post] = callsTo(fetchMock, 'POST', '/api/kinds/earning.place_order/docs');
    expect(post?.body).toMatchObject({ data: { earnPoint: 105 } });
  });

  it('creates the program, says so, and moves to its edit page', async () => {
    const { fetchMock, router } = await openNewForm({
      'POST /api/kinds/earning.place_order/docs': ({ body }) => ({
        status: 201,
        body: { data: { ...earning[0], id: 'p9', version: 1, data: (body as { data: unknown }).data } },
      }),
      'GET /api/lp/programs/p9': { body: { data: { ...earning[0], id: 'p9', version: 1 } } },
    });
    await userEvent.type(screen.getByLabelText('Earn points'), '5');
    await userEvent.click(within(saveBar()!).getByRole('button', { name: 'Save' }));
    expect(await screen.findByText('Program saved')).toBeInTheDocument();
    await waitFor(() => expect(router.state.location.pathname).toBe('/programs/point/p9'));
    const [post] = callsTo(fetchMock, 'POST', '/api/kinds/earning.place_order/docs');
    expect(post?.body).toMatchObject({ data: { earnPoint: 105, title: 'Place an order', status: true } });
    expect(screen.queryByRole('dialog')).toBeNull();
  });

  it('asks before leaving with unsaved changes, and Stay keeps the edits', async () => {
    const { router } = await openNewForm();
    await userEvent.type(screen.getByLabelText('Earn points'), '5');
    await userEvent.click(screen.getByRole('link', { name: 'Programs' }));
    const dialog = await screen.findByRole('dialog', { name: 'Leave page with unsaved changes?' });
    expect(dialog).toHaveTextContent('Leaving page will delete all unsaved changes.');
    await userEvent.click(within(dialog).getByRole('button', { name: 'Stay' }));
    expect(router.state.location.pathname).toBe('/programs/place_order/new');
    expect(screen.getByLabelText('Earn points')).toHaveValue(105);
  });

  it('leaves when the merchant confirms', async () => {
    const { router } = await openNewForm();
    await userEvent.type(screen.getByLabelText('Earn points'), '5');
    await userEvent.click(screen.getByRole('link', { name: 'Programs' }));
    const dialog = await screen.findByRole('dialog', { name: 'Leave page with unsaved changes?' });
    await userEvent.click(within(dialog).getByRole('button', { name: 'Leave page' }));
    await waitFor(() => expect(router.state.location.pathname).toBe('/programs'));
  });

  it('starts a new streak today in the store\'s timezone even when the shop answers after the template (spec 001 §9)', async () => {
    vi.useFakeTimers({ toFake: ['Date'] });
    // Noon UTC on 24 November is already 25 November in Kiritimati (UTC+14).
    vi.setSystemTime(new Date('2026-11-24T12:00:00Z'));
    const streak = loadRegistry(join(import.meta.dirname, '../../schemas'), { only: 'earning.streak_interact_website' }).get('earning.streak_interact_website')!;
    const summary = kindSummary('earning.streak_interact_website', { title: 'Visit streak' });
    const zone = 'Pacific/Kiritimati';
    const body = shopReply.body as { shop: object; shopInfo: object };
    const served = mockFetch({
      ...base,
      'GET /api/shops': { body: { shop: { ...body.shop, ianaTimezone: zone }, shopInfo: { ...body.shopInfo, ianaTimezone: zone } } },
      'GET /api/kinds': { body: { data: [summary] } },
      'GET /api/kinds/earning.streak_interact_website': { body: { data: kindDetail(summary, streak.schema, streak.uiSchema) } },
    });
    let answerShop = () => {};
    const shopAnswered = new Promise<void>((resolve) => (answerShop = resolve));
    vi.stubGlobal('fetch', async (input: RequestInfo | URL, init?: RequestInit) => {
      if (String(input) === '/api/shops') await shopAnswered;
      return served(input, init);
    });
    try {
      renderApp('/programs/streak_interact_website/new');
      await screen.findByLabelText('Start date');
      answerShop();
      await waitFor(() => expect(screen.getByLabelText('Start date')).toHaveValue('2026-11-25'));
      expect(screen.getByLabelText('End date')).toHaveValue('2026-12-02');
    } finally {
      vi.useRealTimers();
    }
  });

  it('shows Not Found for an event with no template', async () => {
    mockFetch(base);
    renderApp('/programs/no_such_event/new');
    expect(await screen.findByRole('heading', { name: "The page you're looking for couldn't be found" })).toBeInTheDocument();
  });
});

describe('Edit program form', () => {
  it('loads the stored program and saves it with the version it read', async () => {
    const fetchMock = mockFetch({
      ...base,
      'PUT /api/kinds/earning.place_order/docs/p1': ({ body }) => ({
        body: { data: { ...earning[0], version: 4, data: (body as { data: unknown }).data } },
      }),
    });
    renderApp('/programs/point/p1');
    const name = await screen.findByLabelText('Program name');
    expect(name).toHaveValue('Orders earn points');
    await userEvent.type(name, '!');
    await userEvent.click(within(saveBar()!).getByRole('button', { name: 'Save' }));
    expect(await screen.findByText('Program saved')).toBeInTheDocument();
    const [put] = callsTo(fetchMock, 'PUT', '/api/kinds/earning.place_order/docs/p1');
    expect(put?.body).toMatchObject({ version: 3, data: { title: 'Orders earn points!' } });
    expect(saveBar()).toBeNull();
  });

  it('explains a version conflict and reloads the other editor\'s copy', async () => {
    let reads = 0;
    mockFetch({
      ...base,
      'GET /api/lp/programs/p1': () => {
        reads += 1;
        const title = reads === 1 ? 'Orders earn points' : 'Renamed elsewhere';
        return { body: { data: { ...earning[0], version: 2 + reads, data: { ...earning[0]!.data, title } } } };
      },
      'PUT /api/kinds/earning.place_order/docs/p1': {
        status: 409,
        body: { error: { code: 'version_conflict', message: 'Version conflict' } },
      },
    });
    renderApp('/programs/point/p1');
    await userEvent.type(await screen.findByLabelText('Program name'), '!');
    await userEvent.click(within(saveBar()!).getByRole('button', { name: 'Save' }));
    const banner = await screen.findByRole('alert');
    expect(banner).toHaveTextContent('Someone else saved this program. Reload to see their changes.');
    await userEvent.click(within(banner).getByRole('button', { name: 'Reload' }));
    await waitFor(() => expect(screen.getByLabelText('Program name')).toHaveValue('Renamed elsewhere'));
    expect(saveBar()).toBeNull();
  });

  it('deletes the program after confirmation and returns to the list', async () => {
    const fetchMock = mockFetch({ ...base, 'DELETE /api/kinds/earning.place_order/docs/p1': { body: { success: true } } });
    const { router } = renderApp('/programs/point/p1');
    await screen.findByLabelText('Program name');
    await userEvent.click(screen.getByRole('button', { name: 'Delete' }));
    const dialog = screen.getByRole('dialog', { name: 'Delete Orders earn points?' });
    await userEvent.click(within(dialog).getByRole('button', { name: 'Delete' }));
    await waitFor(() => expect(router.state.location.pathname).toBe('/programs'));
    expect(callsTo(fetchMock, 'DELETE', '/api/kinds/earning.place_order/docs/p1')).toHaveLength(1);
  });

  it('shows Not Found for a program that does not exist', async () => {
    mockFetch(base);
    renderApp('/programs/point/missing');
    expect(await screen.findByRole('heading', { name: "The page you're looking for couldn't be found" })).toBeInTheDocument();
  });
});
