/**
 * The one reader of the schemas folder (issue 15): every walk over `schemas/` — the registry, the
 * schema lint, the label catalogs and the tests — goes through here.
 *
 * Layout read:
 * - `<family>/<name>/schema.json` (+ optional `ui.json`, `i18n/<language>.json`): one template per
 *   kind; folders starting with `_` or `.` are not families;
 * - `_shared/<part>.json`: schema parts referenced as `"$ref": "_shared/<part>.json"`;
 * - `_bases/<base>.json` (+ optional `_bases/<base>.ui.json`): the shared part of a group of
 *   templates, named from a template (or another base) by `"x-extends": "<base>"` or a list.
 *
 * Merging a template onto its bases (`resolveTemplate`), so the served schema stays one flat
 * draft-07 object:
 * - bases are applied in the order listed (a base's own `x-extends` first), then the template;
 * - objects are merged key by key, at every depth (a template's `"title": { "default": "X" }`
 *   changes the default of the base's `title` field only); any other value (text, number, list) of
 *   the template replaces the base's, so a template's `ui:order` wins;
 * - a key the base has keeps the base's place; a new key goes right after the key written before
 *   it in the template (`"earnPoint": {}` places the following new fields after `earnPoint`
 *   without changing it), or at the end when it is written first;
 * - `required` is the union, placed the same way: the base's names in order, a new name right after
 *   the name written before it in the template's `required` (or at the end when written first);
 * - `"x-omit": ["field"]` drops a base field from `properties`, `required` and the bases' ui.json
 *   (its `ui:order` and `ui:groups` included);
 * - the top-level keywords come out in the template order (`$schema`, `title`, `description`,
 *   `type`, …, `required`, `properties`); `x-extends`, `x-omit` and a base's `$comment` are not served.
 */
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { cloneJson, isJsonObject, type Json, type JsonObject } from './types';

/** The folder holding the bases, relative to the schemas folder. */
export const BASES_FOLDER = '_bases';
/** Template keywords that steer the merge and are not served. */
export const MERGE_KEYWORDS = ['x-extends', 'x-omit'] as const;

/** A template or base file that cannot be read or merged: `file` relative to the schemas folder, `path` a JSON Pointer. */
export class TemplateFileError extends Error {
  constructor(
    readonly file: string,
    readonly path: string,
    message: string,
  ) {
    super(`${file}${path ? ` at ${path}` : ''}: ${message}`);
    this.name = 'TemplateFileError';
  }
}

/** One template folder found under the schemas folder. */
export interface TemplateRef {
  family: string;
  name: string;
  /** `<family>.<name>`. */
  id: string;
  /** `<family>/<name>/schema.json`, relative to the schemas folder. */
  schemaFile: string;
  /** `<family>/<name>/ui.json`, or null when the folder has none. */
  uiFile: string | null;
  /** The template's own label catalogs: language → file relative to the schemas folder. */
  i18nFiles: Record<string, string>;
}

/** One base: its schema part and ui part as written. */
export interface BaseFile {
  name: string;
  /** `_bases/<name>.json`. */
  file: string;
  schema: JsonObject;
  /** `_bases/<name>.ui.json`, or null. */
  uiFile: string | null;
  ui: JsonObject;
}

/** A template as written and as served (merged onto its bases, not yet bundled). */
export interface ResolvedTemplate extends TemplateRef {
  /** schema.json as written. */
  raw: JsonObject;
  /** ui.json as written (`{}` when absent). */
  rawUi: JsonObject;
  /** The flat schema: bases merged in, merge keywords removed, `_shared` references kept. */
  schema: JsonObject;
  /** The merged ui.json. */
  ui: JsonObject;
  /** The bases applied, in order (a base's own bases first). */
  bases: string[];
}

/** Top-level schema keywords in the order every template writes them. */
const TOP_ORDER = [
  '$schema',
  '$id',
  'title',
  'description',
  'type',
  'additionalProperties',
  'x-kind',
  'x-family',
  'x-name',
  'x-version',
  'x-category',
  'x-feature',
  'x-order',
  'x-singleton',
  'required',
  'properties',
  'definitions',
];

const visibleFolders = (dir: string): string[] =>
  existsSync(dir)
    ? readdirSync(dir)
        .filter((name) => !name.startsWith('_') && !name.startsWith('.') && statSync(join(dir, name)).isDirectory())
        .sort()
    : [];

/**
 * Reads a JSON object file relative to `schemasDir`.
 * @throws TemplateFileError naming the file when it is not valid JSON or not an object
 */
export function readJsonObject(schemasDir: string, rel: string): JsonObject {
  const text = readFileSync(join(schemasDir, rel), 'utf8');
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (e) {
    throw new TemplateFileError(rel, '', `invalid JSON: ${(e as Error).message}`);
  }
  if (!isJsonObject(value)) throw new TemplateFileError(rel, '', 'invalid JSON: not a JSON object');
  return value;
}

/** Every template folder, sorted by family then name (folders starting with `_` or `.` skipped). */
export function listTemplates(schemasDir: string): TemplateRef[] {
  const out: TemplateRef[] = [];
  for (const family of visibleFolders(schemasDir)) {
    for (const name of visibleFolders(join(schemasDir, family))) {
      const dir = `${family}/${name}`;
      const i18nDir = join(schemasDir, dir, 'i18n');
      const i18nFiles: Record<string, string> = {};
      if (existsSync(i18nDir)) {
        for (const file of readdirSync(i18nDir).filter((f) => f.endsWith('.json')).sort()) i18nFiles[file.replace(/\.json$/, '')] = `${dir}/i18n/${file}`;
      }
      out.push({
        family,
        name,
        id: `${family}.${name}`,
        schemaFile: `${dir}/schema.json`,
        uiFile: existsSync(join(schemasDir, dir, 'ui.json')) ? `${dir}/ui.json` : null,
        i18nFiles,
      });
    }
  }
  return out;
}

/** The `_shared` parts by name (`date` for `_shared/date.json`), sorted by name. */
export function readSharedParts(schemasDir: string): Map<string, JsonObject> {
  const shared = new Map<string, JsonObject>();
  const dir = join(schemasDir, '_shared');
  if (!existsSync(dir)) return shared;
  for (const file of readdirSync(dir).filter((f) => f.endsWith('.json')).sort()) shared.set(file.replace(/\.json$/, ''), readJsonObject(schemasDir, `_shared/${file}`));
  return shared;
}

/**
 * The bases under `_bases/` by name, sorted.
 * @throws TemplateFileError for an unreadable base file
 */
export function readBases(schemasDir: string): Map<string, BaseFile> {
  const bases = new Map<string, BaseFile>();
  const dir = join(schemasDir, BASES_FOLDER);
  if (!existsSync(dir)) return bases;
  for (const file of readdirSync(dir).filter((f) => f.endsWith('.json') && !f.endsWith('.ui.json')).sort()) {
    const name = file.replace(/\.json$/, '');
    const uiRel = `${BASES_FOLDER}/${name}.ui.json`;
    const hasUi = existsSync(join(schemasDir, uiRel));
    bases.set(name, { name, file: `${BASES_FOLDER}/${file}`, schema: readJsonObject(schemasDir, `${BASES_FOLDER}/${file}`), uiFile: hasUi ? uiRel : null, ui: hasUi ? readJsonObject(schemasDir, uiRel) : {} });
  }
  return bases;
}

/** The base names a schema extends (`x-extends`: one name or a list), as written. */
export function extendsOf(schema: JsonObject): string[] {
  const value = schema['x-extends'];
  if (typeof value === 'string') return [value];
  return Array.isArray(value) ? value.filter((v): v is string => typeof v === 'string') : [];
}

/** The base fields a schema drops (`x-omit`). */
export function omitsOf(schema: JsonObject): string[] {
  const value = schema['x-omit'];
  return Array.isArray(value) ? value.filter((v): v is string => typeof v === 'string') : [];
}

/**
 * Merges `over` onto `base` (both JSON objects), key by key at every depth: see the module comment
 * for places of new keys. Other values of `over` replace. Neither input is changed.
 * @example mergeOrdered({ a: 1, b: { x: 1 } }, { b: { y: 2 }, c: 3 }) // { a: 1, b: { x: 1, y: 2 }, c: 3 }
 */
export function mergeOrdered(base: JsonObject, over: JsonObject): JsonObject {
  // Keys in order, and where each stands: a template's new key goes right after the one written before it.
  const keys = Object.keys(base);
  const values = new Map<string, Json>();
  for (const key of keys) values.set(key, cloneJson(base[key] as Json));
  let cursor: number | undefined;
  for (const key of Object.keys(over)) {
    const value = over[key] as Json;
    const current = values.get(key);
    if (current !== undefined) {
      values.set(key, isJsonObject(current) && isJsonObject(value) ? mergeOrdered(current, value) : cloneJson(value));
      cursor = keys.indexOf(key) + 1;
    } else {
      const position = cursor ?? keys.length;
      keys.splice(position, 0, key);
      values.set(key, cloneJson(value));
      cursor = position + 1;
    }
  }
  return Object.fromEntries(keys.map((key) => [key, values.get(key) as Json]));
}

/** A schema/ui pair being merged. */
interface Layer {
  schema: JsonObject;
  ui: JsonObject;
}

const strings = (value: Json | undefined): string[] => (Array.isArray(value) ? value.filter((v): v is string => typeof v === 'string') : []);

/** Drops the fields `omit` from a merged layer: properties, required, ui entries and the ui:order. */
function withoutFields(layer: Layer, omit: readonly string[]): Layer {
  if (omit.length === 0) return layer;
  const schema = { ...layer.schema };
  if (isJsonObject(schema.properties)) schema.properties = Object.fromEntries(Object.entries(schema.properties).filter(([k]) => !omit.includes(k)));
  if (Array.isArray(schema.required)) schema.required = strings(schema.required).filter((k) => !omit.includes(k));
  const ui = Object.fromEntries(Object.entries(layer.ui).filter(([k]) => !omit.includes(k)));
  if (Array.isArray(ui['ui:order'])) ui['ui:order'] = strings(ui['ui:order']).filter((k) => !omit.includes(k));
  if (Array.isArray(ui['ui:groups'])) {
    ui['ui:groups'] = ui['ui:groups'].map((group) => (isJsonObject(group) && Array.isArray(group.fields) ? { ...group, fields: strings(group.fields).filter((k) => !omit.includes(k)) } : group));
  }
  return { schema, ui };
}

/** Applies one layer (`over`, as written, with its x-omit) onto the merged `base`. */
function applyLayer(base: Layer, over: Layer, dropTopKeys: readonly string[]): Layer {
  const kept = withoutFields(base, omitsOf(over.schema));
  const { required: baseRequired, ...baseRest } = kept.schema;
  const { required: ownRequired, ...ownRest } = over.schema;
  for (const key of [...MERGE_KEYWORDS, ...dropTopKeys]) delete ownRest[key];
  const merged = mergeOrdered(baseRest, ownRest);
  const asKeys = (names: string[]): JsonObject => Object.fromEntries(names.map((n) => [n, true]));
  const required = Object.keys(mergeOrdered(asKeys(strings(baseRequired)), asKeys(strings(ownRequired))));
  if (baseRequired !== undefined || ownRequired !== undefined) merged.required = required;
  const ordered: JsonObject = {};
  for (const key of TOP_ORDER) if (key in merged) ordered[key] = merged[key] as Json;
  for (const [key, value] of Object.entries(merged)) if (!(key in ordered)) ordered[key] = value;
  return { schema: ordered, ui: mergeOrdered(kept.ui, over.ui) };
}

/**
 * A base merged with its own bases (cycle-safe), as one layer.
 * @throws TemplateFileError for an unknown base or a cycle, naming `file` (the file that names it)
 */
function resolveBase(name: string, bases: ReadonlyMap<string, BaseFile>, file: string, seen: readonly string[], order: string[]): Layer {
  const base = bases.get(name);
  if (!base) throw new TemplateFileError(file, '/x-extends', `unknown base "${name}" (no ${BASES_FOLDER}/${name}.json)`);
  if (seen.includes(name)) throw new TemplateFileError(base.file, '/x-extends', `bases extend each other in a cycle: ${[...seen, name].join(' → ')}`);
  const layer = stack(base.schema, base.ui, bases, base.file, [...seen, name], order);
  if (!order.includes(name)) order.push(name);
  return layer;
}

/** The schema/ui of `schema` + `ui` over everything it extends. */
function stack(schema: JsonObject, ui: JsonObject, bases: ReadonlyMap<string, BaseFile>, file: string, seen: readonly string[], order: string[]): Layer {
  let layer: Layer = { schema: {}, ui: {} };
  for (const name of extendsOf(schema)) layer = applyLayer(layer, resolveBase(name, bases, file, seen, order), []);
  return applyLayer(layer, { schema, ui }, seen.length > 0 ? ['$comment'] : []);
}

/**
 * The merged view of a base alone (its own bases applied), for the lint.
 * @throws TemplateFileError for an unknown base or a cycle
 */
export function resolveBaseLayer(name: string, bases: ReadonlyMap<string, BaseFile>): { schema: JsonObject; ui: JsonObject; bases: string[] } {
  const order: string[] = [];
  const layer = resolveBase(name, bases, `${BASES_FOLDER}/${name}.json`, [], order);
  return { ...layer, bases: order.filter((n) => n !== name) };
}

/**
 * Merges what `schema` (a template or base as written) extends, without the schema itself: the
 * layer its own keys are merged onto. `{}` layers when it extends nothing.
 * @throws TemplateFileError for an unknown base or a cycle
 */
export function parentLayer(schema: JsonObject, bases: ReadonlyMap<string, BaseFile>, file: string, self?: string): { schema: JsonObject; ui: JsonObject } {
  let layer: Layer = { schema: {}, ui: {} };
  const order: string[] = [];
  for (const name of extendsOf(schema)) layer = applyLayer(layer, resolveBase(name, bases, file, self === undefined ? [] : [self], order), []);
  return layer;
}

/**
 * Reads one template folder and merges it onto its bases. A template without `x-extends` comes
 * back exactly as written.
 * @throws TemplateFileError for unreadable JSON, an unknown base or a cycle of bases
 */
export function resolveTemplate(schemasDir: string, ref: TemplateRef, bases: ReadonlyMap<string, BaseFile>): ResolvedTemplate {
  if (!existsSync(join(schemasDir, ref.schemaFile))) throw new TemplateFileError(ref.schemaFile, '', 'missing schema.json');
  const raw = readJsonObject(schemasDir, ref.schemaFile);
  const rawUi = ref.uiFile ? readJsonObject(schemasDir, ref.uiFile) : {};
  if (extendsOf(raw).length === 0 && !('x-extends' in raw) && !('x-omit' in raw)) return { ...ref, raw, rawUi, schema: raw, ui: rawUi, bases: [] };
  const order: string[] = [];
  const { schema, ui } = stack(raw, rawUi, bases, ref.schemaFile, [], order);
  return { ...ref, raw, rawUi, schema, ui, bases: order };
}

/** Everything under one schemas folder, read once: templates (merged), bases and shared parts. */
export interface TemplateSet {
  templates: ResolvedTemplate[];
  bases: Map<string, BaseFile>;
  shared: Map<string, JsonObject>;
}

/**
 * Loads every template of a schemas folder (or only the kind `only`) merged onto its bases.
 * @throws TemplateFileError for the first unreadable or unmergeable file
 */
export function loadTemplates(schemasDir: string, options: { only?: string } = {}): TemplateSet {
  const bases = readBases(schemasDir);
  const shared = readSharedParts(schemasDir);
  const refs = listTemplates(schemasDir).filter((ref) => options.only === undefined || ref.id === options.only);
  return { templates: refs.map((ref) => resolveTemplate(schemasDir, ref, bases)), bases, shared };
}
