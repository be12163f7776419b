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
 *
 * With a processing thread the serving thread does not write deliveries into SQLite at all: they go
 * through the intake journal (server/webhooks/journal.ts, {@link storeThroughJournal}), and the
 * direct store above serves only while that thread is not running.
 */
import type { Logger } from '../logging';
import type { IntakeJournal, JournalRecord } from './journal';
import { nextSeq, type NewDelivery, type WebhookQueue } from './queue';

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

/** What {@link storeThroughJournal} needs. */
export interface JournaledStoreOptions {
  /** The serving thread's journal (server/webhooks/journal.ts). */
  journal: IntakeJournal;
  /** Hands a journaled record to the processing thread; resolves once it is stored there. */
  handOver: (record: JournalRecord) => Promise<unknown>;
  /** Whether the processing thread is up to take records now (else the delivery is stored by `direct`). */
  threadRunning: () => boolean;
  /** The first stored delivery of this shop with this webhook id (a read: it never waits for the write lock), or null. */
  storedWebhook: (shopId: string, webhookId: string) => Promise<string | null>;
  /** Stores records on the serving thread's own connection (a retry after the processing thread failed to). */
  storeHere: (records: JournalRecord[]) => Promise<unknown>;
  /** The store used when the journal cannot be written or the processing thread is not running (storeWithoutWaiting). */
  direct: (delivery: NewDelivery) => Promise<{ id: string; duplicate: boolean }>;
  logger?: Logger;
}

/** Webhook ids (`shop webhookId` → delivery id) journaled by this process lately: a redelivery within seconds is known without a read. */
const RECENT_WEBHOOKS = 10_000;

/**
 * A `QueueOptions.store` for the serving thread on SQLite with a processing thread: the delivery
 * is appended to the intake journal and answered at once (`duplicate: true` with the first id
 * when this shop's webhook id was journaled lately or is stored already), then handed to the
 * processing thread, which stores it in a batch. If that fails (the thread exited), the serving
 * thread stores the record itself, retrying while SQLite's write lock is taken, off the answer's
 * path; the journal keeps the record until it is stored, and a restart stores whatever is left.
 */
export function storeThroughJournal(options: JournaledStoreOptions): (delivery: NewDelivery) => Promise<{ id: string; duplicate: boolean }> {
  const { journal, handOver, threadRunning, storedWebhook, storeHere, direct, logger } = options;
  const recent = new Map<string, string>();
  const storeLater = async (record: JournalRecord): Promise<void> => {
    for (let attempt = 0; ; attempt++) {
      try {
        await storeHere([record]);
        return;
      } catch (e) {
        if (!isBusy(e) || attempt >= 60_000) throw e;
        await new Promise((resolve) => setTimeout(resolve, attempt < 10 ? 1 : 10));
      }
    }
  };
  return async (delivery) => {
    if (!threadRunning()) return direct(delivery);
    if (delivery.webhookId !== null) {
      const key = `${delivery.shopId} ${delivery.webhookId}`;
      // Looked up again after the read: the same webhook may have been journaled meanwhile.
      const first = recent.get(key) ?? (await storedWebhook(delivery.shopId, delivery.webhookId)) ?? recent.get(key);
      if (first) return { id: first, duplicate: true };
    }
    const record: JournalRecord = { id: crypto.randomUUID(), seq: nextSeq(), receivedAt: new Date().toISOString(), shopId: delivery.shopId, topic: delivery.topic, webhookId: delivery.webhookId, orderKey: delivery.orderKey, body: delivery.body };
    let segment: number;
    try {
      segment = journal.append(record);
    } catch (e) {
      logger?.warn({ err: e }, 'the intake journal could not be written; storing the delivery directly');
      return direct(delivery);
    }
    if (delivery.webhookId !== null) {
      if (recent.size >= RECENT_WEBHOOKS) recent.delete(recent.keys().next().value as string);
      recent.set(`${delivery.shopId} ${delivery.webhookId}`, record.id);
    }
    handOver(record)
      .catch(() => storeLater(record))
      .then(
        () => journal.settle(segment),
        (e: unknown) => logger?.error({ err: e, deliveryId: record.id }, 'a journaled delivery could not be stored; it stays in the journal for the next start'),
      );
    return { id: record.id, duplicate: false };
  };
}
