import type { FieldIssue, Json, JsonObject } from '../../engine/types';
import { pointerSegments } from '../form/error-schema';

/**
 * One tab of a bigger document (VIP tier settings, an exclusive deal's design): the form shows only
 * some top-level properties while the page keeps and saves the whole document.
 */

/** Root keywords that tie properties together; a section leaves them to the server, which checks the whole document. */
const CROSS_PROPERTY_KEYWORDS = ['allOf', 'anyOf', 'oneOf', 'not', 'if', 'then', 'else', 'dependencies', 'dependentRequired', 'dependentSchemas'];

function isObject(value: Json | undefined): value is JsonObject {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** The top-level property names of an object schema, in schema order. */
export function propertyNames(schema: JsonObject): string[] {
  return isObject(schema.properties) ? Object.keys(schema.properties) : [];
}

/**
 * The schema of a section: the same root (so `definitions` still resolve) with only `properties`.
 * @example sectionSchema(settings, ['design']) // { …, properties: { design }, required: ['design'] }
 */
export function sectionSchema(schema: JsonObject, properties: readonly string[]): JsonObject {
  const all = isObject(schema.properties) ? schema.properties : {};
  const section: JsonObject = {};
  for (const [key, value] of Object.entries(schema)) {
    if (!CROSS_PROPERTY_KEYWORDS.includes(key)) section[key] = value;
  }
  section.properties = Object.fromEntries(properties.filter((name) => name in all).map((name) => [name, all[name] as Json]));
  section.required = Array.isArray(schema.required) ? schema.required.filter((name) => typeof name === 'string' && properties.includes(name)) : [];
  return section;
}

/**
 * The uiSchema of a section: `ui:order` may only name shown properties (RJSF refuses extraneous
 * ones). A section that is one object (a settings tab) drops that object's own title and frame: the
 * tab already names it, and the page's card already frames it.
 */
export function sectionUiSchema(uiSchema: JsonObject, properties: readonly string[], schema: JsonObject): JsonObject {
  const section: JsonObject = { ...uiSchema };
  const order = uiSchema['ui:order'];
  if (Array.isArray(order)) {
    const kept = order.filter((name) => name === '*' || (typeof name === 'string' && properties.includes(name)));
    section['ui:order'] = kept.includes('*') ? kept : [...kept, '*'];
  }
  const [only] = properties;
  const onlySchema = properties.length === 1 && only !== undefined && isObject(schema.properties) ? schema.properties[only] : undefined;
  if (only !== undefined && isObject(onlySchema) && onlySchema.type === 'object') {
    const own = isObject(uiSchema[only]) ? uiSchema[only] : {};
    section[only] = { ...own, 'ui:label': false, 'ui:classNames': 'form-section' };
  }
  return section;
}

/** The section's part of the document. */
export function pickSection(data: JsonObject, properties: readonly string[]): JsonObject {
  return Object.fromEntries(properties.filter((name) => data[name] !== undefined).map((name) => [name, data[name] as Json]));
}

/** The document with the section's part replaced; a property the form cleared is removed. */
export function mergeSection(data: JsonObject, section: JsonObject, properties: readonly string[]): JsonObject {
  const merged = { ...data };
  for (const name of properties) {
    if (section[name] === undefined) delete merged[name];
    else merged[name] = section[name];
  }
  return merged;
}

/** Whether a server issue points into the section (the whole-document issue `""` belongs to none). */
export function inSection(issue: FieldIssue, properties: readonly string[]): boolean {
  const [first] = pointerSegments(issue.path);
  return first !== undefined && properties.includes(first);
}
