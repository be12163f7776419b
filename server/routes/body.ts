/** Request body helpers shared by routes. */
import type { Context } from 'hono';
import { isInAppLanguage, IN_APP_LANGUAGES, type InAppLanguage } from '../../engine/i18n';
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

/**
 * The `?language=` of a request that answers labels (spec 000 §Languages): one of the in-app
 * languages; English when absent.
 * @throws ApiError 400 `invalid_query` naming `language` for any other value
 */
export function languageParam(c: Context): InAppLanguage {
  const value = c.req.query('language');
  if (value === undefined || value === '') return 'en';
  if (isInAppLanguage(value)) return value;
  throw new ApiError(400, 'invalid_query', 'Value invalid', [{ path: 'language', message: `Must be one of ${IN_APP_LANGUAGES.join(', ')}` }]);
}
