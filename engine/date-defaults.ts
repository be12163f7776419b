/**
 * Date defaults relative to today (spec 001 §9 "Streak template: … end date 7 days after start").
 * JSON Schema's `default` is a constant, so a template marks a date field with the vendor keyword
 * `x-default-days-from-today` (an integer ≥ 0) and a new document's form starts with that store-local
 * calendar date: `0` is today in the shop's timezone, `7` a week later.
 *
 * @example
 * // schema.json: "startDate": { "$ref": "_shared/date.json", "x-default-days-from-today": 0 }
 * relativeDateDefaults(schema, {}, '2026-11-24') // { startDate: '2026-11-24' }
 */
import { isJsonObject, type JsonObject } from './types';

/** The vendor keyword, registered with ajv (integer ≥ 0, in days). */
export const DATE_DEFAULT_KEYWORD = 'x-default-days-from-today';


/**
 * The calendar date `days` after `date` (both YYYY-MM-DD). Calendar arithmetic, so it is exact
 * across DST changes and month ends.
 * @example addDays('2026-02-26', 3) // '2026-03-01'
 */
export function addDays(date: string, days: number): string {
  const [year = 0, month = 1, day = 1] = date.split('-').map(Number);
  return new Date(Date.UTC(year, month - 1, day + days)).toISOString().slice(0, 10);
}

/**
 * `data` with every missing date field marked `x-default-days-from-today` filled in, through nested
 * objects (`general.startDate`). Values already present are kept. Returns a new object.
 * @param schema a kind's schema (bundled or as written)
 * @param data the form's starting data, usually with the schema's constant defaults applied
 * @param today the store-local date (YYYY-MM-DD), e.g. `localDate(new Date(), shopTimezone)`
 */
export function relativeDateDefaults(schema: JsonObject, data: JsonObject, today: string): JsonObject {
  const properties = schema.properties;
  if (!isJsonObject(properties)) return data;
  const result: JsonObject = { ...data };
  for (const [name, property] of Object.entries(properties)) {
    if (!isJsonObject(property)) continue;
    const days = property[DATE_DEFAULT_KEYWORD];
    if (typeof days === 'number' && result[name] === undefined) result[name] = addDays(today, days);
    const nested = result[name];
    if (isJsonObject(property.properties) && isJsonObject(nested)) result[name] = relativeDateDefaults(property, nested, today);
  }
  return result;
}
