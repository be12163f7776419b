/**
 * Structured logs (issue 14 "Operations"): one JSON line per request through pino, with a request
 * id (the caller's `X-Request-Id` or a new one, echoed back), method, path (never the query, which
 * may carry shopper ids and signatures), status, duration in milliseconds, the verified shop, and for
 * webhooks the topic and the platform's webhook id. Tokens, secrets, HMACs, cookies and shoppers'
 * personal data are never logged: headers are not logged at all, and bodies never are.
 */
import type { Context, MiddlewareHandler } from 'hono';
import { pino, type Logger } from 'pino';
import { ApiError } from './errors';
import { incomingHeader } from './request-headers';

export type { Logger };

/**
 * A JSON logger at `level` (LOG_LEVEL; `info` by default, `silent` in tests), writing to stdout
 * (asynchronously) or to `destination`. Any field named like a credential is redacted wherever it appears.
 */
export function createLogger(level = 'info', destination?: NodeJS.WritableStream): Logger {
  const options = {
    level,
    base: { service: 'loyalty-configurator' },
    redact: { paths: ['*.authorization', '*.token', '*.secret', '*.apiSecret', '*.accessToken', '*.email', '*.hmac', '*.cookie'], censor: '[redacted]' },
  };
  // Standard output is written asynchronously (pino's sonic-boom: lines queue while a write is in
  // flight and go out together) so a busy server does not pay a blocking write per request; pino
  // flushes what is queued when the process exits.
  return pino(options, destination ?? pino.destination({ dest: 1, sync: false }));
}

const REQUEST_ID = /^[A-Za-z0-9._-]{1,64}$/;

/**
 * The request lines' logger: the same level, base fields and output as `logger`, without its
 * redaction. A request line holds only the fields `requestLog` puts there (none a credential or
 * a shopper's data), and pino's redaction walked every line for the credential paths: about a
 * tenth of the storefront's cheapest calls (bench:storefront profile).
 */
export function requestLineLogger(logger: Logger): Logger {
  const stream = (logger as unknown as Record<symbol, unknown>)[pino.symbols.streamSym] as NodeJS.WritableStream | undefined;
  return stream ? pino({ level: logger.level, base: { service: 'loyalty-configurator' } }, stream) : logger;
}

/**
 * The request id of `c`: the caller's `X-Request-Id` when it is 1–64 characters of `[A-Za-z0-9._-]`,
 * else a new UUID. Echoed back on the answer and written on the request's log line.
 */
export function requestIdOf(c: Context): string {
  const given = incomingHeader(c, 'x-request-id');
  return given && REQUEST_ID.test(given) ? given : crypto.randomUUID();
}

/**
 * Writes the log line of the request `c` answered (`c.res`), `started` being its
 * `performance.now()` at arrival: a 5xx through `logger` with the error, anything else through
 * `lines` (requestLineLogger). The caller echoes `X-Request-Id` on the answer. `webhook` (the
 * admin app's log, whose door takes the platform's webhooks) adds the delivery's topic and webhook
 * id when the request has them; the storefront's gate never gets them and skips the look-ups.
 */
export function logAnswered(logger: Logger, lines: Logger, c: Context, requestId: string, started: number, webhook = false): void {
  const status = c.res.status;
  const shop = (c.get as (key: string) => unknown)('shopId');
  const topic = webhook ? incomingHeader(c, 'x-shopify-topic') : undefined;
  const webhookId = webhook ? incomingHeader(c, 'x-shopify-webhook-id') : undefined;
  const line = {
    requestId,
    method: c.req.method,
    path: c.req.path,
    status,
    ms: Math.round((performance.now() - started) * 10) / 10,
    ...(typeof shop === 'string' ? { shop } : {}),
    ...(topic ? { topic } : {}),
    ...(webhookId ? { webhookId } : {}),
  };
  const error = c.error;
  if (status >= 500) logger.error({ ...line, err: error && !(error instanceof ApiError) ? error : undefined }, 'request failed');
  else lines.info(line, 'request');
}

/** Logs every request once it is answered; a 5xx also logs the error (its stack stays in the log, never in the answer). */
export function requestLog(logger: Logger): MiddlewareHandler {
  const lines = requestLineLogger(logger);
  return async (c, next) => {
    const requestId = requestIdOf(c);
    const started = performance.now();
    await next();
    c.res.headers.set('X-Request-Id', requestId);
    logAnswered(logger, lines, c, requestId, started, true);
  };
}
