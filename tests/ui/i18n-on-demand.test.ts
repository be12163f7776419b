// @vitest-environment jsdom
import { describe, expect, it } from 'vitest';
import { act, render } from '@testing-library/react';
import { createElement } from 'react';
import { applyLanguage, bootstrapText, loadI18next, showLanguage, t, useLanguage, useT, type MessageKey } from '../../ui/i18n';
import en from '../../ui/i18n/en.json';
import landingEnglish from '../../ui/i18n/languages/en-landing';
import fr from '../../ui/i18n/fr.json';
import ja from '../../ui/i18n/ja.json';

const i18n = await loadI18next();

describe('chrome catalogs on demand (issue 12 "Serving the admin")', () => {
  it('holds only English until another language is shown, then fetches just that one', async () => {
    expect(Object.keys(i18n.store.data)).toEqual(['en']);
    expect(t('nav.programs')).toBe(en['nav.programs']);
    await showLanguage('fr');
    expect(t('nav.programs')).toBe(fr['nav.programs']);
    expect(document.documentElement.lang).toBe('fr');
    expect(i18n.hasResourceBundle('fr', 'translation')).toBe(true);
    expect(i18n.hasResourceBundle('de', 'translation')).toBe(false);
    await showLanguage('en');
    expect(t('nav.programs')).toBe(en['nav.programs']);
  });

  it('keeps the latest pick when an earlier one is still fetching its catalog', async () => {
    applyLanguage('ja');
    applyLanguage('en');
    await showLanguage('en');
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(i18n.language).toBe('en');
    expect(t('nav.programs')).toBe(en['nav.programs']);
    await showLanguage('ja');
    expect(t('nav.programs')).toBe(ja['nav.programs']);
    await showLanguage('en');
  });
});

describe('texts looked up once', () => {
  it('answers a text again from its memo, and anew once the language or the catalog changes', async () => {
    await showLanguage('en');
    const first = t('nav.programs');
    expect(t('nav.programs')).toBe(first);
    // A catalog change (the rest of English arriving, say) is seen at once.
    i18n.addResourceBundle('en', 'translation', { 'nav.programs': 'Programs (changed)' }, true, true);
    expect(t('nav.programs')).toBe('Programs (changed)');
    await showLanguage('fr');
    expect(t('nav.programs')).toBe(fr['nav.programs']);
    await showLanguage('en');
    expect(t('nav.programs')).toBe('Programs (changed)');
    i18n.addResourceBundle('en', 'translation', { 'nav.programs': en['nav.programs'] }, true, true);
    expect(t('nav.programs')).toBe(en['nav.programs']);
  });

  it('gives exactly what i18next gives for every text, in each language and its fallback', async () => {
    const keys = Object.keys(i18n.getResourceBundle('en', 'translation') as Record<string, string>) as MessageKey[];
    expect(keys.length).toBeGreaterThan(1000);
    for (const language of ['en', 'fr', 'ja', 'en-US'] as const) {
      await showLanguage(language);
      let plain = 0;
      for (const key of keys) {
        const expected = String(i18n.t(key, { replace: {} }));
        if (!expected.includes('{')) plain += 1;
        expect(t(key), `${language} ${key}`).toBe(expected);
      }
      expect(plain).toBeGreaterThan(500);
    }
    await showLanguage('en');
  });

  it('reads English where a language leaves a text empty, and keeps placeholders to i18next', async () => {
    await showLanguage('fr');
    i18n.addResourceBundle('fr', 'translation', { 'nav.programs': '' }, true, true);
    expect(t('nav.programs')).toBe(en['nav.programs']);
    i18n.addResourceBundle('fr', 'translation', { 'nav.programs': 'Bonjour {name}' }, true, true);
    expect(t('nav.programs')).toBe('Bonjour {name}');
    expect(t('nav.programs', { name: 'Ada' })).toBe('Bonjour Ada');
    i18n.addResourceBundle('fr', 'translation', { 'nav.programs': fr['nav.programs'] }, true, true);
    expect(t('nav.programs')).toBe(fr['nav.programs']);
    await showLanguage('en');
  });

  it('re-renders a component using useT when a catalog is added or the language changes, with a new function', async () => {
    await showLanguage('en');
    const seen: string[] = [];
    const functions = new Set<unknown>();
    function Title() {
      const translate = useT();
      functions.add(translate);
      const text = `${useLanguage()}: ${translate('nav.programs')}`;
      seen.push(text);
      return createElement('h1', null, text);
    }
    const view = render(createElement(Title));
    expect(view.getByRole('heading').textContent).toBe(`en: ${en['nav.programs']}`);
    act(() => {
      i18n.addResourceBundle('en', 'translation', { 'nav.programs': 'Programs (new)' }, true, true);
    });
    expect(view.getByRole('heading').textContent).toBe('en: Programs (new)');
    await act(async () => {
      await showLanguage('fr');
    });
    expect(view.getByRole('heading').textContent).toBe(`fr: ${fr['nav.programs']}`);
    expect(functions.size).toBe(3);
    await act(async () => {
      await showLanguage('en');
    });
    act(() => {
      i18n.addResourceBundle('en', 'translation', { 'nav.programs': en['nav.programs'] }, true, true);
    });
    expect(view.getByRole('heading').textContent).toBe(`en: ${en['nav.programs']}`);
    view.unmount();
  });

  it('gives, before i18next has loaded, exactly what i18next gives for every bundled text, with and without values', async () => {
    await showLanguage('en');
    const keys = Object.keys(landingEnglish) as MessageKey[];
    expect(keys.length).toBeGreaterThan(100);
    let withPlaceholders = 0;
    for (const key of keys) {
      expect(bootstrapText(key), key).toBe(String(i18n.t(key, { replace: {} })));
      const names = [...String(landingEnglish[key as keyof typeof landingEnglish]).matchAll(/\{([^{}]+?)\}/g)].map((m) => m[1]!.trim());
      if (names.length === 0) continue;
      withPlaceholders += 1;
      // Every placeholder but the last gets a value (one with braces in it, which is not read again); the last stays as it is.
      const vars = Object.fromEntries(names.slice(0, -1).map((name, index) => [name, index % 2 ? index : `<{${name}}>`]));
      expect(bootstrapText(key, vars), key).toBe(String(i18n.t(key, { replace: vars })));
    }
    expect(withPlaceholders).toBeGreaterThan(10);
    expect(bootstrapText('no.such.key' as MessageKey)).toBe(String(i18n.t('no.such.key', { replace: {} })));
  });
});
