/**
 * The storefront languages (issue 13): every shipped text file of every translation variant under
 * `schemas/_storefront/<variant>/` has exactly the keys of that variant's en.json, keeps every
 * `{{placeholder}}` of the English text and has no empty text; `GET /proxy/widget` answers each
 * shipped language with a text (never a key) for every key; a shopper's language tag finds its
 * shipped language (engine/storefront-languages.ts); Arabic and Hebrew read right to left.
 */
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { findStorefrontLanguage, matchStorefrontLanguage, STOREFRONT_LANGUAGES, storefrontTextDirection } from '../../engine/storefront-languages';
import { projectRoot } from '../../server/paths';
import { titleIn } from '../../server/proxy/shopper';
import { readTranslation, saveTranslation } from '../../server/services/translations';
import { makeApp, SHOP } from '../support/app';

const root = join(projectRoot(), 'schemas', '_storefront');
const variants = readdirSync(root).filter((name) => statSync(join(root, name)).isDirectory()).sort();
const read = (variant: string, file: string): Record<string, unknown> => JSON.parse(readFileSync(join(root, variant, file), 'utf8')) as Record<string, unknown>;
const placeholders = (text: string): string[] => [...text.matchAll(/\{\{\s*(\w+)\s*\}\}/g)].map((m) => m[1]!).sort();
const shippedCodes = STOREFRONT_LANGUAGES.map((l) => l.code);

describe('shipped storefront texts', () => {
  it('finds the widget-design variant among the variant folders', () => {
    expect(variants).toContain('widget-design');
  });

  for (const variant of variants) {
    describe(variant, () => {
      const files = readdirSync(join(root, variant)).filter((f) => f.endsWith('.json')).sort();
      const english = read(variant, 'en.json');
      const keys = Object.keys(english).sort();

      it('has an English file whose every text is a non-empty string', () => {
        expect(files).toContain('en.json');
        expect(keys.length).toBeGreaterThan(0);
        for (const key of keys) {
          expect(typeof english[key], key).toBe('string');
          expect((english[key] as string).trim(), key).not.toBe('');
        }
      });

      it('ships a file for every storefront language, each named by its code', () => {
        expect(files.map((f) => f.slice(0, -'.json'.length)).sort()).toEqual([...shippedCodes].sort());
      });

      for (const file of files.filter((f) => f !== 'en.json')) {
        it(`${file}: the English keys exactly, every placeholder kept, no empty text`, () => {
          const texts = read(variant, file);
          expect(Object.keys(texts).sort(), `${variant}/${file} keys`).toEqual(keys);
          for (const key of keys) {
            const text = texts[key];
            expect(typeof text, `${variant}/${file} ${key}`).toBe('string');
            expect((text as string).trim(), `${variant}/${file} ${key} is empty`).not.toBe('');
            expect(placeholders(text as string), `${variant}/${file} ${key} placeholders`).toEqual(placeholders(english[key] as string));
          }
        });
      }
    });
  }

  it('ships widget texts for every listed storefront language and lists every shipped file', () => {
    const files = readdirSync(join(root, 'widget-design')).filter((f) => f.endsWith('.json')).map((f) => f.slice(0, -'.json'.length)).sort();
    expect(files).toEqual([...shippedCodes].sort());
    expect(shippedCodes.length).toBeGreaterThanOrEqual(30);
  });
});

describe('GET /proxy/widget in every shipped language', () => {
  it('answers the language asked for and a text, never a key, for every key', async () => {
    const t = await makeApp();
    const keys = Object.keys(read('widget-design', 'en.json')).sort();
    for (const code of shippedCodes) {
      const res = await t.proxy('GET', `/widget?language=${encodeURIComponent(code)}`, null);
      expect(res.status, code).toBe(200);
      const { data } = (await res.json()) as { data: { language: string; texts: Record<string, string> } };
      expect(data.language, code).toBe(code);
      expect(Object.keys(data.texts).sort(), code).toEqual(keys);
      for (const [key, text] of Object.entries(data.texts)) {
        expect(text, `${code} ${key}`).not.toBe(key);
        expect(text.trim(), `${code} ${key}`).not.toBe('');
      }
      if (code !== 'en') expect(data.texts['panel.close'], code).not.toBe('Close');
    }
  });

  it('serves a regional or differently written tag in its shipped language', async () => {
    const t = await makeApp();
    for (const [asked, served] of [['pt_BR', 'pt-BR'], ['zh-Hant-TW', 'zh-TW'], ['nb-NO', 'nb'], ['he-IL', 'he'], ['ar-SA', 'ar']] as const) {
      const { data } = (await (await t.proxy('GET', `/widget?language=${encodeURIComponent(asked)}`, null)).json()) as { data: { language: string } };
      expect(data.language, asked).toBe(served);
    }
  });
});

describe('a primary language written as the spec lists it', () => {
  it('fills texts from the shipped file that serves it (he-IL reads he, pt reads pt-BR), never English', async () => {
    const t = await makeApp();
    for (const [primary, shipped] of [['he-IL', 'he'], ['pt', 'pt-BR']] as const) {
      const current = await readTranslation(t.db, SHOP);
      await saveTranslation(t.db, SHOP, { primaryLanguage: primary, version: current.version }, new Date().toISOString());
      const { data } = (await (await t.proxy('GET', '/widget?language=sw-KE', null)).json()) as { data: { language: string; texts: Record<string, string> } };
      expect(data.language, primary).toBe(primary);
      expect(data.texts['panel.close'], primary).toBe(read('widget-design', `${shipped}.json`)['panel.close']);
      expect(storefrontTextDirection(data.language)).toBe(shipped === 'he' ? 'rtl' : 'ltr');
    }
  });
});

describe('matching a shopper language to a shipped one', () => {
  const cases: [string, string][] = [
    ['pt-BR', 'pt-BR'],
    ['pt-br', 'pt-BR'],
    ['pt_BR', 'pt-BR'],
    ['pt', 'pt-BR'],
    ['pt-PT', 'pt-PT'],
    ['pt-AO', 'pt-PT'],
    ['zh-TW', 'zh-TW'],
    ['zh-Hant-TW', 'zh-TW'],
    ['zh-HK', 'zh-TW'],
    ['zh-Hant', 'zh-TW'],
    ['zh', 'zh-CN'],
    ['zh-Hans-CN', 'zh-CN'],
    ['zh-SG', 'zh-CN'],
    ['nb-NO', 'nb'],
    ['no', 'nb'],
    ['nn-NO', 'nb'],
    ['iw', 'he'],
    ['he-IL', 'he'],
    ['in', 'id'],
    ['fr-CA', 'fr'],
    ['EN-gb', 'en'],
    ['de-DE-u-co-phonebk', 'de'],
    ['fr-CA,fr;q=0.9,en;q=0.8', 'fr'],
    ['xx-YY, sv-SE;q=0.7', 'sv'],
  ];
  for (const [asked, served] of cases) {
    it(`${asked} → ${served}`, () => expect(matchStorefrontLanguage(asked, shippedCodes)).toBe(served));
  }

  it('falls back to the primary language for an unknown, empty or malformed tag', () => {
    expect(matchStorefrontLanguage('sw-KE', shippedCodes)).toBe('en');
    expect(matchStorefrontLanguage('', shippedCodes, 'fr')).toBe('fr');
    expect(matchStorefrontLanguage(undefined, shippedCodes, 'de')).toBe('de');
    expect(matchStorefrontLanguage('<script>', shippedCodes)).toBe('en');
    expect(findStorefrontLanguage('sw', shippedCodes)).toBeUndefined();
  });

  it('finds any shipped form of the language when its usual one is missing', () => {
    expect(matchStorefrontLanguage('pt', ['en', 'pt-PT'])).toBe('pt-PT');
    expect(matchStorefrontLanguage('he', ['en', 'he-IL'])).toBe('he-IL');
    expect(matchStorefrontLanguage('zh-TW', ['en', 'zh-CN'])).toBe('zh-CN');
  });
});

describe('program names in the shopper language', () => {
  it('finds the name written for the language the storefront rule matches, else the default title', () => {
    const data = { title: 'Birthday', translateTitle: { 'he-IL': 'יום הולדת', pt: 'Aniversário', 'zh-TW': '生日禮', fr: 'Anniversaire', de: '' } };
    expect(titleIn(data, 'he', 'x')).toBe('יום הולדת');
    expect(titleIn(data, 'pt-BR', 'x')).toBe('Aniversário');
    expect(titleIn(data, 'zh-Hant-HK', 'x')).toBe('生日禮');
    expect(titleIn(data, 'fr-CA', 'x')).toBe('Anniversaire');
    expect(titleIn(data, 'de', 'x')).toBe('Birthday');
    expect(titleIn(data, 'ja', 'x')).toBe('Birthday');
    expect(titleIn({ translateTitle: {} }, 'ja', 'Fallback')).toBe('Fallback');
  });
});

describe('text direction', () => {
  it('is right to left for Arabic, Hebrew and Urdu (any region) and left to right for the other shipped languages', () => {
    for (const { code, dir } of STOREFRONT_LANGUAGES) expect(storefrontTextDirection(code), code).toBe(dir);
    expect(STOREFRONT_LANGUAGES.filter((l) => l.dir === 'rtl').map((l) => l.code).sort()).toEqual(['ar', 'he', 'ur']);
    expect(storefrontTextDirection('he-IL')).toBe('rtl');
    expect(storefrontTextDirection('ar_EG')).toBe('rtl');
    expect(storefrontTextDirection('fa')).toBe('rtl');
    expect(storefrontTextDirection(undefined)).toBe('ltr');
  });
});
