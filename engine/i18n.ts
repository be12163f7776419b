/**
 * Translated labels for templates (spec 000 §Languages: the in-app UI speaks en, en-US, fr, es,
 * de, it, ja and id). Templates are written in English; their labels — schema `title` and
 * `description`, and the `ui:title`, `ui:description`, `ui:help`, `ui:placeholder` and
 * `ui:enumNames` texts and the `ui:groups` card titles of `ui.json` — are translated through label catalogs keyed by the English
 * text itself (gettext's msgid model), so one translation of "Start date" serves every template:
 *
 * - `schemas/_i18n/<language>.json`: the shared catalog, `{ "English text": "translation" }`;
 * - `schemas/<family>/<name>/i18n/<language>.json` (optional): the template's own entries, which
 *   win over the shared ones, so a new template can ship its translations in its own folder.
 *
 * English and en-US read the templates as written. `npm run schemas:check` fails when a label has
 * no translation in a language, or a translation loses a `{placeholder}` of its source text.
 */
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { TRANSLATED_LANGUAGES, type InAppLanguage } from './languages';
import { listTemplates, readBases, readSharedParts, resolveTemplate } from './template-loader';
import { isJsonObject, type Json, type JsonObject } from './types';

export { IN_APP_LANGUAGES, isInAppLanguage, SOURCE_LANGUAGES, TRANSLATED_LANGUAGES, type InAppLanguage } from './languages';

/** English text → translated text. */
export type LabelCatalog = Readonly<Record<string, string>>;

/** One translatable text: where it sits (JSON Pointer inside its file) and what it says. */
export interface LabelText {
  path: string;
  text: string;
}

const escape = (s: string): string => s.replace(/~/g, '~0').replace(/\//g, '~1');

/** Schema keywords whose value is a label. */
const SCHEMA_TEXT_KEYS = ['title', 'description'] as const;
/** Keywords whose value is one subschema. */
const SUBSCHEMA_KEYS = ['items', 'additionalProperties', 'not', 'if', 'then', 'else', 'contains', 'additionalItems'] as const;
/** Keywords whose value is a list of subschemas. */
const SUBSCHEMA_LIST_KEYS = ['oneOf', 'anyOf', 'allOf', 'items'] as const;
/** Keywords whose value maps names to subschemas. */
const SUBSCHEMA_MAP_KEYS = ['properties', 'definitions', 'patternProperties', 'dependencies'] as const;
/** ui.json keys (also inside `ui:options`) whose value is a label. */
const UI_TEXT_KEYS = ['ui:title', 'ui:description', 'ui:help', 'ui:placeholder', 'title', 'description', 'help', 'placeholder'] as const;

/**
 * Walks a JSON Schema and calls `visit` for each label (schema `title` and `description`) in
 * schema positions only: values inside `default`, `const`, `enum` or `examples` are data, not labels.
 */
function walkSchema(node: Json, path: string, visit: (holder: JsonObject, key: string, path: string) => void): void {
  if (!isJsonObject(node)) return;
  for (const key of SCHEMA_TEXT_KEYS) if (typeof node[key] === 'string') visit(node, key, `${path}/${key}`);
  for (const key of SUBSCHEMA_KEYS) if (isJsonObject(node[key])) walkSchema(node[key], `${path}/${key}`, visit);
  for (const key of SUBSCHEMA_LIST_KEYS) {
    const list = node[key];
    if (Array.isArray(list)) list.forEach((child, i) => walkSchema(child, `${path}/${key}/${i}`, visit));
  }
  for (const key of SUBSCHEMA_MAP_KEYS) {
    const map = node[key];
    if (isJsonObject(map)) for (const [name, child] of Object.entries(map)) walkSchema(child, `${path}/${key}/${escape(name)}`, visit);
  }
}

/** Walks a ui.json tree and calls `visit` for each label it carries (see UI_TEXT_KEYS and `ui:enumNames`). */
function walkUi(node: Json, path: string, visit: (holder: JsonObject | Json[], key: string | number, path: string) => void): void {
  if (!isJsonObject(node)) return;
  for (const [key, value] of Object.entries(node)) {
    const at = `${path}/${escape(key)}`;
    if (typeof value === 'string' && (UI_TEXT_KEYS as readonly string[]).includes(key) && (key.startsWith('ui:') || path.endsWith('/ui:options'))) visit(node, key, at);
    else if (key === 'ui:enumNames' && Array.isArray(value)) value.forEach((item, i) => typeof item === 'string' && visit(value, i, `${at}/${i}`));
    else if (key === 'ui:groups' && Array.isArray(value)) value.forEach((group, i) => isJsonObject(group) && typeof group.title === 'string' && visit(group, 'title', `${at}/${i}/title`));
    else if (key === 'ui:options' || !key.startsWith('ui:')) walkUi(value, at, visit);
  }
}

/** Every label of a JSON Schema (a template's schema.json or a `_shared` part), with its pointer. */
export function schemaLabels(schema: JsonObject): LabelText[] {
  const out: LabelText[] = [];
  walkSchema(schema, '', (holder, key, path) => out.push({ path, text: holder[key] as string }));
  return out;
}

/** Every label of a ui.json, with its pointer. */
export function uiLabels(uiSchema: JsonObject): LabelText[] {
  const out: LabelText[] = [];
  walkUi(uiSchema, '', (holder, key, path) => out.push({ path, text: (holder as Record<string | number, Json>)[key] as string }));
  return out;
}

/**
 * A translated deep copy of a template's schema and ui.json. Labels without an entry stay in
 * English (schemas:check keeps that from reaching main). An English catalog (`{}`) copies as is.
 */
export function localizeTemplate(schema: JsonObject, uiSchema: JsonObject, catalog: LabelCatalog): { schema: JsonObject; uiSchema: JsonObject } {
  const outSchema = structuredClone(schema);
  const outUi = structuredClone(uiSchema);
  walkSchema(outSchema, '', (holder, key) => {
    holder[key] = translate(holder[key] as string, catalog);
  });
  walkUi(outUi, '', (holder, key) => {
    const h = holder as Record<string | number, Json>;
    h[key] = translate(h[key] as string, catalog);
  });
  return { schema: outSchema, uiSchema: outUi };
}

/** The catalog's translation of `text`, or `text` itself. */
export function translate(text: string, catalog: LabelCatalog): string {
  return Object.hasOwn(catalog, text) ? (catalog[text] as string) : text;
}

/** `{name}` placeholders of a text, sorted, for comparing a translation with its source. */
export function placeholders(text: string): string[] {
  return [...text.matchAll(/\{(\w+)\}/g)].map((m) => m[1] as string).sort();
}

/**
 * Reads one catalog file: a JSON object of strings.
 * @throws Error naming the file when it is not valid JSON or holds a non-string value
 */
export function readCatalog(file: string): Record<string, string> {
  let value: unknown;
  try {
    value = JSON.parse(readFileSync(file, 'utf8'));
  } catch (e) {
    throw new Error(`${file}: invalid JSON: ${(e as Error).message}`);
  }
  if (!isJsonObject(value)) throw new Error(`${file}: a label catalog must be a JSON object of "English": "translation"`);
  for (const [key, text] of Object.entries(value)) {
    if (typeof text !== 'string') throw new Error(`${file}: the translation of "${key}" is not a string`);
  }
  return value as Record<string, string>;
}

/** The label catalogs of one schemas folder: shared ones per language, and each template's own. */
export interface LabelCatalogs {
  /** The catalog a kind is shown with in `language`: its own entries over the shared ones; `{}` for English. */
  forKind(kindId: string, language: InAppLanguage): LabelCatalog;
  /** The shared catalog of a language (`schemas/_i18n/<language>.json`); `{}` for English or when absent. */
  shared(language: InAppLanguage): LabelCatalog;
}

/**
 * Loads `schemas/_i18n/*.json` and every `schemas/<family>/<name>/i18n/*.json` once.
 * @throws Error naming the file when a catalog is unreadable
 */
export function loadLabelCatalogs(schemasDir: string): LabelCatalogs {
  const shared = new Map<string, Record<string, string>>();
  const own = new Map<string, Record<string, string>>();
  const merged = new Map<string, LabelCatalog>();
  for (const language of TRANSLATED_LANGUAGES) {
    const file = join(schemasDir, '_i18n', `${language}.json`);
    shared.set(language, existsSync(file) ? readCatalog(file) : {});
  }
  for (const template of listTemplates(schemasDir)) {
    for (const language of TRANSLATED_LANGUAGES) {
      const file = template.i18nFiles[language];
      if (file !== undefined) own.set(`${template.id}/${language}`, readCatalog(join(schemasDir, file)));
    }
  }
  const sharedOf = (language: InAppLanguage): LabelCatalog => shared.get(language) ?? {};
  return {
    shared: sharedOf,
    forKind(kindId, language) {
      const key = `${kindId}/${language}`;
      let catalog = merged.get(key);
      if (!catalog) {
        catalog = { ...sharedOf(language), ...own.get(key) };
        merged.set(key, catalog);
      }
      return catalog;
    },
  };
}

/** A label found in a schemas folder: the file it is in, the kind that file belongs to (null for `_shared`), pointer and text. */
export interface FoundLabel extends LabelText {
  file: string;
  kindId: string | null;
}

/**
 * Every label under a schemas folder: the `_shared` parts, then each template's schema.json and
 * ui.json as served (merged onto its bases; pointers inside the merged files). Unreadable files
 * are skipped here (the schema lint reports them).
 */
export function labelsUnder(schemasDir: string): FoundLabel[] {
  const out: FoundLabel[] = [];
  const attempt = <T>(read: () => T): T | null => {
    try {
      return read();
    } catch {
      return null;
    }
  };
  for (const [part, raw] of attempt(() => readSharedParts(schemasDir)) ?? []) {
    out.push(...schemaLabels(raw).map((l) => ({ ...l, file: `_shared/${part}.json`, kindId: null })));
  }
  const bases = attempt(() => readBases(schemasDir)) ?? new Map();
  for (const ref of listTemplates(schemasDir)) {
    const template = attempt(() => resolveTemplate(schemasDir, ref, bases));
    if (!template) continue;
    out.push(...schemaLabels(template.schema).map((l) => ({ ...l, file: ref.schemaFile, kindId: ref.id })));
    out.push(...uiLabels(template.ui).map((l) => ({ ...l, file: ref.uiFile ?? `${ref.family}/${ref.name}/ui.json`, kindId: ref.id })));
  }
  return out;
}

/**
 * The English texts under a schemas folder that have no translation in `language`, each once, in
 * the order found: what a translator fills in (`npm run schemas:check -- --missing fr`).
 */
export function untranslatedTexts(schemasDir: string, language: (typeof TRANSLATED_LANGUAGES)[number]): string[] {
  const catalogs = loadLabelCatalogs(schemasDir);
  const missing = new Set<string>();
  for (const label of labelsUnder(schemasDir)) {
    const catalog = label.kindId ? catalogs.forKind(label.kindId, language) : catalogs.shared(language);
    if (!Object.hasOwn(catalog, label.text)) missing.add(label.text);
  }
  return [...missing];
}
