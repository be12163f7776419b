/**
 * Request body limits (issue 14 "bounded work for any input"): every route that reads a body has a
 * ceiling, enforced before the body is read — a declared Content-Length above it is refused at
 * once, and a body without one is cut off as soon as it passes the ceiling — so an oversized or
 * endless POST costs neither memory nor a signature check.
 */
import type { MiddlewareHandler } from 'hono';
import { bodyLimit } from 'hono/body-limit';
import { ApiError } from './errors';
import { declaredLength } from './request-headers';

/** Bytes. Platform order webhooks are 5–30 KB; an order with hundreds of lines stays under 2 MiB. */
export const WEBHOOK_BODY_LIMIT = 5 * 1024 * 1024;
/** Bytes. The largest real document (a place-order program with 100 products and conditions) is ~40 KB. */
export const API_BODY_LIMIT = 512 * 1024;
/** Bytes. The largest image rule is 10 MB (custom icons, spec 002 §5) plus multipart framing. */
export const UPLOAD_BODY_LIMIT = 10 * 1024 * 1024 + 64 * 1024;
/** Bytes. A customer CSV import is at most 25 MB (spec 002 §5, §9) plus multipart framing. */
export const IMPORT_BODY_LIMIT = 25 * 1024 * 1024 + 64 * 1024;
/** Bytes. Storefront calls carry a reward id, a birthday or a review. */
export const PROXY_BODY_LIMIT = 64 * 1024;

/**
 * Refuses bodies above `maxBytes` with ApiError 413 `body_too_large` (before reading them when the
 * request declares its length).
 */
export function limitBody(maxBytes: number, message = `The request body must be at most ${maxBytes} bytes`): MiddlewareHandler {
  const limit = bodyLimit({
    maxSize: maxBytes,
    onError: () => {
      throw new ApiError(413, 'body_too_large', message);
    },
  });
  // GET, HEAD and OPTIONS bodies are never read by any route, so there is nothing to bound. A body
  // framed by its Content-Length is exactly that long (Node's parser reads no more), so the
  // declared length is checked without asking for the body: that would build a full fetch Request
  // and stream on every storefront POST (bench:storefront). Only a chunked body is counted as read.
  return (c, next) => {
    if (BODYLESS.has(c.req.method)) return next();
    const length = declaredLength(c);
    if (length !== undefined) {
      if (length > maxBytes) throw new ApiError(413, 'body_too_large', message);
      return next();
    }
    return limit(c, next);
  };
}

/** Methods whose bodies no route reads. */
const BODYLESS = new Set(['GET', 'HEAD', 'OPTIONS']);
