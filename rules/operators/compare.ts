/**
 * Shared comparison helpers for the spec's condition operators. Equality follows the fact's type:
 * a number fact (order total, item count) equals a value that denotes the same number ("10.0");
 * a text fact (title, SKU "007", a product id beyond 2^53) compares as trimmed, case-insensitive
 * text. Ordering operators always compare numbers, exactly (integers as BigInt), never as strings,
 * so "10" > "9". A list fact (tags, collection ids) matches when any of its elements matches.
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
  // Unambiguous, so linear: digits after the point only follow a literal point. (`\d+\.?\d*` let a
  // long run of digits split two ways and took seconds on a 100,000-character SKU.)
  if (trimmed === '' || !/^[-+]?(?:\d+(?:\.\d*)?|\.\d+)$/.test(trimmed)) return null;
  return Number(trimmed);
}

/** Sign and digits of an integer written in text ("+007" → [1, "7"]), or null when it is not one. */
function integerParts(value: string): [sign: 1 | -1, digits: string] | null {
  const match = /^([-+]?)0*(\d*)$/.exec(value.trim());
  if (!match) return null;
  const digits = match[2] ?? '';
  return [match[1] === '-' && digits !== '' ? -1 : 1, digits];
}

/** Exact order of two integers written in text, in linear time: by sign, then digit count, then digits. */
function compareIntegerText(a: string, b: string): -1 | 0 | 1 {
  const [signA, digitsA] = integerParts(a) ?? [1, ''];
  const [signB, digitsB] = integerParts(b) ?? [1, ''];
  if (signA !== signB) return signA < signB ? -1 : 1;
  const magnitude = digitsA.length !== digitsB.length ? (digitsA.length < digitsB.length ? -1 : 1) : digitsA === digitsB ? 0 : digitsA < digitsB ? -1 : 1;
  return (signA === 1 ? magnitude : -magnitude) as -1 | 0 | 1;
}

/**
 * Exact order of two numeric scalars: -1, 0 or 1, or null when either is not a number. Integers
 * compare digit by digit (exact beyond 2^53, linear in their length); others as floating point.
 */
export function compareNumeric(a: unknown, b: unknown): -1 | 0 | 1 | null {
  const x = numeric(a);
  const y = numeric(b);
  if (x === null || y === null) return null;
  const intA = typeof a === 'string' ? /^[-+]?\d+$/.test(a.trim()) : Number.isInteger(a);
  const intB = typeof b === 'string' ? /^[-+]?\d+$/.test(b.trim()) : Number.isInteger(b);
  // A number's decimal digits via BigInt: String(1e21) would be "1e+21".
  const digitsOf = (v: unknown): string => (typeof v === 'string' ? v : BigInt(v as number).toString());
  if (intA && intB) return compareIntegerText(digitsOf(a), digitsOf(b));
  return x === y ? 0 : x < y ? -1 : 1;
}

/**
 * Equality of a fact element and a condition value: as numbers when the fact is a number, else
 * as case-insensitive text (so SKU "007" is not "7", and big ids never lose digits).
 */
export function same(factElement: unknown, conditionValue: unknown): boolean {
  if (typeof factElement === 'number') return compareNumeric(factElement, conditionValue) === 0;
  return text(factElement) === text(conditionValue);
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

/** Ordering over any element (`test` gets compareNumeric's sign); false when either side is not a number. */
export function compareNumbers(factValue: unknown, conditionValue: unknown, test: (sign: -1 | 0 | 1) => boolean): boolean {
  return anyElement(factValue, (e) => {
    const sign = compareNumeric(e, conditionValue);
    return sign !== null && test(sign);
  });
}

/** Empty means no value: undefined, null, blank text or an empty list. */
export function isEmpty(factValue: unknown): boolean {
  return elementsOf(factValue).every((e) => text(e) === '');
}
