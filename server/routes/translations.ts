/**
 * The translation editor's calls (spec 001 §7; issue 13):
 * - `GET /translation` — the shop's translation `{ data: { primaryLanguage, detectMethod,
 *   additionalLanguages, content }, version, variants, languages }`: `variants` lists the eight
 *   variants (id, title, description, links, number of texts), `languages` the storefront languages.
 *   With `?type=<variant>` it adds `variant` (its tabs with each field's key, label and
 *   placeholders) and `defaults` (the shipped text of every key in every storefront language,
 *   English filling the gaps). An unknown type is 400 `invalid_query` at `type`. `?language=` (an
 *   in-app language) answers the titles, descriptions and labels translated.
 * - `POST /translation` — saves the whole translation object (optional `version` for optimistic
 *   saves): `{ data, version, message: 'Translations saved' }`; 422 `validation_failed` with the
 *   field path (`/content/fr/widget-design/welcome.balance`) for a dropped or added placeholder, an
 *   unknown key, variant or language, a text over 1000 characters; 409 `version_conflict`.
 * The storefront reads the saved texts through server/services/translations.ts storefrontTexts:
 * `GET /proxy/widget` (widget-design) and `GET /proxy/translation?type=&language=` (any variant).
 */
import { Hono } from 'hono';
import type { AppDeps, AppEnv } from '../deps';
import type { ProxyEnv } from '../proxy/middleware';
import { localizeLabel, readTranslation, saveTranslation, shippedTexts, storefrontTexts, translationCatalog, variantOrThrow, type LoadedVariant, type StoredTranslation, type TranslationCatalog } from '../services/translations';
import { languageParam, readJsonBody } from './body';

/** The English message of a successful save (spec 001 §8 "translationsSaved"). */
export const TRANSLATIONS_SAVED = 'Translations saved';

/**
 * The answer of `GET /translation`: the stored translation, the variants, the storefront languages,
 * and for one `variant` its tabs (with each field's placeholders) and shipped texts per language;
 * titles, descriptions and labels in the in-app `labelLanguage` (English when it lacks one).
 */
export function translationAnswer(catalog: TranslationCatalog, stored: StoredTranslation, variant?: LoadedVariant, labelLanguage = 'en'): Record<string, unknown> {
  const l = (text: string) => localizeLabel(catalog, labelLanguage, text);
  const links = (v: LoadedVariant) => (v.links ?? []).map((link) => ({ ...link, label: l(link.label) }));
  const variants = catalog.variants.map((v) => ({ id: v.id, title: l(v.title), description: l(v.description), links: links(v), textCount: Object.keys(v.placeholders).length }));
  const answer: Record<string, unknown> = { data: stored.data, version: stored.version, variants, languages: catalog.languages };
  if (variant) {
    answer.variant = {
      id: variant.id,
      title: l(variant.title),
      description: l(variant.description),
      links: links(variant),
      programNames: variant.programNames === true,
      // Storefront language → its code in the programs' translateTitle.
      programNameLanguages: variant.programNames === true ? catalog.programNameLanguages : {},
      tabs: variant.tabs.map((tab) => ({ ...tab, title: l(tab.title), fields: tab.fields.map((f) => ({ ...f, label: l(f.label), placeholders: variant.placeholders[f.key] ?? [] })) })),
    };
    answer.defaults = Object.fromEntries(catalog.languages.map((l) => [l, shippedTexts(variant, l)]));
  }
  return answer;
}

/** The translation editor's routes; mounted under `/api` behind the session (server/app.ts). */
export function translationRoutes(deps: AppDeps): Hono<AppEnv> {
  const app = new Hono<AppEnv>();
  const now = () => (deps.now ?? (() => new Date()))().toISOString();

  app.get('/translation', async (c) => {
    const catalog = translationCatalog();
    const type = c.req.query('type');
    const variant = type === undefined ? undefined : variantOrThrow(catalog, type);
    return c.json(translationAnswer(catalog, await readTranslation(deps.db, c.get('shopId')), variant, languageParam(c)));
  });

  app.post('/translation', async (c) => {
    const saved = await saveTranslation(deps.db, c.get('shopId'), await readJsonBody(c), now());
    return c.json({ data: saved.data, version: saved.version, message: TRANSLATIONS_SAVED });
  });
  return app;
}

/**
 * `GET /proxy/translation?type=<variant>&language=<page language>&browserLanguage=<code>` (storefront
 * API): one variant's texts as a storefront block shows them, in the language the shop's detect
 * method picks from the two (services/translations.ts detectedLanguage) — `{ data: { type, language, texts } }`, every key present, in the
 * order of storefrontTexts (merchant → shipped → primary language → English). The same answer for
 * guests and shoppers; 400 `invalid_query` at `type` for an unknown variant.
 */
export function translationProxyRoutes(deps: AppDeps): Hono<ProxyEnv> {
  const app = new Hono<ProxyEnv>();
  app.get('/translation', async (c) => {
    const catalog = translationCatalog();
    const variant = variantOrThrow(catalog, c.req.query('type'));
    const asked = { page: c.req.query('language'), browser: c.req.query('browserLanguage') };
    const { language, texts } = await storefrontTexts(deps.db, c.var.shopId, variant.id, asked, catalog);
    // A text saved in the admin shows on the next page view.
    c.header('Cache-Control', 'no-cache');
    return c.json({ data: { type: variant.id, language, texts } });
  });
  return app;
}
