/**
 * Shared comparison helpers for the spec's condition operators. Strings compare case-insensitively
 * after trimming; numbers compare as numbers (never as strings, so "10" > "9"); a list fact (tags,
 * collection ids) matches when any of its elements matches.
 */

/** Elements a fact contributes: a list's elements, or the value itself. `undefined`/`null` give none. */
export function elementsOf(factValue: unknown): unknown[] {
  if (factValue === undefined || factValue === null) return [];
  return Array.isArray(factValue) ? factValue : [factValue];
}

/** Lower-cased, trimmed text of a scalar; '' for null/undefined/objects. */
export function text(value: unknown): string {
  if (typeof value === 'string') return value.trim().toLowerCase();
  if (typeof value === 'number' || typeof value === 'boolean') return String(value).toLowerCase();
  return '';
}

/** The number a scalar denotes, or null when it is not a finite number ("12.50" → 12.5, "" → null). */
export function numeric(value: unknown): number | null {
  if (typeof value === 'number') return Number.isFinite(value) ? value : null;
  if (typeof value !== 'string') return null;
  const trimmed = value.trim();
  if (trimmed === '' || !/^[-+]?(\d+\.?\d*|\.\d+)$/.test(trimmed)) return null;
  return Number(trimmed);
}

/** Equality: as numbers when both sides are numbers, else case-insensitive text. */
export function same(a: unknown, b: unknown): boolean {
  const x = numeric(a);
  const y = numeric(b);
  if (x !== null && y !== null) return x === y;
  return text(a) === text(b);
}

/** A comma-separated condition value as a list of entries ("a, b" → ["a","b"]); lists pass through. */
export function listOf(conditionValue: unknown): unknown[] {
  if (Array.isArray(conditionValue)) return conditionValue;
  if (typeof conditionValue !== 'string') return conditionValue === undefined ? [] : [conditionValue];
  return conditionValue.split(',').map((s) => s.trim()).filter((s) => s !== '');
}

/** True when any element of the fact satisfies `test`. */
export function anyElement(factValue: unknown, test: (element: unknown) => boolean): boolean {
  return elementsOf(factValue).some(test);
}

/** Numeric comparison over any element; false when either side is not a number. */
export function compareNumbers(factValue: unknown, conditionValue: unknown, test: (a: number, b: number) => boolean): boolean {
  const bound = numeric(conditionValue);
  if (bound === null) return false;
  return anyElement(factValue, (e) => {
    const n = numeric(e);
    return n !== null && test(n, bound);
  });
}

/** Empty means no value: undefined, null, blank text or an empty list. */
export function isEmpty(factValue: unknown): boolean {
  return elementsOf(factValue).every((e) => text(e) === '');
}
