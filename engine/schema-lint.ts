/**
 * Schema lint for product staff (`npm run schemas:check`): every template under schemas/ passes
 * the meta-schema under strict ajv, its defaults are valid against their own schema, its ui.json
 * names only fields that exist and widgets/fields the UI registers, every field has a label
 * (`title`), every label has a translation in each in-app language (engine/i18n.ts) that keeps its
 * `{placeholders}`, no `pattern` can backtrack catastrophically, and every list and text field is
 * bounded (`maxItems`, `maxLength`). Templates merged onto bases (`x-extends`,
 * engine/template-loader.ts) are checked as merged; the bases themselves pass
 * `_meta/base.schema.json`, name only existing bases (no cycle), and a template or base must not
 * repeat what its base already says (a field, ui entry or keyword identical to the base's, or a
 * field the base already requires), and every template extends a base (issue 15: at least
 * `document`, the root of every chain), so a template states only what differs. Each problem
 * names the file and a JSON Pointer inside it (for a merged template, inside the merged schema).
 * Reads files; no network.
 */
import { isSafe } from 'redos-detector';
import { loadLabelCatalogs, placeholders, schemaLabels, TRANSLATED_LANGUAGES, uiLabels, type LabelCatalog, type LabelCatalogs, type LabelText } from './i18n';
import type { Ajv } from 'ajv';
import { createAjv, loadRegistry, SchemaError, type KindEntry, type Registry } from './registry';
import {
  extendsOf,
  listTemplates,
  MERGE_KEYWORDS,
  mergeOrdered,
  omitsOf,
  parentLayer,
  readBases,
  readJsonObject,
  readSharedParts,
  resolveBaseLayer,
  resolveTemplate,
  TemplateFileError,
  type BaseFile,
  type TemplateRef,
} from './template-loader';
import { isJsonObject, type Json, type JsonObject } from './types';

/** One problem: file relative to the schemas folder, pointer inside it, message. */
export interface LintIssue {
  file: string;
  path: string;
  message: string;
}

/** The names the UI registers for `ui:widget` and `ui:field`. */
export interface UiNames {
  widgets: readonly string[];
  fields: readonly string[];
}

const escape = (s: string): string => s.replace(/~/g, '~0').replace(/\//g, '~1');

/** Lints every template folder; an empty list means all is well. */
export function lintSchemas(schemasDir: string, ui: UiNames): LintIssue[] {
  const issues: LintIssue[] = [];
  let catalogs: LabelCatalogs;
  try {
    catalogs = loadLabelCatalogs(schemasDir);
  } catch (e) {
    return [{ file: '_i18n', path: '', message: (e as Error).message }];
  }
  let shared: Map<string, JsonObject>;
  let bases: Map<string, BaseFile>;
  try {
    shared = readSharedParts(schemasDir);
    bases = readBases(schemasDir);
  } catch (e) {
    if (e instanceof TemplateFileError) return [{ file: e.file, path: e.path, message: e.message.replace(`${e.file}${e.path ? ` at ${e.path}` : ''}: `, '') }];
    throw e;
  }
  for (const [part, raw] of shared) {
    const file = `_shared/${part}.json`;
    issues.push(...lintBounds(raw, file), ...lintTranslations(schemaLabels(raw), file, (language) => catalogs.shared(language)));
  }
  issues.push(...lintBases(schemasDir, bases));
  // One registry for every kind when all of them load (the usual case); otherwise each kind is
  // loaded alone, so one broken folder does not hide the others. One ajv checks every default.
  let registry: Registry | undefined;
  try {
    registry = loadRegistry(schemasDir);
  } catch (e) {
    if (!(e instanceof SchemaError || e instanceof TemplateFileError)) throw e;
  }
  const defaultsAjv = createAjv({ useDefaults: true });
  for (const ref of listTemplates(schemasDir)) issues.push(...lintKindFolder(schemasDir, ref, bases, ui, catalogs, { registry, defaultsAjv }));
  return issues;
}

const fromError = (e: unknown): LintIssue[] => {
  if (e instanceof SchemaError || e instanceof TemplateFileError) return [{ file: e.file, path: e.path, message: e.message.replace(`${e.file}${e.path ? ` at ${e.path}` : ''}: `, '') }];
  throw e;
};

/**
 * Each base passes `_meta/base.schema.json`, resolves (known bases, no cycle), is bounded, has
 * safe patterns and labelled fields, and repeats nothing of the bases it extends itself.
 */
function lintBases(schemasDir: string, bases: ReadonlyMap<string, BaseFile>): LintIssue[] {
  if (bases.size === 0) return [];
  const issues: LintIssue[] = [];
  const ajv = createAjv();
  ajv.addSchema(readJsonObject(schemasDir, '_meta/template.schema.json'));
  const meta = ajv.compile(readJsonObject(schemasDir, '_meta/base.schema.json'));
  for (const base of bases.values()) {
    if (!meta(base.schema)) {
      const first = meta.errors?.[0];
      issues.push({ file: base.file, path: first?.instancePath ?? '', message: `does not pass the base meta-schema: ${first?.message ?? 'invalid'}` });
      continue;
    }
    let merged: JsonObject;
    try {
      merged = resolveBaseLayer(base.name, bases).schema;
      issues.push(...lintRepeats(base.schema, base.ui, parentLayer(base.schema, bases, base.file, base.name), base.file, base.uiFile ?? base.file));
    } catch (e) {
      issues.push(...fromError(e));
      continue;
    }
    issues.push(...lintLabels(merged, base.file), ...lintPatterns(merged, base.file), ...lintBounds(merged, base.file));
  }
  return issues;
}

const same = (a: Json | undefined, b: Json | undefined): boolean => JSON.stringify(a) === JSON.stringify(b);

/**
 * What a template (or base) says that its bases already say: a field, ui entry or top-level
 * keyword whose merge changes nothing (an empty `{}` field only places the fields after it and is
 * allowed), a `required` name the bases require already, an `x-omit` of a field no base has.
 */
export function lintRepeats(schema: JsonObject, ui: JsonObject, parent: { schema: JsonObject; ui: JsonObject }, file: string, uiFile: string): LintIssue[] {
  const issues: LintIssue[] = [];
  const omit = omitsOf(schema);
  const baseProps = isJsonObject(parent.schema.properties) ? parent.schema.properties : {};
  const baseRequired = Array.isArray(parent.schema.required) ? parent.schema.required : [];
  omit.forEach((name, i) => {
    if (!(name in baseProps)) issues.push({ file, path: `/x-omit/${i}`, message: `x-omit names "${name}", which no base of this file has` });
  });
  const isRepeat = (base: Json | undefined, own: Json): boolean => {
    if (base === undefined) return false;
    if (isJsonObject(own) && isJsonObject(base)) return Object.keys(own).length > 0 && same(mergeOrdered(base, own), base);
    return same(base, own);
  };
  for (const [key, value] of Object.entries(schema)) {
    if (key === 'properties' || key === 'required' || (MERGE_KEYWORDS as readonly string[]).includes(key)) continue;
    if (isRepeat(parent.schema[key], value)) issues.push({ file, path: `/${escape(key)}`, message: `"${key}" is identical to its base's: delete it here` });
  }
  if (isJsonObject(schema.properties)) {
    for (const [key, value] of Object.entries(schema.properties)) {
      if (omit.includes(key)) continue;
      if (isRepeat(baseProps[key], value)) issues.push({ file, path: `/properties/${escape(key)}`, message: `the field "${key}" is identical to its base's: delete it here (an empty {} only places the fields after it)` });
    }
  }
  if (Array.isArray(schema.required)) {
    const own = schema.required;
    own.forEach((name, i) => {
      // A base name written right before a new one only places it (the same rule as for fields).
      const anchors = i + 1 < own.length && !baseRequired.includes(own[i + 1] as Json);
      if (baseRequired.includes(name) && !omit.includes(String(name)) && !anchors) issues.push({ file, path: `/required/${i}`, message: `"${String(name)}" is required by the base already` });
    });
  }
  for (const [key, value] of Object.entries(ui)) {
    if (omit.includes(key)) continue;
    if (isRepeat(parent.ui[key], value)) issues.push({ file: uiFile, path: `/${escape(key)}`, message: `the ui entry "${key}" is identical to its base's: delete it here` });
  }
  return issues;
}

/**
 * The issue for a template that names no base (issue 15: every template extends one), at the
 * template's root, listing the bases there are to choose from.
 */
function noBase(file: string, bases: ReadonlyMap<string, BaseFile>): LintIssue {
  const names = [...bases.keys()].join(', ');
  return { file, path: '', message: `extends no base: name one with "x-extends" (schemas/_bases/: ${names}; "document" at least) and keep only what differs from it` };
}

/** Loads one kind in isolation (so one broken folder does not hide the others) and lints it. */
function lintKindFolder(
  schemasDir: string,
  ref: TemplateRef,
  bases: ReadonlyMap<string, BaseFile>,
  ui: UiNames,
  catalogs: LabelCatalogs,
  loaded: { registry: Registry | undefined; defaultsAjv: Ajv },
): LintIssue[] {
  const file = ref.schemaFile;
  let kind: KindEntry | undefined;
  let raw: JsonObject;
  const repeats: LintIssue[] = [];
  try {
    kind = loaded.registry?.get(ref.id) ?? loadRegistry(schemasDir, { only: ref.id }).get(ref.id);
    const template = resolveTemplate(schemasDir, ref, bases);
    raw = template.schema;
    if (extendsOf(template.raw).length === 0) repeats.push(noBase(file, bases));
    if (template.bases.length > 0) repeats.push(...lintRepeats(template.raw, template.rawUi, parentLayer(template.raw, bases, file), file, ref.uiFile ?? `${ref.family}/${ref.name}/ui.json`));
  } catch (e) {
    return fromError(e);
  }
  if (!kind) return [{ file, path: '', message: 'not found' }];
  const catalogOf = (language: (typeof TRANSLATED_LANGUAGES)[number]) => catalogs.forKind(kind.id, language);
  const issues = [...repeats, ...lintDefaults(kind, file, loaded.defaultsAjv), ...lintLabels(raw, file), ...lintPatterns(raw, file), ...lintBounds(raw, file), ...lintTranslations(schemaLabels(raw), file, catalogOf)];
  const uiFile = ref.uiFile ?? `${ref.family}/${ref.name}/ui.json`;
  if (Object.keys(kind.uiSchema).length > 0) {
    issues.push(...lintUi(kind.uiSchema, kind.schema, kind.schema, uiFile, '', ui));
    issues.push(...lintTranslations(uiLabels(kind.uiSchema), uiFile, catalogOf));
  }
  return issues;
}

/**
 * Every `default` validates against the schema node that carries it, after the nested defaults it
 * triggers are filled in (a `{}` default whose properties all have defaults is fine).
 */
function lintDefaults(kind: KindEntry, file: string, ajv: Ajv): LintIssue[] {
  const issues: LintIssue[] = [];
  const definitions = (kind.schema.definitions ?? {}) as JsonObject;
  const visit = (node: Json, path: string): void => {
    if (Array.isArray(node)) return node.forEach((n, i) => visit(n, `${path}/${i}`));
    if (!isJsonObject(node)) return;
    if ('default' in node && path !== '') {
      const { default: value, ...rest } = node;
      const validate = ajv.compile({ ...rest, definitions });
      if (!validate(structuredClone(value))) issues.push({ file, path: `${path}/default`, message: `the default does not pass its own schema: ${validate.errors?.[0]?.message ?? 'invalid'}` });
    }
    for (const [key, value] of Object.entries(node)) if (key !== 'default' && key !== 'definitions') visit(value, `${path}/${escape(key)}`);
  };
  visit(kind.schema, '');
  return issues;
}

/** Every property has a label (`title`) for the form, directly or through its $ref. */
function lintLabels(raw: JsonObject, file: string): LintIssue[] {
  const issues: LintIssue[] = [];
  const visit = (node: Json, path: string): void => {
    if (!isJsonObject(node)) return;
    if (isJsonObject(node.properties)) {
      for (const [key, prop] of Object.entries(node.properties)) {
        if (isJsonObject(prop) && typeof prop.title !== 'string') issues.push({ file, path: `${path}/properties/${escape(key)}`, message: 'the field has no title (its label in the form)' });
        visit(prop, `${path}/properties/${escape(key)}`);
      }
    }
    if (isJsonObject(node.items)) visit(node.items, `${path}/items`);
  };
  visit(raw, '');
  return issues;
}

/**
 * Every label has a translation in each translated in-app language, and the translation keeps the
 * source's `{placeholders}`. One issue per label and language, at the label's pointer.
 */
function lintTranslations(labels: readonly LabelText[], file: string, catalogOf: (language: (typeof TRANSLATED_LANGUAGES)[number]) => LabelCatalog): LintIssue[] {
  const issues: LintIssue[] = [];
  for (const language of TRANSLATED_LANGUAGES) {
    const catalog = catalogOf(language);
    for (const { path, text } of labels) {
      const translation = Object.hasOwn(catalog, text) ? catalog[text] : undefined;
      if (translation === undefined || translation.trim() === '') {
        issues.push({ file, path, message: `no ${language} translation of "${text}" (add it to _i18n/${language}.json or the template's i18n/${language}.json)` });
      } else if (placeholders(translation).join() !== placeholders(text).join()) {
        issues.push({ file, path, message: `the ${language} translation of "${text}" must keep the placeholders {${placeholders(text).join('}, {')}}` });
      }
    }
  }
  return issues;
}

/** Formats whose strings are short by definition and need no maxLength. */
const BOUNDED_FORMATS = new Set(['date', 'date-time', 'time']);

/**
 * Bounded documents (issue 14): every list declares `maxItems` and every free-text string
 * `maxLength` (an `enum` or `const`, or a date format, is bounded already), so validating and
 * storing a document costs at most what its template allows, whatever a client sends.
 */
function lintBounds(raw: JsonObject, file: string): LintIssue[] {
  const issues: LintIssue[] = [];
  const visit = (node: Json, path: string): void => {
    if (Array.isArray(node)) return node.forEach((n, i) => visit(n, `${path}/${i}`));
    if (!isJsonObject(node)) return;
    const types = Array.isArray(node.type) ? node.type : [node.type];
    if (types.includes('array') && typeof node.maxItems !== 'number') issues.push({ file, path, message: 'a list must declare maxItems' });
    const bounded = typeof node.maxLength === 'number' || 'enum' in node || 'const' in node || (typeof node.format === 'string' && BOUNDED_FORMATS.has(node.format));
    if (types.includes('string') && !bounded) issues.push({ file, path, message: 'a text field must declare maxLength' });
    for (const [key, value] of Object.entries(node)) if (key !== 'default' && key !== 'examples') visit(value, `${path}/${escape(key)}`);
  };
  visit(raw, '');
  return issues;
}

/** No `pattern` with nested quantifiers (catastrophic backtracking). */
function lintPatterns(raw: JsonObject, file: string): LintIssue[] {
  const issues: LintIssue[] = [];
  const visit = (node: Json, path: string): void => {
    if (Array.isArray(node)) return node.forEach((n, i) => visit(n, `${path}/${i}`));
    if (!isJsonObject(node)) return;
    if (typeof node.pattern === 'string') {
      let ok = false;
      try {
        // ajv compiles patterns with the `u` flag; analyse them the same way.
        ok = isSafe(new RegExp(node.pattern, 'u')).safe;
      } catch {
        ok = false;
      }
      if (!ok) issues.push({ file, path: `${path}/pattern`, message: `unsafe regular expression (may backtrack catastrophically): ${node.pattern}` });
    }
    for (const [key, value] of Object.entries(node)) visit(value, `${path}/${escape(key)}`);
  };
  visit(raw, '');
  return issues;
}

/** Resolves a local `#/definitions/x` reference inside the bundled schema. */
function resolve(node: JsonObject, root: JsonObject): JsonObject {
  const ref = node.$ref;
  if (typeof ref !== 'string' || !ref.startsWith('#/definitions/')) return node;
  const target = (root.definitions as JsonObject | undefined)?.[ref.slice('#/definitions/'.length)];
  return isJsonObject(target) ? { ...target, ...node } : node;
}

/**
 * ui.json keys name existing fields; `ui:order` names existing fields; widgets and fields are
 * registered; `showWhen` names a sibling field.
 */
function lintUi(uiNode: Json, schemaNode: JsonObject, root: JsonObject, file: string, path: string, ui: UiNames): LintIssue[] {
  if (!isJsonObject(uiNode)) return [];
  /**
   * `ui:options.showWhen` (ui/form/show-when.ts) of the field `key`: `{ field, equals }` or
   * `{ field, in: [...] }`, where `field` names another field of the same object (`siblings`).
   */
  const lintShowWhen = (fieldUi: Json, key: string | null, siblings: JsonObject, fieldPath: string): LintIssue[] => {
    const options = isJsonObject(fieldUi) ? fieldUi['ui:options'] : undefined;
    if (!isJsonObject(options) || !('showWhen' in options)) return [];
    const at = `${fieldPath}/ui:options/showWhen`;
    const condition = options.showWhen;
    if (!isJsonObject(condition) || typeof condition.field !== 'string' || (!('equals' in condition) && !Array.isArray(condition.in))) {
      return [{ file, path: at, message: 'showWhen needs { "field": "<sibling field>", "equals": <value> } or { "field": …, "in": [<values>] }' }];
    }
    if (key === null) return [{ file, path: `${at}/field`, message: `showWhen names "${condition.field}", but this is not a field of an object, so it has no sibling fields` }];
    if (condition.field === key || !(condition.field in siblings)) {
      return [{ file, path: `${at}/field`, message: `showWhen names "${condition.field}", which is not a sibling field of "${key}"` }];
    }
    return [];
  };
  const issues: LintIssue[] = [];
  const schema = resolve(schemaNode, root);
  const properties = isJsonObject(schema.properties) ? schema.properties : {};
  // A condition on the root or on list items has no sibling to name.
  if (path === '' || path.endsWith('/items')) issues.push(...lintShowWhen(uiNode, null, {}, path));
  for (const [key, value] of Object.entries(uiNode)) {
    const at = `${path}/${escape(key)}`;
    if (key === 'ui:widget' && typeof value === 'string' && !ui.widgets.includes(value)) issues.push({ file, path: at, message: `unknown widget "${value}"` });
    else if (key === 'ui:field' && typeof value === 'string' && !ui.fields.includes(value)) issues.push({ file, path: at, message: `unknown field "${value}"` });
    else if (key === 'ui:order' && Array.isArray(value)) {
      value.forEach((name, i) => {
        if (name !== '*' && (typeof name !== 'string' || !(name in properties))) issues.push({ file, path: `${at}/${i}`, message: `ui:order names "${String(name)}", which is not a field` });
      });
    } else if (key === 'ui:groups') {
      // The editor's cards (ui/form/templates/ObjectFieldTemplate.tsx): [{ "title": "…", "fields": ["field", …, "*"] }].
      if (path !== '' || !Array.isArray(value)) issues.push({ file, path: at, message: 'ui:groups is a list of { "title", "fields" } at the top of ui.json' });
      else {
        const seen = new Set<string>();
        value.forEach((group, g) => {
          if (!isJsonObject(group) || typeof group.title !== 'string' || group.title === '' || !Array.isArray(group.fields)) {
            issues.push({ file, path: `${at}/${g}`, message: 'a group needs a "title" and a list of "fields"' });
            return;
          }
          group.fields.forEach((name, i) => {
            if (name !== '*' && (typeof name !== 'string' || !(name in properties))) issues.push({ file, path: `${at}/${g}/fields/${i}`, message: `ui:groups names "${String(name)}", which is not a field` });
            else if (seen.has(name as string)) issues.push({ file, path: `${at}/${g}/fields/${i}`, message: `"${String(name)}" is in two groups` });
            seen.add(name as string);
          });
        });
      }
    } else if (key === 'items') {
      if (isJsonObject(schema.items)) issues.push(...lintUi(value, schema.items, root, file, at, ui));
      else issues.push({ file, path: at, message: '"items" is set but the field is not a list' });
    } else if (!key.startsWith('ui:')) {
      const child = properties[key];
      if (!isJsonObject(child)) issues.push({ file, path: at, message: `"${key}" is not a field of this schema` });
      else issues.push(...lintShowWhen(value, key, properties, at), ...lintUi(value, child, root, file, at, ui));
    }
  }
  return issues;
}

