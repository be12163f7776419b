import { describe, expect, it } from 'vitest';
import { IN_APP_LANGUAGES } from '../../engine/i18n';
import { APP_LANGUAGES, loadI18next, t } from '../../ui/i18n';
import { english as englishCatalog, translated } from '../../ui/i18n/catalogs';
import fr from '../../ui/i18n/fr.json';

const i18n = await loadI18next();

const english: Record<string, string> = englishCatalog;
const catalogs: Record<string, Record<string, string>> = translated;
const placeholders = (text: string) => [...text.matchAll(/\{(\w+)\}/g)].map((m) => m[1]).sort();

describe('admin chrome catalogs', () => {
  it('offers exactly the in-app languages the server accepts, in the same order', () => {
    expect(APP_LANGUAGES.map((language) => language.code)).toEqual([...IN_APP_LANGUAGES]);
  });

  it.each(Object.keys(catalogs))('%s has every English key, no other, each keeping its placeholders', (language) => {
    const catalog = catalogs[language]!;
    expect(Object.keys(catalog).sort()).toEqual(Object.keys(english).sort());
    const broken = Object.keys(english).filter((key) => placeholders(catalog[key] ?? '').join() !== placeholders(english[key]!).join());
    expect(broken).toEqual([]);
  });

  it('fills placeholders in the current language and reads English for en-US', async () => {
    await i18n.changeLanguage('fr');
    expect(t('programs.toggle', { title: 'X' })).toBe(fr['programs.toggle'].replace('{title}', 'X'));
    await i18n.changeLanguage('en-US');
    expect(t('programs.toggle', { title: 'X' })).toBe('Turn on X');
    await i18n.changeLanguage('en');
  });
});
