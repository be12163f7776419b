/**
 * Storefront translations (issue 13; spec 001 §2 Translation editor, §3 Translation, §4, §7
 * `GET /translation` and `POST /translation`, §8 "translationsSaved" / "failedToSaveTranslations").
 *
 * Data, not code:
 * - a translation variant is a descriptor `schemas/translation/<variant>.json` (tabs, each key's
 *   label; checked against `schemas/translation/_variant.schema.json`) plus its shipped texts
 *   `schemas/_storefront/<variant>/<language>.json` (flat key → text with `{{placeholders}}`).
 *   English (`en.json`) is the source: it has every key and names each text's placeholders. A key
 *   of en.json that no tab lists is still editable (the descriptor's last tab "More texts").
 * - a shop's saved translation is one row of `translations` (migration 0026): primaryLanguage,
 *   detectMethod, additionalLanguages and the merchant's own texts, `content[language][variant][key]`.
 *
 * What the storefront shows for a key (`storefrontTexts`): the merchant's text in the shopper's
 * language → the shipped text of that language → the merchant's text in the primary language →
 * the shipped text of the primary language → the English shipped text. Never the key.
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Db } from '../db/database';
import { ApiError } from '../errors';
import { projectRoot } from '../paths';
import type { FieldIssue } from '../../engine/types';
import { findStorefrontLanguage } from '../../engine/storefront-languages';

/** The language every variant's texts are written in first; it has every key. */
export const SOURCE_LANGUAGE = 'en';

/** How the storefront picks the shopper's language (spec 001 §3 Translation "by customer IP or browser language"). */
export const DETECT_METHODS = ['browser_language', 'customer_ip'] as const;
export type DetectMethod = (typeof DETECT_METHODS)[number];

/** The longest text a merchant may save for one key, in characters. */
export const MAX_TEXT_LENGTH = 1000;

/** A field of a variant's tab: the text key and its label in the editor. */
export interface VariantField {
  key: string;
  label: string;
}

/** A tab (group) of a variant in the editor. */
export interface VariantTab {
  id: string;
  title: string;
  fields: VariantField[];
}

/** A translation variant as described in `schemas/translation/<variant>.json`. */
export interface VariantDescriptor {
  id: string;
  title: string;
  description: string;
  /** Position in the /translations list (ascending). */
  order: number;
  /** The editor shows the earning and spending programs' names (their `translateTitle`). */
  programNames?: boolean;
  /** Admin pages that design what this variant words (spec 001 §2 links). */
  links?: { label: string; to: string }[];
  tabs: VariantTab[];
}

/** A variant with its shipped texts, read from the schemas folder. */
export interface LoadedVariant extends VariantDescriptor {
  /** Shipped texts by language code; `en` has every key. */
  shipped: Record<string, Record<string, string>>;
  /** Each key's placeholders in the English text (`["points", "pointLabel"]`), sorted. */
  placeholders: Record<string, string[]>;
}

/** Every variant, the storefront languages, read once. */
export interface TranslationCatalog {
  /** Variants in their `order`. */
  variants: LoadedVariant[];
  byId: Map<string, LoadedVariant>;
  /** Storefront language codes (spec: about 30): the program-name languages and every shipped file. */
  languages: string[];
  /**
   * Storefront language → the code a program's name is saved under in `translateTitle`
   * (schemas/_shared/translate-title.json: `he` → `he-IL`, `pt-BR` → `pt`); languages without one are absent.
   */
  programNameLanguages: Record<string, string>;
  /**
   * The editor's labels in the in-app languages: language → English text (variant and tab titles,
   * descriptions, field and link labels) → its translation, from `schemas/translation/_i18n/<language>.json`.
   */
  labels: Record<string, Record<string, string>>;
}

/** A shop's translation (spec 001 §3 Translation); what `GET /api/translation` answers in `data`. */
export interface TranslationSettings {
  /** The storefront language texts fall back to before English. */
  primaryLanguage: string;
  detectMethod: DetectMethod;
  /** Languages the merchant edits besides the primary one (never the primary one). */
  additionalLanguages: string[];
  /** The merchant's own texts: language → variant → key → text. Keys absent show the shipped text. */
  content: Record<string, Record<string, Record<string, string>>>;
}

/**
 * What a shop that never saved reads. The default detect method is `customer_ip`: the storefront's
 * own language, which the platform picks per market from the visitor's IP and the shopper may
 * change, so the widget speaks the language of the page around it until the merchant asks for the
 * browser's.
 */
export const DEFAULT_TRANSLATION: TranslationSettings = { primaryLanguage: SOURCE_LANGUAGE, detectMethod: 'customer_ip', additionalLanguages: [], content: {} };

const PLACEHOLDER = /\{\{\s*([^{}\s]+)\s*\}\}/g;

/** The `{{name}}` placeholders of a text, unique and sorted. */
export function placeholdersOf(text: string): string[] {
  return [...new Set([...text.matchAll(PLACEHOLDER)].map((m) => m[1] as string))].sort();
}

const readJson = (file: string): unknown => JSON.parse(readFileSync(file, 'utf8')) as unknown;

function readTexts(dir: string): Record<string, Record<string, string>> {
  const out: Record<string, Record<string, string>> = {};
  if (!existsSync(dir)) return out;
  for (const file of readdirSync(dir).filter((f) => f.endsWith('.json')).sort()) out[file.slice(0, -'.json'.length)] = readJson(join(dir, file)) as Record<string, string>;
  return out;
}

/**
 * Reads every variant descriptor and its shipped texts from `schemasDir`. Keys of en.json no tab
 * lists are put on a last tab `more` labelled by their key; keys a tab lists that en.json lacks are
 * dropped (tests/api/translations.test.ts checks both never happen in the shipped files).
 * @throws Error naming the file when a descriptor has no en.json
 */
export function loadTranslationCatalog(schemasDir = join(projectRoot(), 'schemas')): TranslationCatalog {
  const dir = join(schemasDir, 'translation');
  const variants: LoadedVariant[] = [];
  const languages = new Set<string>();
  const titleLanguages = (readJson(join(schemasDir, '_shared', 'translate-title.json')) as { propertyNames?: { enum?: string[] } }).propertyNames?.enum ?? [];
  for (const l of titleLanguages) languages.add(l);
  const files = existsSync(dir) ? readdirSync(dir).filter((f) => f.endsWith('.json') && !f.startsWith('_')).sort() : [];
  for (const file of files) {
    const descriptor = readJson(join(dir, file)) as VariantDescriptor;
    const shipped = readTexts(join(schemasDir, '_storefront', descriptor.id));
    const english = shipped[SOURCE_LANGUAGE];
    if (!english) throw new Error(`schemas/translation/${file}: no schemas/_storefront/${descriptor.id}/en.json`);
    for (const l of Object.keys(shipped)) languages.add(l);
    const listed = new Set<string>();
    const tabs = descriptor.tabs.map((tab) => ({ ...tab, fields: tab.fields.filter((f) => f.key in english && !listed.has(f.key) && listed.add(f.key)) }));
    const rest = Object.keys(english).filter((k) => !listed.has(k));
    if (rest.length > 0) tabs.push({ id: 'more', title: 'More texts', fields: rest.map((key) => ({ key, label: key })) });
    const placeholders = Object.fromEntries(Object.entries(english).map(([k, v]) => [k, placeholdersOf(v)]));
    variants.push({ ...descriptor, tabs, shipped, placeholders });
  }
  variants.sort((a, b) => a.order - b.order || a.id.localeCompare(b.id));
  const sorted = [...languages].sort();
  const programNameLanguages: Record<string, string> = {};
  for (const l of sorted) {
    const code = titleLanguages.includes(l) ? l : findStorefrontLanguage(l, titleLanguages);
    if (code) programNameLanguages[l] = code;
  }
  const labels = readTexts(join(dir, '_i18n'));
  return { variants, byId: new Map(variants.map((v) => [v.id, v])), languages: sorted, programNameLanguages, labels };
}

/** An editor label (written in English in the descriptors) in the in-app `language`; English when it has no entry. */
export function localizeLabel(catalog: TranslationCatalog, language: string, text: string): string {
  return catalog.labels[language]?.[text] || text;
}

let cached: TranslationCatalog | undefined;

/** The catalog of the project's schemas folder, read on first use. */
export function translationCatalog(): TranslationCatalog {
  cached ??= loadTranslationCatalog();
  return cached;
}

/** The variant, or ApiError 400 `invalid_query` at `type`. */
export function variantOrThrow(catalog: TranslationCatalog, id: string | undefined): LoadedVariant {
  const found = id ? catalog.byId.get(id) : undefined;
  if (!found) throw new ApiError(400, 'invalid_query', 'Value invalid', [{ path: 'type', message: `Must be one of ${catalog.variants.map((v) => v.id).join(', ')}` }]);
  return found;
}

/** The shipped texts of `variant` in `language` (`he-IL` reads he, `pt` pt-BR), every key present (English filling the gaps). */
export function shippedTexts(variant: LoadedVariant, language: string): Record<string, string> {
  return { ...variant.shipped[SOURCE_LANGUAGE], ...shippedIn(variant, language) };
}

/** The shipped file of `variant` that serves `language` by the storefront matching rule (engine/storefront-languages.ts); empty when none does. */
function shippedIn(variant: LoadedVariant, language: string): Record<string, string> {
  return variant.shipped[findStorefrontLanguage(language, Object.keys(variant.shipped)) ?? language] ?? {};
}

const pointer = (...parts: string[]): string => '/' + parts.map((p) => p.replace(/~/g, '~0').replace(/\//g, '~1')).join('/');
const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

/**
 * Checks a whole translation object (the body of `POST /api/translation`) and answers it
 * normalised: empty texts dropped (they show the shipped text), empty languages and variants dropped.
 * Rules: primaryLanguage and every additional language a storefront language; additional languages
 * unique and not the primary one; detectMethod one of DETECT_METHODS; content keyed by storefront
 * language, then variant, then a key of that variant's en.json; each text a string of at most
 * MAX_TEXT_LENGTH characters with exactly the placeholders of the English text.
 * @throws ApiError 422 `validation_failed` listing every issue with its JSON Pointer
 *   (`/content/fr/widget-design/welcome.balance`)
 */
export function validateTranslation(catalog: TranslationCatalog, body: Record<string, unknown>): TranslationSettings {
  const issues: FieldIssue[] = [];
  const languages = new Set(catalog.languages);
  for (const key of Object.keys(body)) {
    if (!['primaryLanguage', 'detectMethod', 'additionalLanguages', 'content', 'version'].includes(key)) issues.push({ path: pointer(key), message: 'Unknown field' });
  }
  const primaryLanguage = body.primaryLanguage ?? DEFAULT_TRANSLATION.primaryLanguage;
  if (typeof primaryLanguage !== 'string' || !languages.has(primaryLanguage)) issues.push({ path: '/primaryLanguage', message: 'Choose a storefront language' });
  const detectMethod = body.detectMethod ?? DEFAULT_TRANSLATION.detectMethod;
  if (typeof detectMethod !== 'string' || !(DETECT_METHODS as readonly string[]).includes(detectMethod)) issues.push({ path: '/detectMethod', message: `Must be one of ${DETECT_METHODS.join(', ')}` });
  const additional = body.additionalLanguages ?? [];
  const additionalLanguages: string[] = [];
  if (!Array.isArray(additional)) issues.push({ path: '/additionalLanguages', message: 'Must be a list of language codes' });
  else {
    additional.forEach((code, i) => {
      if (typeof code !== 'string' || !languages.has(code)) issues.push({ path: `/additionalLanguages/${i}`, message: 'Choose a storefront language' });
      else if (code === primaryLanguage) issues.push({ path: `/additionalLanguages/${i}`, message: 'The primary language is not an additional language' });
      else if (additionalLanguages.includes(code)) issues.push({ path: `/additionalLanguages/${i}`, message: 'This language is listed twice' });
      else additionalLanguages.push(code);
    });
  }
  const content: TranslationSettings['content'] = {};
  const rawContent = body.content ?? {};
  if (!isObject(rawContent)) issues.push({ path: '/content', message: 'Must be an object of languages' });
  else {
    for (const [language, byVariant] of Object.entries(rawContent)) {
      if (!languages.has(language)) {
        issues.push({ path: pointer('content', language), message: 'Not a storefront language' });
        continue;
      }
      if (!isObject(byVariant)) {
        issues.push({ path: pointer('content', language), message: 'Must be an object of translation variants' });
        continue;
      }
      for (const [variantId, texts] of Object.entries(byVariant)) {
        const variant = catalog.byId.get(variantId);
        if (!variant) {
          issues.push({ path: pointer('content', language, variantId), message: `Unknown translation variant; use one of ${catalog.variants.map((v) => v.id).join(', ')}` });
          continue;
        }
        if (!isObject(texts)) {
          issues.push({ path: pointer('content', language, variantId), message: 'Must be an object of texts' });
          continue;
        }
        for (const [key, text] of Object.entries(texts)) {
          const path = pointer('content', language, variantId, key);
          const wanted = variant.placeholders[key];
          if (!wanted) {
            issues.push({ path, message: 'Unknown text key' });
            continue;
          }
          if (typeof text !== 'string') {
            issues.push({ path, message: 'Must be a text' });
            continue;
          }
          if (text.trim() === '') continue;
          if (text.length > MAX_TEXT_LENGTH) {
            issues.push({ path, message: `Must be at most ${MAX_TEXT_LENGTH} characters` });
            continue;
          }
          const placeholderIssue = comparePlaceholders(wanted, placeholdersOf(text));
          if (placeholderIssue) {
            issues.push({ path, message: placeholderIssue });
            continue;
          }
          ((content[language] ??= {})[variantId] ??= {})[key] = text;
        }
      }
    }
  }
  if (issues.length > 0) throw new ApiError(422, 'validation_failed', 'Failed to save translations', issues);
  return { primaryLanguage: primaryLanguage as string, detectMethod: detectMethod as DetectMethod, additionalLanguages, content };
}

/**
 * The placeholder rule (issue 13): a translation keeps exactly the default text's `{{placeholders}}`.
 * @returns the message for the field, or null when the placeholders agree
 */
export function comparePlaceholders(wanted: readonly string[], found: readonly string[]): string | null {
  const missing = wanted.filter((p) => !found.includes(p));
  const extra = found.filter((p) => !wanted.includes(p));
  if (missing.length === 0 && extra.length === 0) return null;
  const list = (names: string[]) => names.map((n) => `{{${n}}}`).join(', ');
  if (missing.length > 0 && extra.length === 0) return `Keep the placeholders of the default text: ${list(missing)} is missing`;
  if (extra.length > 0 && missing.length === 0) return `${list(extra)} is not a placeholder of this text; use only ${wanted.length > 0 ? list([...wanted]) : 'none'}`;
  return `Keep exactly the placeholders ${wanted.length > 0 ? list([...wanted]) : '(none)'}: ${list(missing)} is missing and ${list(extra)} is unknown`;
}

/** A shop's saved translation and its edit version (0 when never saved). */
export interface StoredTranslation {
  data: TranslationSettings;
  version: number;
}

/** The shop's translation, defaults when never saved. */
export async function readTranslation(db: Db, shopId: string): Promise<StoredTranslation> {
  const row = await db.selectFrom('translations').select(['data', 'version']).where('shop_id', '=', shopId).executeTakeFirst();
  if (!row) return { data: structuredClone(DEFAULT_TRANSLATION), version: 0 };
  return { data: { ...structuredClone(DEFAULT_TRANSLATION), ...(JSON.parse(row.data) as Partial<TranslationSettings>) }, version: row.version };
}

/**
 * Saves the whole translation object (spec 001 §7 `POST /translation`): validated first
 * (`validateTranslation`), then written whole, replacing the shop's previous texts.
 * @param body the translation object; its optional `version` must be the stored one
 * @throws ApiError 422 `validation_failed` with field paths (nothing written); 409
 *   `version_conflict` when `version` is stale or another save won the race
 */
export async function saveTranslation(db: Db, shopId: string, body: Record<string, unknown>, now: string, catalog = translationCatalog()): Promise<StoredTranslation> {
  const data = validateTranslation(catalog, body);
  const expected = body.version;
  if (expected !== undefined && (typeof expected !== 'number' || !Number.isInteger(expected))) {
    throw new ApiError(422, 'validation_failed', 'Failed to save translations', [{ path: '/version', message: 'Must be a whole number' }]);
  }
  const conflict = () => new ApiError(409, 'version_conflict', 'Someone else saved the translations. Reload to see their changes.');
  return db.transaction().execute(async (tx) => {
    const row = await tx.selectFrom('translations').select('version').where('shop_id', '=', shopId).executeTakeFirst();
    const current = row?.version ?? 0;
    if (expected !== undefined && expected !== current) throw conflict();
    const text = JSON.stringify(data);
    if (!row) {
      await tx.insertInto('translations').values({ shop_id: shopId, data: text, version: 1, updated_at: now }).execute();
      return { data, version: 1 };
    }
    const updated = await tx.updateTable('translations').set({ data: text, version: current + 1, updated_at: now }).where('shop_id', '=', shopId).where('version', '=', current).executeTakeFirst();
    if (Number(updated.numUpdatedRows) !== 1) throw conflict();
    return { data, version: current + 1 };
  });
}

/**
 * The language that serves `requested` (a storefront or browser language such as `fr-CA`, `pt_BR`,
 * `zh-Hant-TW`, `nb-NO`) among `available`, by the storefront matching rule
 * (engine/storefront-languages.ts: exact code, region without script, Chinese script and
 * Portuguese region, old codes, base language); null when none serves it.
 */
export function matchLanguage(requested: string | undefined, available: Iterable<string>): string | null {
  return findStorefrontLanguage(requested, available) ?? null;
}

/** The languages a storefront call names: the page's (`<html lang>`, which the platform picks per market from the visitor's IP) and the browser's. */
export interface ShopperLanguages {
  page?: string;
  browser?: string;
}

/**
 * The language tag to serve by the shop's detect method (spec 001 §3 Translation "by customer IP
 * or browser language"): `browser_language` reads the browser's language first, `customer_ip` the
 * page's (the platform localises the storefront from the visitor's IP); each falls back to the other.
 */
export function detectedLanguage(method: DetectMethod, asked: ShopperLanguages): string | undefined {
  const pick = (v: string | undefined) => (v && v.trim() ? v : undefined);
  return method === 'browser_language' ? (pick(asked.browser) ?? pick(asked.page)) : (pick(asked.page) ?? pick(asked.browser));
}

/**
 * The texts the storefront shows for one variant in the shopper's language, every key present
 * (see the file comment for the order). The language served is `requested` when the variant has
 * shipped or merchant texts in it (exact code, then base language), else the primary language.
 * `requested` may name the page's and the browser's language: the shop's detect method picks one.
 * @example await storefrontTexts(db, shop, 'widget-design', 'fr-CA') // { language: 'fr', texts: { 'panel.title': 'Récompenses', … } }
 */
export async function storefrontTexts(db: Db, shopId: string, variantId: string, requested: string | ShopperLanguages | undefined, catalog = translationCatalog()): Promise<{ language: string; texts: Record<string, string> }> {
  const variant = catalog.byId.get(variantId);
  if (!variant) throw new Error(`Unknown translation variant ${variantId}`);
  const { data } = await readTranslation(db, shopId);
  if (typeof requested === 'object') requested = detectedLanguage(data.detectMethod, requested);
  const primary = data.primaryLanguage;
  const available = new Set([...Object.keys(variant.shipped), ...Object.keys(data.content).filter((l) => data.content[l]?.[variantId]), primary]);
  const language = matchLanguage(requested, available) ?? primary;
  const texts = {
    ...variant.shipped[SOURCE_LANGUAGE],
    ...shippedIn(variant, primary),
    ...(data.content[primary]?.[variantId] ?? {}),
    ...shippedIn(variant, language),
    ...(data.content[language]?.[variantId] ?? {}),
  };
  return { language, texts };
}
