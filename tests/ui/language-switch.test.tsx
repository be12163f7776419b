// @vitest-environment jsdom
import { act, cleanup, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { ShopSettings } from '../../ui/api/endpoints';
import { applyLanguage } from '../../ui/i18n';
import en from '../../ui/i18n/en.json';
import fr from '../../ui/i18n/fr.json';
import de from '../../ui/i18n/de.json';
import { languageStorageKey } from '../../ui/state/language';
import placeOrder from './fixtures/kind-place-order.json';
import earning from './fixtures/programs-earning.json';
import { callsTo, mockFetch, renderApp, shopReply, type Handler } from './helpers';

/** The place-order kind as `?language=fr` serves it: the same schema with French labels. */
const placeOrderFr = structuredClone(placeOrder);
placeOrderFr.title = 'Passer une commande';
placeOrderFr.schema.properties.earnPoint.title = 'Points gagnés';

/** `GET /api/shops` with the shop's settings (spec 000 §3 Shop.settings). */
function shopWith(settings: ShopSettings) {
  const body = shopReply.body as { shop: object; shopInfo: object };
  return { body: { ...body, shop: { ...body.shop, settings } } };
}

const SHOP_ID = 's1';
const storedLanguage = () => localStorage.getItem(languageStorageKey(SHOP_ID));

function openProgram({ settings = { primaryLanguageInApp: 'en', isShowSettingLanguage: true }, save }: { settings?: ShopSettings; save?: Handler } = {}) {
  const fetchMock = mockFetch({
    'GET /api/shops': shopWith(settings),
    'GET /api/lp/programs/p1': { body: { data: earning[0] } },
    'GET /api/kinds/earning.place_order': { body: { data: placeOrder } },
    'GET /api/kinds/earning.place_order?language=fr': { body: { data: placeOrderFr } },
    'GET /api/kinds/earning.place_order?language=de': { body: { data: placeOrder } },
    'GET /api/rules/catalog': { body: { data: { fields: [], operators: [] } } },
    'GET /api/rules/catalog?language=fr': { body: { data: { fields: [], operators: [] } } },
    'POST /api/lp/settings': save ?? (({ body }) => ({ body: { settings: { ...settings, ...(body as object) } } })),
  });
  return { fetchMock, ...renderApp('/programs/point/p1') };
}

/** The header's language switcher once the shop has loaded. */
const switcher = (name = en['language.label']) => screen.findByRole('combobox', { name });

afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
  sessionStorage.clear();
  localStorage.clear();
  // i18next is one instance per test file: start every test in English.
  act(() => applyLanguage('en'));
});

describe('language switcher in page headers', () => {
  it('lists the in-app languages by their own names, each marked with its language', async () => {
    openProgram();
    const options = within(await switcher()).getAllByRole('option');
    expect(options.map((option) => [option.textContent, option.getAttribute('lang')])).toEqual([
      ['English', 'en'],
      ['English (US)', 'en-US'],
      ['Français', 'fr'],
      ['Español', 'es'],
      ['Deutsch', 'de'],
      ['Italiano', 'it'],
      ['日本語', 'ja'],
      ['Bahasa Indonesia', 'id'],
    ]);
  });

  it('switches the chrome and the form labels to French at once, keeping unsaved edits', async () => {
    openProgram();
    const earn = await screen.findByLabelText('Earn points');
    await userEvent.clear(earn);
    await userEvent.type(earn, '25');

    await userEvent.selectOptions(await switcher(), 'Français');

    // The French catalog is fetched on first use (ui/i18n), then everything switches together.
    expect(await screen.findByRole('link', { name: fr['nav.programs'] })).toBeInTheDocument();
    expect(screen.getByRole('region', { name: fr['saveBar.message'] })).toBeInTheDocument();
    expect(screen.getByRole('combobox', { name: fr['language.label'] })).toHaveValue('fr');
    expect(await screen.findByLabelText('Points gagnés')).toHaveValue(25);
    // Text the form's own templates draw follows too, not only the labels the server translates.
    expect(screen.getByRole('button', { name: `+ ${fr['form.add']}` })).toBeInTheDocument();
    expect(document.documentElement.lang).toBe('fr');
  });

  it('saves the choice as primaryLanguageInApp and keeps it on this browser under the shop id', async () => {
    const { fetchMock } = openProgram();
    await userEvent.selectOptions(await switcher(), 'Deutsch');
    await waitFor(() => expect(callsTo(fetchMock, 'POST', '/api/lp/settings').map((call) => call.body)).toEqual([{ primaryLanguageInApp: 'de' }]));
    expect(storedLanguage()).toBe('de');
    expect(await screen.findByText(de['language.changed'].replace('{language}', 'Deutsch'))).toBeInTheDocument();
  });

  it('shows "Failed to save language" when the save fails, and stays in the chosen language', async () => {
    openProgram({ save: { status: 500, body: { error: { code: 'internal', message: 'Internal error' } } } });
    await userEvent.selectOptions(await switcher(), 'Français');
    expect(await screen.findByRole('alert')).toHaveTextContent(fr['language.saveFailed']);
    expect(screen.getByRole('link', { name: fr['nav.programs'] })).toBeInTheDocument();
    expect(storedLanguage()).toBe('fr');
  });

  it('reads English for en-US and asks the server for English labels', async () => {
    const { fetchMock } = openProgram();
    await userEvent.selectOptions(await switcher(), 'English (US)');
    expect(screen.getByRole('link', { name: en['nav.programs'] })).toBeInTheDocument();
    expect(screen.getByLabelText('Earn points')).toBeInTheDocument();
    expect(document.documentElement.lang).toBe('en-US');
    const asked = fetchMock.mock.calls.map(([input]) => String(input));
    expect(asked.filter((path) => path.includes('language='))).toEqual([]);
  });

  it('starts in the language the shop saved', async () => {
    openProgram({ settings: { primaryLanguageInApp: 'fr', isShowSettingLanguage: true } });
    expect(await screen.findByLabelText('Points gagnés')).toBeInTheDocument();
    expect(screen.getByRole('link', { name: fr['nav.programs'] })).toBeInTheDocument();
  });

  it("prefers this browser's choice for the shop over the shop's saved language", async () => {
    localStorage.setItem(languageStorageKey(SHOP_ID), 'de');
    openProgram({ settings: { primaryLanguageInApp: 'fr', isShowSettingLanguage: true } });
    expect(await switcher(de['language.label'])).toHaveValue('de');
    expect(screen.getByRole('link', { name: de['nav.programs'] })).toBeInTheDocument();
  });

  it('is absent when the shop turned isShowSettingLanguage off', async () => {
    openProgram({ settings: { primaryLanguageInApp: 'en', isShowSettingLanguage: false } });
    expect(await screen.findByText('Demo Shop')).toBeInTheDocument();
    expect(await screen.findByLabelText('Earn points')).toBeInTheDocument();
    expect(screen.queryByRole('combobox', { name: en['language.label'] })).toBeNull();
  });
});
