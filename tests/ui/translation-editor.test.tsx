// @vitest-environment jsdom
/**
 * The translation editor in jsdom (issue 13; spec 001 §2, §4, §5): search over label, key, current
 * and default text (any case), the variant's tabs and the language tabs following the URL, the
 * `field` parameter focusing its input, the placeholder rule refused on its field (before the call,
 * and from the server's field path), a save with the spec's message, program names through the
 * documents API, and Save turned off with `?trial`; and /translations saving the languages.
 */
import { cleanup, render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { createStore, Provider } from 'jotai';
import { createMemoryRouter, RouterProvider } from 'react-router-dom';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { translationAnswer } from '../../server/routes/translations';
import { loadTranslationCatalog, type TranslationSettings } from '../../server/services/translations';
import { SESSION_TOKEN_KEY } from '../../ui/api/session';
import { ToastRegion } from '../../ui/components/ToastRegion';
import { fieldInputId, TranslationEditorPage } from '../../ui/areas/translations/TranslationEditorPage';
import { TranslationsPage } from '../../ui/areas/translations/TranslationsPage';
import { callsTo, mockFetch, type Handler } from './helpers';

afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
  sessionStorage.clear();
});

const catalog = loadTranslationCatalog();
const SETTINGS: TranslationSettings = { primaryLanguage: 'en', detectMethod: 'browser_language', additionalLanguages: ['fr'], content: { fr: { 'widget-design': { 'panel.title': 'Mes avantages' } } } };
const answer = (type: string, data: TranslationSettings = SETTINGS) => translationAnswer(catalog, { data, version: 3 }, catalog.byId.get(type));
const PROGRAM = { id: 'p1', kind: 'earning.sign_up', schemaVersion: 1, version: 2, data: { title: 'Sign up', status: true, translateTitle: { de: 'Anmelden' } }, type: 'earning', event: 'sign_up', title: 'Sign up', status: true };

function mount(path: string, extra: Record<string, Handler> = {}) {
  const fetchMock = mockFetch({
    'GET /api/translation': { body: translationAnswer(catalog, { data: SETTINGS, version: 3 }) },
    'GET /api/translation?type=widget-design': { body: answer('widget-design') },
    'GET /api/translation?type=referral': { body: answer('referral') },
    'GET /api/lp/programs/earning': { body: { data: [PROGRAM] } },
    'GET /api/lp/programs/spending': { body: { data: [] } },
    ...extra,
  });
  sessionStorage.setItem(SESSION_TOKEN_KEY, 'test-token');
  const router = createMemoryRouter(
    [
      {
        path: '/settings/translations/editor',
        element: (
          <>
            <TranslationEditorPage />
            <ToastRegion />
          </>
        ),
      },
      {
        path: '/translations',
        element: (
          <>
            <TranslationsPage />
            <ToastRegion />
          </>
        ),
      },
      { path: '/settings', element: <p>Settings page</p> },
    ],
    { initialEntries: [path] },
  );
  render(
    <Provider store={createStore()}>
      <RouterProvider router={router} />
    </Provider>,
  );
  return { fetchMock, router };
}

const input = (key: string) => document.getElementById(fieldInputId(key)) as HTMLInputElement | null;
/** Waits for a text's input to render. */
const findInput = (key: string) =>
  waitFor(() => {
    const element = input(key);
    if (!element) throw new Error(`no input for ${key}`);
    return element;
  });

describe('translation editor', () => {
  it('opens the first tab in the primary language with the shipped texts, and shows the placeholder rule', async () => {
    mount('/settings/translations/editor?type=widget-design');
    expect(await screen.findByRole('heading', { name: 'Translate: Widget design' })).toBeInTheDocument();
    expect(screen.getByRole('tab', { name: 'Welcome box' })).toHaveAttribute('aria-selected', 'true');
    expect(screen.getByRole('tab', { name: 'English (primary)' })).toHaveAttribute('aria-selected', 'true');
    expect(input('welcome.guestTitle')).toHaveValue('Join our rewards program');
    expect(input('earn.title')).toBeNull();
    expect(within(screen.getByTestId('translation-field-welcome.balance')).getByText('Keep these placeholders: {{pointLabel}}, {{points}}')).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Settings' })).toHaveAttribute('href', '/settings?type=translations');
    expect(screen.getByRole('link', { name: 'Languages' })).toHaveAttribute('href', '/translations');
  });

  it('switches text groups and languages through the URL', async () => {
    const { router } = mount('/settings/translations/editor?type=widget-design');
    const user = userEvent.setup();
    await user.click(await screen.findByRole('tab', { name: 'VIP tier' }));
    expect(input('tiers.title')).toBeInTheDocument();
    expect(input('welcome.guestTitle')).toBeNull();
    expect(router.state.location.search).toContain('tab=vip-tier');
    await user.click(screen.getByRole('tab', { name: 'French' }));
    expect(router.state.location.search).toContain('languageCode=fr');
    await user.click(screen.getByRole('tab', { name: 'Embed content' }));
    // The merchant's French text, and shipped French where there is none.
    expect(input('panel.title')).toHaveValue('Mes avantages');
    expect(input('panel.close')).toHaveValue(catalog.byId.get('widget-design')!.shipped.fr!['panel.close']);
  });

  it('searches label, key, current and default text, whatever the case', async () => {
    mount('/settings/translations/editor?type=widget-design&languageCode=fr');
    const user = userEvent.setup();
    const search = await screen.findByRole('searchbox', { name: 'Search texts' });
    // A key.
    await user.type(search, 'TIERS.TOP');
    expect(input('tiers.top')).toBeInTheDocument();
    expect(input('tiers.title')).toBeNull();
    expect(screen.queryByRole('tab', { name: 'VIP tier' })).toBeNull();
    // A label.
    await user.clear(search);
    await user.type(search, 'return coupon button');
    expect(input('coupons.revoke')).toBeInTheDocument();
    // The current (merchant's) text.
    await user.clear(search);
    await user.type(search, 'mes AVANTAGES');
    expect(input('panel.title')).toBeInTheDocument();
    // A default text, in this language.
    const frenchClose = catalog.byId.get('widget-design')!.shipped.fr!['panel.close']!;
    await user.clear(search);
    await user.type(search, frenchClose.toUpperCase());
    expect(input('panel.close')).toBeInTheDocument();
    await user.clear(search);
    await user.type(search, 'zzz no such text');
    expect(screen.getByText('No text matches “zzz no such text”.')).toBeInTheDocument();
  });

  it('focuses the field the URL names, on its own tab', async () => {
    mount('/settings/translations/editor?type=widget-design&languageCode=fr&field=tiers.progress');
    await waitFor(() => expect(document.activeElement).toBe(input('tiers.progress')));
    expect(screen.getByRole('tab', { name: 'VIP tier' })).toHaveAttribute('aria-selected', 'true');
    expect(screen.getByRole('tab', { name: 'French' })).toHaveAttribute('aria-selected', 'true');
  });

  it('refuses a text that drops a placeholder on its field, without calling the server', async () => {
    const { fetchMock } = mount('/settings/translations/editor?type=widget-design&languageCode=fr');
    const user = userEvent.setup();
    const balance = await findInput('welcome.balance');
    await user.clear(balance);
    await user.type(balance, 'Vous avez {{{{points}} points');
    await user.click(screen.getByRole('button', { name: 'Save' }));
    const field = screen.getByTestId('translation-field-welcome.balance');
    expect(await within(field).findByRole('alert')).toHaveTextContent('Keep the placeholders of the default text: {{pointLabel}} missing');
    expect(input('welcome.balance')).toHaveAttribute('aria-invalid', 'true');
    expect(callsTo(fetchMock, 'POST', '/api/translation')).toHaveLength(0);
    expect(await screen.findByText('Failed to save translations')).toBeInTheDocument();
  });

  it('shows the server refusal on the field its path names', async () => {
    const { fetchMock } = mount('/settings/translations/editor?type=widget-design&languageCode=fr', {
      'POST /api/translation': {
        status: 422,
        body: { error: { code: 'validation_failed', message: 'Failed to save translations', details: [{ path: '/content/fr/widget-design/tiers.progress', message: 'Must be at most 1000 characters' }] } },
      },
    });
    const user = userEvent.setup();
    const title = await findInput('welcome.guestTitle');
    await user.clear(title);
    await user.type(title, 'Rejoignez-nous');
    await user.click(screen.getByRole('button', { name: 'Save' }));
    await waitFor(() => expect(callsTo(fetchMock, 'POST', '/api/translation')).toHaveLength(1));
    // The editor moves to the refused field's tab and shows the message there.
    const field = await screen.findByTestId('translation-field-tiers.progress');
    expect(within(field).getByRole('alert')).toHaveTextContent('Must be at most 1000 characters');
  });

  it('saves the whole translation with the edited text and says so', async () => {
    const saved = { ...SETTINGS, content: { fr: { 'widget-design': { 'panel.title': 'Mes avantages', 'welcome.guestTitle': 'Rejoignez-nous' } } } };
    const { fetchMock } = mount('/settings/translations/editor?type=widget-design&languageCode=fr', {
      'POST /api/translation': { body: { data: saved, version: 4, message: 'Translations saved' } },
    });
    const user = userEvent.setup();
    const title = await findInput('welcome.guestTitle');
    await user.clear(title);
    await user.type(title, 'Rejoignez-nous');
    await user.click(screen.getByRole('button', { name: 'Save' }));
    expect(await screen.findByText('Translations saved')).toBeInTheDocument();
    const [call] = callsTo(fetchMock, 'POST', '/api/translation');
    expect(call!.body).toEqual({ ...saved, version: 3 });
    expect(screen.queryByRole('button', { name: 'Save' })).toBeNull();
  });

  it('edits program names through the documents API', async () => {
    const { fetchMock } = mount('/settings/translations/editor?type=widget-design&languageCode=fr&tab=program-names', {
      'PUT /api/kinds/earning.sign_up/docs/p1': { body: { data: PROGRAM } },
    });
    const user = userEvent.setup();
    const name = await screen.findByRole('textbox', { name: 'Sign up' });
    await user.type(name, 'Inscription');
    await user.click(screen.getByRole('button', { name: 'Save' }));
    expect(await screen.findByText('Translations saved')).toBeInTheDocument();
    const [call] = callsTo(fetchMock, 'PUT', '/api/kinds/earning.sign_up/docs/p1');
    expect(call!.body).toEqual({ data: { ...PROGRAM.data, translateTitle: { de: 'Anmelden', fr: 'Inscription' } }, version: 2 });
    expect(callsTo(fetchMock, 'POST', '/api/translation')).toHaveLength(0);
  });

  it('asks before leaving with unsaved changes, and Discard restores the saved texts', async () => {
    const { router } = mount('/settings/translations/editor?type=widget-design&languageCode=fr');
    const user = userEvent.setup();
    const title = await findInput('welcome.guestTitle');
    const shipped = title.value;
    await user.clear(title);
    await user.type(title, 'Bienvenue');
    // Changing tabs is not leaving.
    await user.click(screen.getByRole('tab', { name: 'VIP tier' }));
    expect(screen.queryByRole('dialog')).toBeNull();
    await user.click(screen.getByRole('tab', { name: 'Welcome box' }));
    await user.click(screen.getByRole('link', { name: 'Settings' }));
    const dialog = await screen.findByRole('dialog', { name: 'Leave page with unsaved changes?' });
    await user.click(within(dialog).getByRole('button', { name: 'Stay' }));
    expect(router.state.location.pathname).toBe('/settings/translations/editor');
    await user.click(screen.getByRole('button', { name: 'Discard' }));
    expect(input('welcome.guestTitle')).toHaveValue(shipped);
    expect(screen.queryByRole('button', { name: 'Save' })).toBeNull();
    await user.click(screen.getByRole('link', { name: 'Settings' }));
    expect(await screen.findByText('Settings page')).toBeInTheDocument();
  });

  it('has a translateTitle code for every shipped storefront language (da, el and pt-PT had none before)', () => {
    expect(catalog.languages.filter((l) => !catalog.programNameLanguages[l])).toEqual([]);
    expect(catalog.programNameLanguages).toMatchObject({ da: 'da', el: 'el', 'pt-PT': 'pt-PT', 'pt-BR': 'pt', he: 'he-IL' });
  });

  it.each([
    ['he', 'he-IL', 'הרשמה'],
    ['da', 'da', 'Tilmeld dig'],
  ])('saves a program name typed in %s under the code its translateTitle uses (%s)', async (language, code, text) => {
    const { fetchMock } = mount(`/settings/translations/editor?type=widget-design&languageCode=${language}&tab=program-names`, {
      'PUT /api/kinds/earning.sign_up/docs/p1': { body: { data: PROGRAM } },
    });
    const user = userEvent.setup();
    await user.type(await screen.findByRole('textbox', { name: 'Sign up' }), text);
    await user.click(screen.getByRole('button', { name: 'Save' }));
    expect(await screen.findByText('Translations saved')).toBeInTheDocument();
    expect(callsTo(fetchMock, 'PUT', '/api/kinds/earning.sign_up/docs/p1')[0]!.body).toEqual({ data: { ...PROGRAM.data, translateTitle: { de: 'Anmelden', [code]: text } }, version: 2 });
  });

  it('keeps Save off with the trial parameter', async () => {
    mount('/settings/translations/editor?type=referral&trial');
    const user = userEvent.setup();
    const title = await findInput('title');
    await user.type(title, '!');
    expect(screen.getByRole('button', { name: 'Save' })).toBeDisabled();
    expect(screen.getByText('Saving is turned off while you try the app.')).toBeInTheDocument();
  });

  it('shows an error with a retry when the translation cannot load', async () => {
    mount('/settings/translations/editor?type=widget-design', { 'GET /api/translation?type=widget-design': { status: 500, body: { error: { code: 'internal_error', message: 'Something went wrong.' } } } });
    expect(await screen.findByText('The translations could not be loaded.')).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Try again' })).toBeInTheDocument();
  });
});

describe('/translations', () => {
  it('lists the eight variants and saves the languages with the texts unchanged', async () => {
    const { fetchMock, router } = mount('/translations', {
      'POST /api/translation': ({ body }) => ({ body: { data: { ...(body as object), version: undefined }, version: 4, message: 'Translations saved' } }),
    });
    const user = userEvent.setup();
    expect(await screen.findByRole('heading', { name: 'Translations', level: 1 })).toBeInTheDocument();
    expect(screen.getAllByRole('link', { name: /^Edit texts:/ })).toHaveLength(8);
    expect(screen.getByRole('checkbox', { name: 'French' })).toBeChecked();
    await user.click(screen.getByRole('checkbox', { name: 'German' }));
    await user.click(screen.getByRole('radio', { name: 'Customer IP address' }));
    await user.click(screen.getByRole('button', { name: 'Save' }));
    expect(await screen.findByText('Translations saved')).toBeInTheDocument();
    const [call] = callsTo(fetchMock, 'POST', '/api/translation');
    expect(call!.body).toEqual({ ...SETTINGS, detectMethod: 'customer_ip', additionalLanguages: ['fr', 'de'], version: 3 });
    await user.click(screen.getByRole('link', { name: 'Edit texts: Referral' }));
    expect(router.state.location.search).toBe('?type=referral');
  });

  it('keeps Save off with the trial parameter and carries it to the editor', async () => {
    mount('/translations?trial');
    const user = userEvent.setup();
    await user.click(await screen.findByRole('checkbox', { name: 'German' }));
    expect(screen.getByRole('button', { name: 'Save' })).toBeDisabled();
    expect(screen.getByRole('link', { name: 'Edit texts: Sign up' })).toHaveAttribute('href', '/settings/translations/editor?type=sign-up&trial');
  });
});
