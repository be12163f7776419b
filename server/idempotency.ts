/**
 * Idempotency-Key for writes (DESIGN.md "API writes accept an Idempotency-Key"; migration 0018
 * `idempotency_keys`). The first request with a key claims it and its answer is stored; a repeat
 * with the same key and the same request gets the stored answer (success or refusal) without
 * running again; the same key with a different request is refused.
 */
import { createHash } from 'node:crypto';
import type { ContentfulStatusCode } from 'hono/utils/http-status';
import type { FieldIssue } from '../engine/types';
import type { Db } from './db/database';
import { ApiError } from './errors';

/** Longest key accepted (characters). */
export const IDEMPOTENCY_KEY_MAX = 255;

/** Seconds after which an unfinished claim counts as abandoned (its process died mid-request). */
export const IDEMPOTENCY_CLAIM_SECONDS = 120;

/**
 * The `Idempotency-Key` header value, or undefined when absent. Throws ApiError 400
 * `invalid_idempotency_key` for an empty, over-long or non-printable key.
 */
export function idempotencyKeyOf(header: string | undefined): string | undefined {
  if (header === undefined) return undefined;
  const key = header.trim();
  if (key.length === 0 || key.length > IDEMPOTENCY_KEY_MAX || !/^[\x21-\x7e]+$/.test(key)) {
    throw new ApiError(400, 'invalid_idempotency_key', `Idempotency-Key must be 1 to ${IDEMPOTENCY_KEY_MAX} printable characters`);
  }
  return key;
}

/** JSON with object keys sorted, so `{a,b}` and `{b,a}` hash alike. */
function canonical(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonical).join(',')}]`;
  if (value !== null && typeof value === 'object') {
    const entries = Object.entries(value as Record<string, unknown>)
      .filter(([, v]) => v !== undefined)
      .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
    return `{${entries.map(([k, v]) => `${JSON.stringify(k)}:${canonical(v)}`).join(',')}}`;
  }
  return JSON.stringify(value);
}

/** SHA-256 hex of what identifies a request: its operation name and its body. */
export function requestHash(operation: string, body: unknown): string {
  return createHash('sha256').update(`${operation}\n${canonical(body)}`).digest('hex');
}

type Stored<T> = { ok: T } | { error: { code: string; message: string; details?: FieldIssue[] } };

/**
 * Runs `run` once per (shop, scope, key). A repeat with the same `hash` answers what the first run
 * answered (its result, or the same ApiError when it was refused with a 4xx); unexpected errors and
 * 5xx release the key so the client may retry, and so does a claim left unfinished for more than
 * IDEMPOTENCY_CLAIM_SECONDS (the process running it died). `retried` is internal.
 * @throws ApiError 422 `idempotency_key_reused` when the key was used for a different request,
 *   409 `idempotency_key_in_progress` while the first request with the key is still running
 */
export async function idempotent<T>(db: Db, at: { shopId: string; scope: string; key: string; hash: string; now: string }, run: () => Promise<T>, retried = false): Promise<T> {
  const claimed = await db
    .insertInto('idempotency_keys')
    .values({ shop_id: at.shopId, scope: at.scope, key: at.key, request_hash: at.hash, status: 0, answer: null, created_at: at.now })
    .onConflict((oc) => oc.columns(['shop_id', 'scope', 'key']).doNothing())
    .executeTakeFirst();
  if (Number(claimed.numInsertedOrUpdatedRows ?? 0n) !== 1) {
    const row = await db.selectFrom('idempotency_keys').selectAll().where('shop_id', '=', at.shopId).where('scope', '=', at.scope).where('key', '=', at.key).executeTakeFirst();
    if (!row) throw new ApiError(409, 'idempotency_key_in_progress', 'A request with this Idempotency-Key is still being processed');
    if (row.request_hash !== at.hash) throw new ApiError(422, 'idempotency_key_reused', 'This Idempotency-Key was already used for a different request');
    if (row.status === 0 || row.answer === null) {
      // A claim older than IDEMPOTENCY_CLAIM_SECONDS belongs to a run that died (a crashed process): release it once and run.
      if (!retried && Date.parse(at.now) - Date.parse(row.created_at) > IDEMPOTENCY_CLAIM_SECONDS * 1000) {
        await db.deleteFrom('idempotency_keys').where('shop_id', '=', at.shopId).where('scope', '=', at.scope).where('key', '=', at.key).where('status', '=', 0).where('created_at', '=', row.created_at).execute();
        return idempotent(db, at, run, true);
      }
      throw new ApiError(409, 'idempotency_key_in_progress', 'A request with this Idempotency-Key is still being processed');
    }
    const stored = JSON.parse(row.answer) as Stored<T>;
    if ('ok' in stored) return stored.ok;
    throw new ApiError(row.status as ContentfulStatusCode, stored.error.code, stored.error.message, stored.error.details);
  }
  const finish = (status: number, answer: Stored<T>) =>
    db
      .updateTable('idempotency_keys')
      .set({ status, answer: JSON.stringify(answer) })
      .where('shop_id', '=', at.shopId)
      .where('scope', '=', at.scope)
      .where('key', '=', at.key)
      .execute();
  let result: T;
  try {
    result = await run();
  } catch (e) {
    if (e instanceof ApiError && e.status >= 400 && e.status < 500) {
      await finish(e.status, { error: { code: e.code, message: e.message, ...(e.details ? { details: e.details } : {}) } });
    } else {
      await db.deleteFrom('idempotency_keys').where('shop_id', '=', at.shopId).where('scope', '=', at.scope).where('key', '=', at.key).execute();
    }
    throw e;
  }
  await finish(200, { ok: result });
  return result;
}
