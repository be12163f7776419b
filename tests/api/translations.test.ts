/**
 * The translation editor's API (issue 13; spec 001 §3 Translation, §7 `GET /translation` and
 * `POST /translation`): a round trip, the placeholder rule refused on its field path, unknown keys,
 * variants and languages refused, the length cap, and the storefront's fallback order as
 * `GET /proxy/widget` shows it (merchant text → shipped text of the language → primary language →
 * English, never a key). Also checks the shipped data: every variant's descriptor lists every key
 * of its en.json once, and every shipped language keeps each text's placeholders.
 */
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import Ajv from 'ajv';
import { describe, expect, it } from 'vitest';
import { loadTranslationCatalog, matchLanguage, placeholdersOf, saveTranslation, storefrontTexts, type TranslationSettings } from '../../server/services/translations';
import { makeApp, ROOT, SHOP } from '../support/app';

interface GetAnswer {
  data: TranslationSettings;
  version: number;
  variants: { id: string; title: string; textCount: number }[];
  languages: string[];
  variant?: { id: string; tabs: { id: string; title: string; fields: { key: string; label: string; placeholders: string[] }[] }[] };
  defaults?: Record<string, Record<string, string>>;
}
interface ErrorAnswer {
  error: { code: string; message: string; details?: { path: string; message: string }[] };
}
interface WidgetAnswer {
  data: { texts: Record<string, string>; language: string };
}

const VARIANTS = ['widget-design', 'point-calculator', 'check-out', 'sign-up', 'visit-website-popup', 'reward-reminder', 'redeem-inline', 'referral'];

describe('GET /api/translation', () => {
  it('answers the defaults, the eight variants and the storefront languages', async () => {
    const t = await makeApp();
    const res = await t.call('GET', '/api/translation');
    expect(res.status).toBe(200);
    const body = (await res.json()) as GetAnswer;
    expect(body.data).toEqual({ primaryLanguage: 'en', detectMethod: 'customer_ip', additionalLanguages: [], content: {} });
    expect(body.version).toBe(0);
    expect(body.variants.map((v) => v.id)).toEqual(VARIANTS);
    expect(body.languages).toEqual(expect.arrayContaining(['en', 'fr', 'de', 'ja', 'zh-CN']));
    expect(body.languages.length).toBeGreaterThanOrEqual(30);
    expect(body.variant).toBeUndefined();
  });

  it('with ?type adds the tabs, labels, placeholders and shipped texts of that variant', async () => {
    const t = await makeApp();
    const body = (await (await t.call('GET', '/api/translation?type=widget-design')).json()) as GetAnswer;
    expect(body.variant!.tabs.map((tab) => tab.id)).toEqual(['welcome-box', 'earning-block', 'redeeming-block', 'my-coupons', 'point-history', 'customer-account', 'time', 'vip-tier', 'embed-content']);
    const balance = body.variant!.tabs[0]!.fields.find((f) => f.key === 'welcome.balance')!;
    expect(balance).toEqual({ key: 'welcome.balance', label: 'Point balance', placeholders: ['pointLabel', 'points'] });
    expect(body.defaults!.fr!['welcome.guestTitle']).toBe('Rejoignez notre programme de fidélité');
    // A language without a shipped file reads English, never a key.
    expect(body.defaults!.en!['panel.title']).toBe('Rewards');
    for (const language of body.languages) expect(Object.keys(body.defaults![language]!).length).toBe(Object.keys(body.defaults!.en!).length);
  });

  it('answers the titles and labels in the admin language asked', async () => {
    const t = await makeApp();
    const body = (await (await t.call('GET', '/api/translation?type=widget-design&language=fr')).json()) as GetAnswer;
    expect(body.variant!.tabs[0]!.title).toBe('Encadré de bienvenue');
    expect(body.variant!.tabs[0]!.fields.find((f) => f.key === 'welcome.balance')!.label).toBe('Solde de points');
    expect(body.variants[0]!.title).toBe('Design du widget');
    expect((await t.call('GET', '/api/translation?language=xx')).status).toBe(400);
  });

  it('refuses an unknown type with the query field', async () => {
    const t = await makeApp();
    const res = await t.call('GET', '/api/translation?type=newsletter');
    expect(res.status).toBe(400);
    expect(((await res.json()) as ErrorAnswer).error.details![0]!.path).toBe('type');
  });
});

describe('POST /api/translation', () => {
  it('saves the whole object and reads it back (round trip), versions counting up', async () => {
    const t = await makeApp();
    const translation = {
      primaryLanguage: 'fr',
      detectMethod: 'customer_ip',
      additionalLanguages: ['en', 'de'],
      content: { fr: { 'widget-design': { 'welcome.balance': 'Vous avez {{points}} {{pointLabel}}', 'earn.title': '' }, referral: { title: 'Parrainez un ami !' } } },
    };
    const res = await t.call('POST', '/api/translation', translation);
    expect(res.status).toBe(200);
    const saved = (await res.json()) as { data: TranslationSettings; version: number; message: string };
    expect(saved.message).toBe('Translations saved');
    expect(saved.version).toBe(1);
    // An empty text is no text: the shipped one shows.
    expect(saved.data.content.fr!['widget-design']).toEqual({ 'welcome.balance': 'Vous avez {{points}} {{pointLabel}}' });
    const read = (await (await t.call('GET', '/api/translation')).json()) as GetAnswer;
    expect(read.data).toEqual(saved.data);
    expect(read.version).toBe(1);

    expect((await t.call('POST', '/api/translation', { ...translation, version: 1 })).status).toBe(200);
    const stale = await t.call('POST', '/api/translation', { ...translation, version: 1 });
    expect(stale.status).toBe(409);
    expect(((await stale.json()) as ErrorAnswer).error.code).toBe('version_conflict');
  });

  it('refuses a text that drops or adds a placeholder, naming the language and key', async () => {
    const t = await makeApp();
    const dropped = await t.call('POST', '/api/translation', { content: { fr: { 'widget-design': { 'welcome.balance': 'Vous avez {{points}} points' } } } });
    expect(dropped.status).toBe(422);
    const body = (await dropped.json()) as ErrorAnswer;
    expect(body.error.code).toBe('validation_failed');
    expect(body.error.message).toBe('Failed to save translations');
    expect(body.error.details).toEqual([{ path: '/content/fr/widget-design/welcome.balance', message: expect.stringContaining('{{pointLabel}}') }]);

    const added = await t.call('POST', '/api/translation', { content: { de: { 'sign-up': { title: 'Willkommen {{name}}' } } } });
    expect(added.status).toBe(422);
    expect(((await added.json()) as ErrorAnswer).error.details).toEqual([{ path: '/content/de/sign-up/title', message: expect.stringContaining('{{name}}') }]);
    // Nothing was written.
    expect(((await (await t.call('GET', '/api/translation')).json()) as GetAnswer).version).toBe(0);
  });

  it('refuses unknown keys, variants, languages and fields, and texts over the cap', async () => {
    const t = await makeApp();
    const res = await t.call('POST', '/api/translation', {
      primaryLanguage: 'xx',
      detectMethod: 'cookie',
      additionalLanguages: ['fr', 'fr'],
      colour: 'red',
      content: { fr: { 'widget-design': { 'welcome.nope': 'Non', 'panel.title': 'x'.repeat(1001) }, newsletter: { title: 'Lettre' } }, klingon: { referral: { title: 'x' } } },
    });
    expect(res.status).toBe(422);
    const paths = ((await res.json()) as ErrorAnswer).error.details!.map((d) => d.path).sort();
    expect(paths).toEqual(['/additionalLanguages/1', '/colour', '/content/fr/newsletter', '/content/fr/widget-design/panel.title', '/content/fr/widget-design/welcome.nope', '/content/klingon', '/detectMethod', '/primaryLanguage']);
  });

  it('refuses the primary language among the additional ones', async () => {
    const t = await makeApp();
    const res = await t.call('POST', '/api/translation', { primaryLanguage: 'de', additionalLanguages: ['de'] });
    expect(res.status).toBe(422);
    expect(((await res.json()) as ErrorAnswer).error.details).toEqual([{ path: '/additionalLanguages/0', message: expect.any(String) }]);
  });
});

describe('the storefront reads the saved texts (GET /proxy/widget)', () => {
  const widget = async (t: Awaited<ReturnType<typeof makeApp>>, language: string) =>
    ((await (await t.proxy('GET', `/widget?language=${language}`, null)).json()) as WidgetAnswer).data;

  it('merchant text, then the shipped text of the language, then the primary language, then English', async () => {
    const t = await makeApp();
    const before = await widget(t, 'fr');
    expect(before.texts['panel.title']).toBe('Récompenses');

    const saved = await t.call('POST', '/api/translation', {
      primaryLanguage: 'de',
      additionalLanguages: ['fr', 'ko'],
      content: {
        fr: { 'widget-design': { 'panel.title': 'Mes avantages' } },
        de: { 'widget-design': { 'history.title': 'Meine Punkte', 'panel.title': 'Vorteile' } },
        ko: { 'widget-design': { 'panel.title': '리워드' } },
      },
    });
    expect(saved.status).toBe(200);

    const fr = await widget(t, 'fr-CA');
    expect(fr.language).toBe('fr');
    expect(fr.texts['panel.title']).toBe('Mes avantages'); // the merchant's French
    expect(fr.texts['earn.title']).toBe(before.texts['earn.title']); // shipped French
    // Korean: the merchant's text, then Korean shipped texts where there are some, then the primary language (German).
    const ko = await widget(t, 'ko');
    expect(ko.language).toBe('ko');
    expect(ko.texts['panel.title']).toBe('리워드');
    const koreanShipped = loadTranslationCatalog(join(ROOT, 'schemas')).byId.get('widget-design')!.shipped.ko ?? {};
    expect(ko.texts['history.title']).toBe(koreanShipped['history.title'] ?? 'Meine Punkte');
    // A language nobody wrote: the primary language.
    const unknown = await widget(t, 'sw');
    expect(unknown.language).toBe('de');
    expect(unknown.texts['panel.title']).toBe('Vorteile');
    const english = JSON.parse(readFileSync(join(ROOT, 'schemas/_storefront/widget-design/en.json'), 'utf8')) as Record<string, string>;
    for (const answer of [fr, ko, unknown]) {
      expect(Object.keys(answer.texts).sort()).toEqual(Object.keys(english).sort());
      for (const [key, text] of Object.entries(answer.texts)) expect(text, key).not.toBe(key);
    }
  });

  it('fills a key the language lacks from the primary language: merchant text first, then shipped', async () => {
    const t = await makeApp();
    const dir = mkdtempSync(join(tmpdir(), 'translations-'));
    const write = (rel: string, value: unknown) => {
      mkdirSync(dirname(join(dir, rel)), { recursive: true });
      writeFileSync(join(dir, rel), JSON.stringify(value));
    };
    write('_shared/translate-title.json', { propertyNames: { enum: ['en', 'fr', 'de'] } });
    write('translation/demo.json', { id: 'demo', title: 'Demo', description: 'Demo texts', order: 1, tabs: [{ id: 'all', title: 'All', fields: [{ key: 'a', label: 'A' }] }] });
    write('_storefront/demo/en.json', { a: 'A {{n}}', b: 'B', c: 'C' });
    write('_storefront/demo/fr.json', { a: 'A fr {{n}}' });
    write('_storefront/demo/de.json', { a: 'A de {{n}}', b: 'B de', c: 'C de' });
    const catalog = loadTranslationCatalog(dir);
    // The key no tab lists is still editable, on the last tab.
    expect(catalog.byId.get('demo')!.tabs.at(-1)).toEqual({ id: 'more', title: 'More texts', fields: [{ key: 'b', label: 'b' }, { key: 'c', label: 'c' }] });
    await saveTranslation(t.db, SHOP, { primaryLanguage: 'de', content: { de: { demo: { b: 'B merchant' } } } }, new Date().toISOString(), catalog);
    expect(await storefrontTexts(t.db, SHOP, 'demo', 'fr', catalog)).toEqual({ language: 'fr', texts: { a: 'A fr {{n}}', b: 'B merchant', c: 'C de' } });
    await saveTranslation(t.db, SHOP, { primaryLanguage: 'en', content: {} }, new Date().toISOString(), catalog);
    expect(await storefrontTexts(t.db, SHOP, 'demo', 'fr', catalog)).toEqual({ language: 'fr', texts: { a: 'A fr {{n}}', b: 'B', c: 'C' } });
  });

  it('a shop with the default English primary language reads English for a language without texts', async () => {
    const t = await makeApp();
    const answer = await widget(t, 'sw');
    expect(answer.language).toBe('en');
    expect(answer.texts['panel.title']).toBe('Rewards');
  });
});

describe('GET /proxy/translation', () => {
  it("answers one variant's texts with the merchant's first, every key present", async () => {
    const t = await makeApp();
    await t.call('POST', '/api/translation', { content: { fr: { referral: { title: 'Parrainez vos amis' } } } });
    const res = await t.proxy('GET', '/translation?type=referral&language=fr-BE', null);
    expect(res.status).toBe(200);
    const { data } = (await res.json()) as { data: { type: string; language: string; texts: Record<string, string> } };
    expect(data.type).toBe('referral');
    expect(data.language).toBe('fr');
    expect(data.texts.title).toBe('Parrainez vos amis');
    const english = JSON.parse(readFileSync(join(ROOT, 'schemas/_storefront/referral/en.json'), 'utf8')) as Record<string, string>;
    expect(Object.keys(data.texts).sort()).toEqual(Object.keys(english).sort());
    expect((await t.proxy('GET', '/translation?type=nope', null)).status).toBe(400);
  });

  it("picks the page's or the browser's language by the shop's detect method", async () => {
    const t = await makeApp();
    const language = async () => ((await (await t.proxy('GET', '/translation?type=sign-up&language=de-DE&browserLanguage=fr-FR', null)).json()) as { data: { language: string } }).data.language;
    expect(await language()).toBe('de'); // the page's language, which the platform picks from the visitor's IP: the default
    await t.call('POST', '/api/translation', { detectMethod: 'browser_language' });
    expect(await language()).toBe('fr'); // the browser's language
  });
});

describe('the shipped translation data', () => {
  const catalog = loadTranslationCatalog(join(ROOT, 'schemas'));

  it('has the eight variants, each descriptor valid and listing every English key exactly once', () => {
    expect(catalog.variants.map((v) => v.id)).toEqual(VARIANTS);
    const ajv = new Ajv({ allErrors: true });
    const validate = ajv.compile(JSON.parse(readFileSync(join(ROOT, 'schemas/translation/_variant.schema.json'), 'utf8')) as object);
    for (const file of readdirSync(join(ROOT, 'schemas/translation')).filter((f) => !f.startsWith('_'))) {
      const descriptor = JSON.parse(readFileSync(join(ROOT, 'schemas/translation', file), 'utf8')) as { id: string; tabs: { fields: { key: string }[] }[] };
      expect(validate(descriptor), `${file}: ${ajv.errorsText(validate.errors)}`).toBe(true);
      expect(file).toBe(`${descriptor.id}.json`);
      const english = JSON.parse(readFileSync(join(ROOT, 'schemas/_storefront', descriptor.id, 'en.json'), 'utf8')) as Record<string, string>;
      const listed = descriptor.tabs.flatMap((tab) => tab.fields.map((f) => f.key));
      expect([...listed].sort(), descriptor.id).toEqual(Object.keys(english).sort());
      expect(new Set(listed).size).toBe(listed.length);
    }
  });

  it("has every title, description and label of the editor in each translated admin language", () => {
    const english = new Set<string>(['More texts']);
    for (const variant of catalog.variants) {
      for (const text of [variant.title, variant.description, ...(variant.links ?? []).map((l) => l.label), ...variant.tabs.flatMap((tab) => [tab.title, ...tab.fields.map((f) => f.label)])]) english.add(text);
    }
    for (const language of ['fr', 'es', 'de', 'it', 'ja', 'id']) {
      const labels = catalog.labels[language] ?? {};
      const missing = [...english].filter((text) => !labels[text]?.trim());
      expect(missing, `schemas/translation/_i18n/${language}.json lacks`).toEqual([]);
    }
  });

  it('every shipped text keeps the placeholders of its English text', () => {
    for (const variant of catalog.variants) {
      for (const [language, texts] of Object.entries(variant.shipped)) {
        for (const [key, text] of Object.entries(texts)) {
          if (variant.placeholders[key] === undefined) continue; // a stray key is the language test's business
          expect(placeholdersOf(text), `${variant.id}/${language}.json ${key}`).toEqual(variant.placeholders[key]);
        }
      }
    }
  });

  it('matches a language by exact code, then its base language', () => {
    expect(matchLanguage('pt-BR', ['en', 'pt-BR', 'pt'])).toBe('pt-BR');
    expect(matchLanguage('fr_CA', ['en', 'fr'])).toBe('fr');
    expect(matchLanguage('zh-cn', ['zh-CN'])).toBe('zh-CN');
    expect(matchLanguage('sw', ['en'])).toBeNull();
    expect(matchLanguage(undefined, ['en'])).toBeNull();
  });
});
