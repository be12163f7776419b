/**
 * Kind registry: discovers every `schemas/<family>/<name>/schema.json` (+ optional `ui.json`) at
 * start through engine/template-loader.ts (which merges each onto its `_bases` named by
 * `x-extends`), checks the merged template against `schemas/_meta/template.schema.json` under strict ajv, bundles the
 * `_shared/*.json` parts it references into local `#/definitions`, and compiles one validator per
 * kind. Product staff add a kind by adding a folder; no code changes (DESIGN.md "Schemas").
 */
import { Ajv, type ValidateFunction } from 'ajv';
import addFormatsModule from 'ajv-formats';
import { DATE_DEFAULT_KEYWORD } from './date-defaults';
import { loadLabelCatalogs, localizeTemplate, SOURCE_LANGUAGES, translate, type InAppLanguage, type LabelCatalogs } from './i18n';
import { issuesFromAjv } from './messages';
import { loadTemplates, MERGE_KEYWORDS, readJsonObject, TemplateFileError, type ResolvedTemplate } from './template-loader';
import { writeOnlyPaths } from './write-only';
import type { FieldIssue, JsonObject, KindDetail, KindSummary, KindFamily, KindCategory, Json } from './types';

/** Vendor keywords a template may carry; registered so strict ajv still rejects typos like `minimun`. */
export const VENDOR_KEYWORDS = ['x-kind', 'x-family', 'x-name', 'x-version', 'x-category', 'x-feature', 'x-order', 'x-singleton', ...MERGE_KEYWORDS] as const;

/** A schema file that cannot be used. `file` is relative to the schemas folder, `path` a JSON Pointer inside it. */
export class SchemaError extends Error {
  constructor(
    readonly file: string,
    readonly path: string,
    message: string,
  ) {
    super(`${file}${path ? ` at ${path}` : ''}: ${message}`);
    this.name = 'SchemaError';
  }
}

/** Outcome of validating a document's data against its kind. `data` has the schema's defaults applied. */
export type ValidationOutcome = { ok: true; data: JsonObject } | { ok: false; issues: FieldIssue[] };

/** One discovered kind. */
export interface KindEntry extends KindDetail {
  /** Sort key inside its category (`x-order`). */
  order: number;
  /** Property paths marked `writeOnly` (secrets the API answers masked; engine/write-only.ts). */
  writeOnly: string[][];
  /** Validates a copy of `data`, applying defaults; never throws. */
  validate(data: unknown): ValidationOutcome;
}

/** All kinds found under one schemas folder. */
export interface Registry {
  readonly kinds: readonly KindEntry[];
  /** The kind with this id (`earning.place_order`), or undefined. */
  get(kindId: string): KindEntry | undefined;
  /**
   * Summaries for `GET /api/kinds`, ordered by family, category, x-order; titles and descriptions
   * in `language` (English when omitted).
   */
  summaries(language?: InAppLanguage): KindSummary[];
  /**
   * The kind's schema and ui.json with their labels in `language` (engine/i18n.ts); computed once
   * per kind and language. Undefined for an unknown kind.
   */
  localized(kindId: string, language: InAppLanguage): KindDetail | undefined;
  /** The label catalogs read from `schemas/_i18n` and each template's `i18n` folder. */
  readonly labels: LabelCatalogs;
  /**
   * Compiles every validator not compiled yet (a `lazy` registry), one kind per macrotask so a
   * serving process keeps answering (20–45 ms each; the first also makes the kinds' ajv, about 30
   * ms more). Nothing is compiled before the first turn of the loop. Rejects with the first SchemaError.
   */
  compileAll(): Promise<void>;
}

const addFormats = addFormatsModule as unknown as (ajv: Ajv) => Ajv;

/** A strict ajv with our vendor keywords and formats, as every schema in this project is compiled with. */
export function createAjv(options: { useDefaults?: boolean } = {}): Ajv {
  const ajv = new Ajv({ strict: true, allErrors: true, useDefaults: options.useDefaults ?? false, strictTypes: false });
  addFormats(ajv);
  for (const keyword of VENDOR_KEYWORDS) ajv.addKeyword({ keyword });
  ajv.addKeyword({ keyword: DATE_DEFAULT_KEYWORD, metaSchema: { type: 'integer', minimum: 0 } });
  return ajv;
}

/**
 * The JSON Pointer of the first member named `key` anywhere in `node` (depth first), or undefined.
 * @example pointerOfKey({ properties: { a: { minimun: 1 } } }, 'minimun') // '/properties/a/minimun'
 */
export function pointerOfKey(node: Json, key: string, at = ''): string | undefined {
  if (node === null || typeof node !== 'object') return undefined;
  const entries: [string, Json][] = Array.isArray(node) ? node.map((value, i) => [String(i), value]) : Object.entries(node);
  for (const [name, value] of entries) {
    const here = `${at}/${name.replace(/~/g, '~0').replace(/\//g, '~1')}`;
    if (!Array.isArray(node) && name === key) return here;
    const found = pointerOfKey(value, key, here);
    if (found !== undefined) return found;
  }
  return undefined;
}

/** Runs a template-loader read, turning its errors into SchemaError (same file and pointer). */
function asSchemaError<T>(read: () => T): T {
  try {
    return read();
  } catch (e) {
    if (e instanceof TemplateFileError) throw new SchemaError(e.file, e.path, e.message.replace(`${e.file}${e.path ? ` at ${e.path}` : ''}: `, ''));
    throw e;
  }
}

const SHARED_REF = /^_shared\/([a-z0-9-]+)\.json$/;

/**
 * Replaces every `"$ref": "_shared/<name>.json"` with `"#/definitions/<name>"` and copies the
 * shared schema (recursively bundled) into `definitions`. Throws SchemaError for an unknown part.
 */
export function bundle(schema: JsonObject, shared: ReadonlyMap<string, JsonObject>, file: string): JsonObject {
  const definitions: Record<string, JsonObject> = {};
  const visit = (node: Json, path: string): Json => {
    if (Array.isArray(node)) return node.map((child, i) => visit(child, `${path}/${i}`));
    if (node === null || typeof node !== 'object') return node;
    const out: JsonObject = {};
    for (const [key, value] of Object.entries(node)) {
      if (key === '$ref' && typeof value === 'string' && !value.startsWith('#')) {
        const match = SHARED_REF.exec(value);
        const part = match?.[1];
        const sharedSchema = part === undefined ? undefined : shared.get(part);
        if (part === undefined || sharedSchema === undefined) throw new SchemaError(file, `${path}/$ref`, `unknown shared part "${value}"`);
        if (!(part in definitions)) {
          definitions[part] = {};
          definitions[part] = visit(sharedSchema, `/definitions/${part}`) as JsonObject;
        }
        out[key] = `#/definitions/${part}`;
      } else {
        out[key] = visit(value, `${path}/${key}`);
      }
    }
    return out;
  };
  const bundled = visit(schema, '') as JsonObject;
  if (Object.keys(definitions).length > 0) {
    bundled.definitions = { ...((bundled.definitions as JsonObject | undefined) ?? {}), ...definitions };
  }
  return bundled;
}

/** How `loadRegistry` works. */
export interface LoadOptions {
  /** Just this kind id (`earning.place_order`), for linting one folder alone. */
  only?: string;
  /**
   * `eager` (default): every kind's validator is compiled now, so a schema strict ajv refuses
   * throws here. `lazy`: each validator is compiled on its first use or by `Registry.compileAll`;
   * the server starts lazily (about 20 ms per kind saved from startup) and compiles the rest
   * 1 s after it listens (server/main.ts AFTER_START_MS). The meta-schema check and bundling run at load either way.
   */
  compile?: 'eager' | 'lazy';
}

/**
 * Loads the registry from `schemasDir` (options: LoadOptions).
 * Throws SchemaError naming the file and path of the first unusable schema, so a broken template
 * stops the server at start rather than at a merchant's save.
 */
export function loadRegistry(schemasDir: string, options: LoadOptions = {}): Registry {
  const meta = createAjv().compile(asSchemaError(() => readJsonObject(schemasDir, '_meta/template.schema.json')));
  const { templates, shared } = asSchemaError(() => loadTemplates(schemasDir, options.only === undefined ? {} : { only: options.only }));
  // One ajv for every kind: each instance compiles the draft-07 meta-schema and the formats again
  // (about 30 ms), so a lazy registry makes it at the first compile, after the server listens.
  let kindAjv: Ajv | undefined;
  const ajvForKinds = (): Ajv => (kindAjv ??= createAjv({ useDefaults: true }));
  const kinds = templates.map((template) => loadKind(template, meta, shared, ajvForKinds, options.compile ?? 'eager'));
  const byId = new Map(kinds.map((k) => [k.id, k]));
  const labels = loadLabelCatalogs(schemasDir);
  const localizedCache = new Map<string, KindDetail>();
  const sorted = [...kinds].sort(
    (a, b) => a.family.localeCompare(b.family) || String(a.category).localeCompare(String(b.category)) || a.order - b.order || a.id.localeCompare(b.id),
  );
  return {
    kinds,
    labels,
    get: (id) => byId.get(id),
    async compileAll() {
      // Each kind (the first with the kinds' ajv) on a turn of its own, after what is waiting now.
      for (const kind of kinds) {
        await new Promise((resolve) => setImmediate(resolve));
        kind.compile();
      }
    },
    summaries: (language = 'en') =>
      sorted.map(({ id, family, name, title, description, category, feature, version, singleton }) => {
        const catalog = labels.forKind(id, language);
        return { id, family, name, title: translate(title, catalog), description: translate(description, catalog), category, feature, version, singleton };
      }),
    localized(kindId, language) {
      const kind = byId.get(kindId);
      if (!kind) return undefined;
      const { order: _order, validate: _validate, writeOnly: _writeOnly, compile: _compile, ...detail } = kind;
      if (SOURCE_LANGUAGES.includes(language)) return detail;
      const key = `${kindId}/${language}`;
      let cached = localizedCache.get(key);
      if (!cached) {
        const catalog = labels.forKind(kindId, language);
        const { schema, uiSchema } = localizeTemplate(kind.schema, kind.uiSchema, catalog);
        cached = { ...detail, title: translate(kind.title, catalog), description: translate(kind.description, catalog), schema, uiSchema };
        localizedCache.set(key, cached);
      }
      return cached;
    },
  };
}

/**
 * One kind from its template merged onto its bases (engine/template-loader.ts). The meta-schema
 * checks the merged template, with the `x-extends` / `x-omit` it was written with.
 */
function loadKind(
  template: ResolvedTemplate,
  meta: ValidateFunction,
  shared: ReadonlyMap<string, JsonObject>,
  ajv: () => Ajv,
  mode: 'eager' | 'lazy',
): KindEntry & { compile(): void } {
  const { family, name, schemaFile: file, schema: raw } = template;
  const checked: JsonObject = { ...raw };
  for (const key of MERGE_KEYWORDS) if (key in template.raw) checked[key] = template.raw[key] as Json;
  if (!meta(checked)) {
    const first = issuesFromAjv(meta.errors)[0];
    throw new SchemaError(file, first?.path ?? '', `does not pass the template meta-schema: ${first?.message ?? 'invalid'}`);
  }
  const id = `${family}.${name}`;
  if (raw['x-kind'] !== id || raw['x-family'] !== family || raw['x-name'] !== name) {
    throw new SchemaError(file, '/x-kind', `x-kind, x-family and x-name must match the folder (${id})`);
  }
  const uiSchema = template.ui;
  const schema = bundle(raw, shared, file);
  let compiled: ValidateFunction | undefined;
  const validator = (): ValidateFunction => {
    if (compiled) return compiled;
    try {
      compiled = ajv().compile(schema);
      return compiled;
    } catch (e) {
      const message = (e as Error).message;
      // Strict ajv names the unknown keyword but not where it stands: find it for the error's path.
      const keyword = /unknown keyword: "([^"]+)"/.exec(message)?.[1];
      const path = keyword === undefined ? '' : (pointerOfKey(template.raw, keyword) ?? pointerOfKey(raw, keyword) ?? pointerOfKey(schema, keyword) ?? '');
      throw new SchemaError(file, path, `does not compile under strict ajv: ${message}`);
    }
  };
  if (mode === 'eager') validator();
  return {
    id,
    family: family as KindFamily,
    name,
    title: raw.title as string,
    description: raw.description as string,
    category: (raw['x-category'] ?? null) as KindCategory | null,
    feature: (raw['x-feature'] ?? null) as string | null,
    version: raw['x-version'] as number,
    singleton: raw['x-singleton'] === true,
    order: typeof raw['x-order'] === 'number' ? raw['x-order'] : 0,
    writeOnly: writeOnlyPaths(schema),
    schema,
    uiSchema,
    compile: () => void validator(),
    validate(data: unknown): ValidationOutcome {
      if (data === null || typeof data !== 'object' || Array.isArray(data)) {
        return { ok: false, issues: [{ path: '', message: 'The document must be a JSON object' }] };
      }
      const validateFn = validator();
      const copy = structuredClone(data) as JsonObject;
      return validateFn(copy) ? { ok: true, data: copy } : { ok: false, issues: issuesFromAjv(validateFn.errors) };
    },
  };
}
