import type { Json } from '../../engine/types';

/**
 * `"ui:options": { "showWhen": { "field": "hasLimit", "equals": true } }` on a field of ui.json: the
 * field matters only while a sibling field (same object) holds `equals`, or one of the values in
 * `in`. Otherwise the form leaves it out of sight but keeps its value, so switching back shows what
 * was there. `npm run schemas:check` reports a `field` that is not a sibling.
 */
export interface ShowWhen {
  /** The sibling field that switches this one on. */
  field: string;
  /** The sibling's value that shows this field. */
  equals?: Json;
  /** Sibling values that show this field (instead of `equals`). */
  in?: Json[];
}

const isObject = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null && !Array.isArray(value);

/** The `showWhen` of one field's uiSchema, or undefined when it has none (or a malformed one). */
export function showWhenOf(uiSchema: unknown): ShowWhen | undefined {
  const options = isObject(uiSchema) ? uiSchema['ui:options'] : undefined;
  const condition = isObject(options) ? options.showWhen : undefined;
  if (!isObject(condition) || typeof condition.field !== 'string') return undefined;
  return condition as unknown as ShowWhen;
}

/** Whether a field with `condition` shows, given its object's current data. */
export function conditionHolds(condition: ShowWhen, data: unknown): boolean {
  const value = isObject(data) ? data[condition.field] : undefined;
  if (Array.isArray(condition.in)) return condition.in.some((option) => option === value);
  return value === condition.equals;
}
