/**
 * Storing webhook deliveries from the serving thread on SQLite (issue 14: "store the delivery
 * durably, answer 200" with the answer's p99 ≤ 20 ms while processing runs flat out).
 *
 * SQLite has one write lock per file, and the processing thread takes it for every order it
 * awards. SQLite's own busy handler waits by sleeping the calling thread, which on the serving
 * thread would stop every other request meanwhile. So the serving thread writes deliveries on a
 * connection of its own that never waits (`busy_timeout = 0`, and never runs the WAL safety-net
 * checkpoint in a commit): when the lock is taken the attempt fails at once, and this module tries
 * again on a later turn of the event loop, serving other requests in between. The processing
 * thread's transactions are short (evaluation happens before them), so a retry rarely waits more
 * than a millisecond or two.
 */
import type { NewDelivery, WebhookQueue } from './queue';

/** How long the serving thread keeps retrying a locked database before handing the delivery over (ms). */
export const INTAKE_RETRY_MS = 2000;

/** True for SQLite's "database is locked" family of errors (SQLITE_BUSY, SQLITE_BUSY_SNAPSHOT, …). */
export function isBusy(e: unknown): boolean {
  return String((e as { code?: unknown } | null)?.code ?? '').startsWith('SQLITE_BUSY');
}

/**
 * A `QueueOptions.store` for the serving thread: stores through `intake` (a WebhookQueue on a
 * connection opened with `busyTimeoutMs: 0, safetyNetCheckpoint: false`), retrying while the write
 * lock is held, for up to `retryMs`; after that, or on any other error, hands the delivery to
 * `fallback` (the processing thread, which may wait for the lock). Answers `{ id, duplicate }` as
 * WebhookQueue.enqueue does.
 */
export function storeWithoutWaiting(
  intake: Pick<WebhookQueue, 'enqueue'>,
  fallback: (delivery: NewDelivery) => Promise<{ id: string; duplicate: boolean }>,
  retryMs = INTAKE_RETRY_MS,
): (delivery: NewDelivery) => Promise<{ id: string; duplicate: boolean }> {
  return async (delivery) => {
    const until = Date.now() + retryMs;
    for (let attempt = 0; ; attempt++) {
      try {
        return await intake.enqueue(delivery);
      } catch (e) {
        if (!isBusy(e) || Date.now() > until) return fallback(delivery);
        // The first retries on the next turn of the loop, later ones a millisecond apart.
        await new Promise((resolve) => (attempt < 3 ? setImmediate(resolve) : setTimeout(resolve, 1)));
      }
    }
  };
}
