import { createSchemaUtils, deepEquals, type RJSFSchema } from '@rjsf/utils';
import validator from '@rjsf/validator-ajv8';
import { relativeDateDefaults } from '../../engine/date-defaults';
import { localDate } from '../../engine/store-time';
import type { JsonObject } from '../../engine/types';

/**
 * The data a form starts from: `data` with the schema's defaults filled in, computed the way RJSF
 * computes it, so a form that has not been touched compares equal to its starting point.
 * @param data stored document data, or nothing for a new document
 */
export function withDefaults(schema: JsonObject, data: JsonObject = {}): JsonObject {
  const utils = createSchemaUtils(validator, schema as RJSFSchema);
  return (utils.getDefaultFormState(schema as RJSFSchema, data) ?? {}) as JsonObject;
}

/**
 * The data a new document's form starts from: the schema's defaults plus its dates relative to today
 * (`x-default-days-from-today`) in the store's timezone, or the browser's until the shop has loaded.
 */
export function newDocumentData(schema: JsonObject, timezone: string | undefined, now: Date = new Date()): JsonObject {
  const today = localDate(now, timezone ?? Intl.DateTimeFormat().resolvedOptions().timeZone);
  return relativeDateDefaults(schema, withDefaults(schema), today);
}

/** Drops `undefined` members, which RJSF leaves behind when a field is cleared. */
function normalize(value: unknown): unknown {
  return value === undefined ? undefined : (JSON.parse(JSON.stringify(value)) as unknown);
}

/** Whether two form states hold the same data (the save bar shows while they differ). */
export function sameFormData(a: unknown, b: unknown): boolean {
  return deepEquals(normalize(a), normalize(b));
}
