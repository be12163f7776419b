/**
 * JSON parsing that keeps platform ids exact: integers beyond 2^53 (order, customer and line ids)
 * become strings instead of losing digits. Other numbers stay numbers.
 */
import { isSafeNumber, parse } from 'lossless-json';
import { ApiError } from './errors';

/**
 * A number token (it follows `[`, `:` or `,` and white space, or starts the text) with a run of 16
 * or more digits and dots, or with an exponent of two or more digits. Linear: each alternative
 * starts only at one of those characters and backtracks at most over the run that follows it.
 */
const INEXACT_NUMBER = /(?:^|[:,[])\s*-?(?:[0-9.]{16}|[0-9.]+[eE][+-]?[0-9]{2})/;

/**
 * True when the text may hold a number lossless-json would keep as text: a run of 16 or more
 * digits and dots in a number (more digits than a double keeps, or an integer beyond 2^53) or an
 * exponent of two or more digits (1e16 is an integer beyond 2^53; 1e400 overflows). Every number
 * of a JSON text starts it or follows `[`, `:` or `,` (white space between), so this looks at numbers; inside a
 * string it may see such a number (`"a:12345678901234567"`) and err towards the exact parser,
 * never the other way. One regular-expression scan (about 2.5× faster than a loop over the
 * characters on a 12 KB order, 2026-11-28).
 */
export function mayBeInexact(text: string): boolean {
  return INEXACT_NUMBER.test(text);
}

/**
 * Parses a request body. Throws ApiError 400 `invalid_json` when the text is not JSON.
 * A text whose numbers all have at most 15 digits and a one-digit exponent is parsed
 * by the built-in JSON.parse (every such number is exact as a double; about 20× faster on a
 * 17 KB order); any other text by lossless-json, which turns the numbers a double cannot hold
 * exactly into strings. Both give the same value for the same text.
 * @example parseExact('{"id": 5678901234567890123}') // { id: '5678901234567890123' }
 */
export function parseExact(text: string): unknown {
  try {
    return mayBeInexact(text) ? parseLossless(text) : (JSON.parse(text) as unknown);
  } catch (e) {
    throw new ApiError(400, 'invalid_json', `The request body is not valid JSON: ${(e as Error).message}`);
  }
}

/**
 * The exact parser on its own (lossless-json): numbers a double holds exactly become numbers, the
 * others strings of their digits; a repeated member name keeps its last value, as JSON.parse does.
 * Throws lossless-json's SyntaxError on text that is not JSON.
 */
export function parseLossless(text: string): unknown {
  return parse(text, null, {
    parseNumber: (value: string) => (isSafeNumber(value) ? Number(value) : value),
    onDuplicateKey: ({ newValue }) => newValue,
  });
}
