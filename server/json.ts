/**
 * JSON parsing that keeps platform ids exact: integers beyond 2^53 (order, customer and line ids)
 * become strings instead of losing digits. Other numbers stay numbers.
 */
import { isSafeNumber, parse } from 'lossless-json';
import { ApiError } from './errors';

/**
 * Parses a request body. Throws ApiError 400 `invalid_json` when the text is not JSON.
 * @example parseExact('{"id": 5678901234567890123}') // { id: '5678901234567890123' }
 */
export function parseExact(text: string): unknown {
  try {
    return parse(text, null, (value: string) => (isSafeNumber(value) ? Number(value) : value));
  } catch (e) {
    throw new ApiError(400, 'invalid_json', `The request body is not valid JSON: ${(e as Error).message}`);
  }
}
