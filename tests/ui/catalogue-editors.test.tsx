// @vitest-environment jsdom
import { cleanup, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { JsonObject } from '../../engine/types';
import { catalogueKinds, dealKind, partnerKind, referralProgramKind, storedDoc, tierKind, tierSettingsKind } from './catalogue-factories';
import { callsTo, mockFetch, renderApp, shopReply, type Handler } from './helpers';

function serve(extra: Record<string, Handler>) {
  return mockFetch({
    'GET /api/shops': shopReply,
    'GET /api/kinds': { body: { data: catalogueKinds } },
    ...extra,
  });
}

const saveBar = () => screen.getByRole('region', { name: 'Unsaved changes' });
const dataOf = (body: unknown) => (body as { data: JsonObject }).data;

afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
  sessionStorage.clear();
});

describe('Referral program page', () => {
  it('creates the program with POST the first time, then saves changes with PUT and the version it got back', async () => {
    const fetchMock = serve({
      'GET /api/kinds/referral.program': { body: { data: referralProgramKind } },
      'GET /api/kinds/referral.program/docs': { body: { data: [] } },
      'POST /api/kinds/referral.program/docs': ({ body }) => ({ status: 201, body: { data: storedDoc('referral.program', dataOf(body), { id: 'r1' }) } }),
      'PUT /api/kinds/referral.program/docs/r1': ({ body }) => ({ body: { data: storedDoc('referral.program', dataOf(body), { id: 'r1', version: 2 }) } }),
    });
    renderApp('/programs/referral');
    const title = await screen.findByLabelText('Title');
    await userEvent.clear(title);
    await userEvent.type(title, 'Invite friends');
    await userEvent.click(within(saveBar()).getByRole('button', { name: 'Save' }));
    expect(await screen.findByText('Saved')).toBeInTheDocument();
    expect(callsTo(fetchMock, 'POST', '/api/kinds/referral.program/docs').map((call) => call.body)).toEqual([
      { data: { title: 'Invite friends', description: '', status: false } },
    ]);

    await userEvent.type(screen.getByLabelText('Description'), 'Give 10%');
    await userEvent.click(within(saveBar()).getByRole('button', { name: 'Save' }));
    await waitFor(() => expect(callsTo(fetchMock, 'PUT', '/api/kinds/referral.program/docs/r1')).toHaveLength(1));
    expect(callsTo(fetchMock, 'PUT', '/api/kinds/referral.program/docs/r1')[0]?.body).toEqual({
      data: { title: 'Invite friends', description: 'Give 10%', status: false },
      version: 1,
    });
    expect(callsTo(fetchMock, 'POST', '/api/kinds/referral.program/docs')).toHaveLength(1);
  });

  it('offers a reload when the program was created elsewhere first', async () => {
    serve({
      'GET /api/kinds/referral.program': { body: { data: referralProgramKind } },
      'GET /api/kinds/referral.program/docs': { body: { data: [] } },
      'POST /api/kinds/referral.program/docs': {
        status: 409,
        body: { error: { code: 'singleton_exists', message: 'Referral program already exists for this shop; edit it instead.' } },
      },
    });
    renderApp('/programs/referral');
    await userEvent.type(await screen.findByLabelText('Description'), 'x');
    await userEvent.click(within(saveBar()).getByRole('button', { name: 'Save' }));
    // Shown once: the banner with its Reload, no toast besides.
    const banner = await screen.findByRole('alert');
    expect(banner).toHaveClass('banner');
    expect(screen.getAllByRole('alert')).toHaveLength(1);
    expect(banner).toHaveTextContent('Referral program already exists for this shop; edit it instead.');
    expect(within(banner).getByRole('button', { name: 'Reload' })).toBeInTheDocument();
  });
});

describe('VIP Tiers screen', () => {
  const settings = storedDoc('tier.settings', { general: { status: false }, design: { cardColor: '#5c6ac4' } }, { id: 's1', version: 3 });
  const routes = {
    'GET /api/kinds/tier.settings': { body: { data: tierSettingsKind } },
    'GET /api/kinds/tier.settings/docs': { body: { data: [settings] } },
    'GET /api/kinds/tier.tier/docs': { body: { data: [storedDoc('tier.tier', { name: 'Bronze', entryRequirement: 0 })] } },
  };

  it('shows only the selected tab\'s settings', async () => {
    serve(routes);
    renderApp('/membership/vip');
    expect(await screen.findByRole('switch', { name: 'VIP tiers on' })).toBeInTheDocument();
    expect(screen.queryByLabelText('Card color')).toBeNull();
    await userEvent.click(screen.getByRole('tab', { name: 'Design' }));
    expect(await screen.findByLabelText('Card color')).toHaveValue('#5c6ac4');
    expect(screen.queryByRole('switch', { name: 'VIP tiers on' })).toBeNull();
  });

  it('keeps edits from several tabs under one save bar and saves the whole document once', async () => {
    const fetchMock = serve({
      ...routes,
      'PUT /api/kinds/tier.settings/docs/s1': ({ body }) => ({ body: { data: storedDoc('tier.settings', dataOf(body), { id: 's1', version: 4 }) } }),
    });
    renderApp('/membership/vip');
    await userEvent.click(await screen.findByRole('switch', { name: 'VIP tiers on' }));
    await userEvent.click(screen.getByRole('tab', { name: 'Design' }));
    const color = await screen.findByLabelText('Card color');
    await userEvent.clear(color);
    await userEvent.type(color, '#111111');
    expect(screen.queryByRole('dialog')).toBeNull();
    await userEvent.click(within(saveBar()).getByRole('button', { name: 'Save' }));
    await waitFor(() => expect(callsTo(fetchMock, 'PUT', '/api/kinds/tier.settings/docs/s1')).toHaveLength(1));
    expect(callsTo(fetchMock, 'PUT', '/api/kinds/tier.settings/docs/s1')[0]?.body).toEqual({
      data: { general: { status: true }, design: { cardColor: '#111111' } },
      version: 3,
    });
  });

  it('lists the tiers on the Tiers tab with a way to create one', async () => {
    serve(routes);
    renderApp('/membership/vip?tab=tiers');
    const table = await screen.findByRole('table', { name: 'VIP tiers' });
    expect(await within(table).findByText('Bronze')).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Create tier' })).toHaveAttribute('href', '/programs/tier/create');
  });

  it('names an error on another tab in the banner', async () => {
    serve({
      ...routes,
      'PUT /api/kinds/tier.settings/docs/s1': {
        status: 422,
        body: { error: { code: 'validation_failed', message: 'Some fields need attention', details: [{ path: '/design/cardColor', message: 'Enter a color as #RRGGBB' }] } },
      },
    });
    renderApp('/membership/vip');
    await userEvent.click(await screen.findByRole('switch', { name: 'VIP tiers on' }));
    await userEvent.click(within(saveBar()).getByRole('button', { name: 'Save' }));
    expect(await screen.findByRole('alert')).toHaveTextContent('Design: Enter a color as #RRGGBB');
  });
});

describe('Tier pages', () => {
  const gold = storedDoc('tier.tier', { name: 'Gold', entryRequirement: 500, color: '#d4a017', entryReward: { earnPoint: 0 }, perks: [] }, { id: 't1', version: 2 });

  it('shows a tier\'s entry reward and perks only, and saves the whole tier', async () => {
    const fetchMock = serve({
      'GET /api/kinds/tier.tier': { body: { data: tierKind } },
      'GET /api/kinds/tier.tier/docs/t1': { body: { data: gold } },
      'PUT /api/kinds/tier.tier/docs/t1': ({ body }) => ({ body: { data: storedDoc('tier.tier', dataOf(body), { id: 't1', version: 3 }) } }),
    });
    renderApp('/membership/tier-reward/t1');
    const points = await screen.findByLabelText('Bonus points on entering the tier');
    expect(screen.queryByLabelText('Tier name')).toBeNull();
    await userEvent.clear(points);
    await userEvent.type(points, '250');
    await userEvent.click(within(saveBar()).getByRole('button', { name: 'Save' }));
    await waitFor(() => expect(callsTo(fetchMock, 'PUT', '/api/kinds/tier.tier/docs/t1')).toHaveLength(1));
    expect(callsTo(fetchMock, 'PUT', '/api/kinds/tier.tier/docs/t1')[0]?.body).toEqual({
      data: { ...gold.data, entryReward: { earnPoint: 250 } },
      version: 2,
    });
  });

  it('shows Not Found for a tier id the shop does not have', async () => {
    serve({
      'GET /api/kinds/tier.tier/docs/nope': { status: 404, body: { error: { code: 'not_found', message: 'This document does not exist or was deleted' } } },
    });
    renderApp('/programs/tier/nope');
    expect(await screen.findByRole('heading', { name: "The page you're looking for couldn't be found" })).toBeInTheDocument();
  });

  it('opens any document by id on /programs/edit-settings/:id', async () => {
    serve({
      'GET /api/lp/programs/t1': { status: 404, body: { error: { code: 'not_found', message: 'This program does not exist or was deleted' } } },
      ...Object.fromEntries(
        catalogueKinds
          .filter((kind) => kind.family !== 'earning' && kind.family !== 'redeem')
          .map((kind) => [`GET /api/kinds/${kind.id}/docs`, { body: { data: kind.id === 'tier.tier' ? [gold] : [] } }]),
      ),
      'GET /api/kinds/tier.tier': { body: { data: tierKind } },
    });
    renderApp('/programs/edit-settings/t1');
    expect(await screen.findByLabelText('Tier name')).toHaveValue('Gold');
    expect(screen.getByRole('heading', { name: 'Gold' })).toBeInTheDocument();
  });
});

describe('Plan gates on editors', () => {
  it('shows a 403 plan_gate refusal once, as a banner (no toast besides it)', async () => {
    const message = 'Member exclusive deals are available on the Advanced plan. This shop is on Essential.';
    serve({
      'GET /api/kinds/membership.exclusive_deal': { body: { data: dealKind } },
      'POST /api/kinds/membership.exclusive_deal/docs': { status: 403, body: { error: { code: 'plan_gate', message } } },
    });
    renderApp('/membership/exclusive-deal/new');
    await userEvent.type(await screen.findByLabelText('Deal name'), 'VIP 10% off');
    await userEvent.type(screen.getByLabelText('Discount value'), '10');
    await userEvent.click(within(saveBar()).getByRole('button', { name: 'Save' }));
    expect(await screen.findByRole('alert')).toHaveTextContent(message);
    expect(screen.getAllByRole('alert')).toHaveLength(1);
  });

  it('shows the exclusive deal design on its own tab', async () => {
    serve({ 'GET /api/kinds/membership.exclusive_deal': { body: { data: dealKind } } });
    renderApp('/membership/exclusive-deal/new');
    await screen.findByLabelText('Deal name');
    expect(screen.queryByLabelText('Button color')).toBeNull();
    await userEvent.click(screen.getByRole('tab', { name: 'Design' }));
    expect(await screen.findByLabelText('Button color')).toHaveValue('#000000');
    expect(screen.queryByLabelText('Deal name')).toBeNull();
  });

  it('shows the partner tier gate with the unlock plan and reason, and keeps Save off', async () => {
    serve({ 'GET /api/kinds/tier.partner': { body: { data: partnerKind } } });
    renderApp('/wholesale/vip/new');
    await userEvent.type(await screen.findByLabelText('Tier name'), 'Wholesale');
    const banner = screen.getByRole('alert');
    expect(banner).toHaveTextContent('Available on Shopify Plus');
    expect(banner).toHaveTextContent('partner_tier needs the Shopify Plus plan; this shop is on Essential.');
    expect(within(saveBar()).getByRole('button', { name: 'Save' })).toBeDisabled();
  });
});
