/** Request body helpers shared by routes. */
import type { Context } from 'hono';
import { ApiError } from '../errors';
import { parseExact } from '../json';

/**
 * The JSON object body of a request (large integers kept as strings). Throws ApiError 400
 * `invalid_json` for malformed JSON and 422 `validation_failed` when the body is not an object.
 */
export async function readJsonBody(c: Context): Promise<Record<string, unknown>> {
  const value = parseExact(await c.req.text());
  if (value === null || typeof value !== 'object' || Array.isArray(value)) {
    throw new ApiError(422, 'validation_failed', 'The request body must be a JSON object', [{ path: '', message: 'The request body must be a JSON object' }]);
  }
  return value as Record<string, unknown>;
}
