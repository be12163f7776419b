// @vitest-environment jsdom
import { describe, expect, it } from 'vitest';
import { applyLanguage, i18n, showLanguage, t } from '../../ui/i18n';
import en from '../../ui/i18n/en.json';
import fr from '../../ui/i18n/fr.json';
import ja from '../../ui/i18n/ja.json';

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
});
