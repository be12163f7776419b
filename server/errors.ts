/**
 * The one API error type and the one place that formats errors:
 * `{ error: { code, message, details? } }` (DESIGN.md "Server"). 500s hide internals.
 */
import type { Context } from 'hono';
import { HTTPException } from 'hono/http-exception';
import type { ContentfulStatusCode } from 'hono/utils/http-status';
import type { ApiErrorBody, FieldIssue } from '../engine/types';

/** An error the client should see: HTTP status, stable code, the spec's message, field issues. */
export class ApiError extends Error {
  constructor(
    readonly status: ContentfulStatusCode,
    readonly code: string,
    message: string,
    readonly details?: FieldIssue[],
  ) {
    super(message);
    this.name = 'ApiError';
  }
}

/** 404 for an unknown route parameter (`unknown_kind`, `not_found`). */
export const notFound = (code: string, message: string): ApiError => new ApiError(404, code, message);

/** Hono `onError`: formats ApiError and HTTPException; hides anything else as a 500 (the request log records it). */
export function handleError(err: Error, c: Context): Response {
  if (err instanceof ApiError) {
    const body: ApiErrorBody = { error: { code: err.code, message: err.message, ...(err.details ? { details: err.details } : {}) } };
    return c.json(body, err.status);
  }
  if (err instanceof HTTPException) {
    const status = err.status as ContentfulStatusCode;
    return c.json({ error: { code: status === 401 ? 'unauthorized' : 'http_error', message: err.message || 'Request failed' } }, status);
  }
  // The request log (server/logging.ts) records the error with its stack; the answer hides it.
  return c.json({ error: { code: 'internal_error', message: 'Something went wrong. Please try again later.' } }, 500);
}
