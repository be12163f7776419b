/**
 * `GET /proxy/widget` (issue 13; docs/storefront-api.md): the storefront widget's public
 * configuration — the shop's saved design (defaults when none), the widget texts in the shopper's
 * language with every missing text taken from the primary language (never a key), and the point
 * label and currency. The same answer for guests and shoppers: nothing personal.
 *
 * Texts are the translation variant `widget-design` (spec 001 §4 translation variants): shipped
 * defaults in `schemas/_storefront/widget-design/<language>.json`; English is the primary language
 * and has every key. Product staff add a language by adding a file.
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { Hono } from 'hono';
import type { AppDeps } from '../deps';
import { projectRoot } from '../paths';
import { findShop } from '../store/shops';
import { DEFAULT_SETTINGS, shopSettings } from '../services/settings';
import { listDocuments } from '../store/documents';
import { resolveDesign, type EarnRate, type StorefrontSections, type WidgetDesign } from '../../engine/widget-design';
import { storefrontSections } from './storefront-sections';
import { storefrontTexts } from '../services/translations';
import { matchStorefrontLanguage } from '../../engine/storefront-languages';
import type { ProxyEnv } from './middleware';

/** The document kind that holds a shop's saved widget design (at most one per shop). */
export const WIDGET_DESIGN_KIND = 'storefront.widget_design';

/** The primary storefront language: every text key exists in it. */
export const PRIMARY_WIDGET_LANGUAGE = 'en';

/** Shipped widget texts by language code (`en`, `fr`, `pt-BR`, …), read once from `dir`. */
export function loadWidgetTexts(dir = join(projectRoot(), 'schemas', '_storefront', 'widget-design')): Record<string, Record<string, string>> {
  const out: Record<string, Record<string, string>> = {};
  if (!existsSync(dir)) return out;
  for (const file of readdirSync(dir).filter((f) => f.endsWith('.json')).sort()) {
    out[file.slice(0, -'.json'.length)] = JSON.parse(readFileSync(join(dir, file), 'utf8')) as Record<string, string>;
  }
  return out;
}

/**
 * The shipped language that serves `requested` (a storefront or browser language such as `fr-CA`,
 * `pt_BR`, `zh-Hant-TW`): the matching rule of engine/storefront-languages.ts, else the primary language.
 */
export function widgetLanguage(requested: string | undefined, available: readonly string[]): string {
  return matchStorefrontLanguage(requested, available, PRIMARY_WIDGET_LANGUAGE);
}

/** What `GET /proxy/widget` answers in `data`. */
export interface WidgetConfig {
  design: WidgetDesign;
  /** Every widget text key, in `language` or the primary language. */
  texts: Record<string, string>;
  language: string;
  /** Languages with shipped texts. */
  languages: string[];
  shop: { currency: string; pointLabel: { singular: string; plural: string } };
  /** The storefront and branding sections switched on (server/proxy/storefront-sections.ts). */
  sections: StorefrontSections;
  /** The place-order rate the point calculator uses; null without an active place-order program. */
  earnRate: EarnRate | null;
}

/** The widget configuration routes; texts are read once when the routes are built. */
export function widgetProxyRoutes(deps: AppDeps): Hono<ProxyEnv> {
  const app = new Hono<ProxyEnv>();
  const shipped = loadWidgetTexts();
  const languages = Object.keys(shipped);
  app.get('/widget', async (c) => {
    // The merchant's texts (translation editor) → shipped for the language → primary language → English.
    // `language` is the page's, `browserLanguage` the browser's (optional): the shop's detect method picks one.
    const { language, texts } = await storefrontTexts(deps.db, c.var.shopId, 'widget-design', { page: c.req.query('language'), browser: c.req.query('browserLanguage') });
    const [shop, designs, settings, storefront] = await Promise.all([findShop(deps.db, c.var.shopId), listDocuments(deps.db, c.var.shopId, [WIDGET_DESIGN_KIND]), shopSettings(deps.db, c.var.shopId), storefrontSections(deps, c.var.shopId)]);
    const label = settings.general.pointLabel;
    const custom = label.singular !== DEFAULT_SETTINGS.general.pointLabel.singular || label.plural !== DEFAULT_SETTINGS.general.pointLabel.plural;
    const data: WidgetConfig = {
      design: resolveDesign(designs[0]?.data),
      texts,
      language,
      languages,
      shop: {
        currency: shop?.currency ?? 'USD',
        // A custom label (Settings → General) is the merchant's word in every language; else the language's own.
        pointLabel: custom ? { singular: label.singular, plural: label.plural } : { singular: texts['pointLabel.singular']!, plural: texts['pointLabel.plural']! },
      },
      sections: storefront.sections,
      earnRate: storefront.earnRate,
    };
    // A design saved in the admin shows on the next page view.
    c.header('Cache-Control', 'no-cache');
    return c.json({ data });
  });
  return app;
}
