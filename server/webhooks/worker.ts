/**
 * The webhook processing thread's entry (started by server/webhooks/thread.ts): its own database
 * connection, registry and WebhookQueue, processing deliveries the serving thread stored. Messages
 * from the serving thread: `{ type: 'enqueue', ref, delivery }` (store this delivery and answer a
 * ThreadReply: the serving thread's fallback when it could not take SQLite's write lock in time), `'kick'` (a delivery was queued: look
 * now) and `'stop'` (finish the delivery in hand, close the database, answer `'stopped'`). It
 * answers `'ready'` once polling.
 */
import { parentPort, workerData } from 'node:worker_threads';
import { loadRegistry } from '../../engine/registry';
import type { AuthConfig } from '../config';
import { WritePriority } from '../db/write-priority';
import { currentThreadId, lowerThread, lowerThreadLater, nameThread } from '../thread-priority';
import { openDatabase } from '../db/database';
import { createLogger } from '../logging';
import { accessToken } from '../platform/access-tokens';
import { LocalDiscounts, ShopifyDiscounts } from '../platform/discounts';
import type { JournalRecord } from './journal';
import { WebhookQueue, type NewDelivery } from './queue';

/** What the serving thread hands the processing thread. */
export interface ProcessingThreadData {
  databaseLocation: string;
  sqliteSynchronous: 'normal' | 'full';
  schemasDir: string;
  auth: AuthConfig;
  /** Seconds a claim lasts (WEBHOOK_LOCK_SECONDS). */
  lockSeconds: number;
  logLevel: string;
  /** The serving thread's WritePriority counter (server/db/write-priority.ts): this thread yields the write lock to it. */
  writePriority?: SharedArrayBuffer;
}

/**
 * The processing thread's nice value (0 normal … 19 lowest; `WEBHOOK_THREAD_NICE`, default 19).
 * On Linux a nice value belongs to the thread, so only processing yields: when the serving thread
 * is idle, processing still gets every spare cycle; under load the answers to the platform come
 * first (bench:ingest: answer p99 at half the bare rate 21 ms at 19, 54 ms at 0). The serving thread
 * never waits for this thread to store a delivery (server/webhooks/intake.ts), so the low priority
 * cannot hold an answer back.
 */
export const PROCESSING_NICE = Number(process.env.WEBHOOK_THREAD_NICE ?? 19);

/**
 * The processing thread's scheduling policy (`WEBHOOK_THREAD_SCHED`: `idle`, the default, or
 * `normal`). With `idle` (Linux SCHED_IDLE, set through util-linux's `chrt` on this thread only)
 * the thread runs only on a core nothing else wants and gives it up at once when an answer is due:
 * a nice value of 19 alone still let it hold a core long enough to delay answers (a bare server
 * driven at half its rate beside a nice-19 busy loop: answer p99 56 ms; beside a SCHED_IDLE one:
 * 17 ms, 12–19 ms alone; 2-core machine, 2026-11-27). While a serving write waits for the write
 * lock this thread holds, it is lifted to the normal policy at nice 0 until its group commits
 * (server/db/write-priority.ts): else a busy machine could starve it with the lock in hand.
 */
export const PROCESSING_SCHED = process.env.WEBHOOK_THREAD_SCHED?.trim().toLowerCase() === 'normal' ? 'normal' : 'idle';

/**
 * The thread's answer to `{ type: 'enqueue', ref, delivery }` (the stored id, or why not) and to
 * `{ type: 'store', ref, records }` (`results`, one per record in order, or why not).
 */
export interface ThreadReply {
  ref: number;
  id?: string;
  duplicate?: boolean;
  results?: { id: string; duplicate: boolean }[];
  error?: string;
}

const port = parentPort;
if (port) {
  const data = workerData as ProcessingThreadData;
  const logger = createLogger(data.logLevel).child({ thread: 'webhooks' });
  nameThread('loyalty-webhook');
  // On Linux a nice value and a policy belong to the thread: this changes only the processing thread.
  const tid = currentThreadId();
  const idle = tid !== null && lowerThread(tid, { nice: PROCESSING_NICE, idle: PROCESSING_SCHED === 'idle' });
  if (!idle && PROCESSING_SCHED === 'idle') logger.info('SCHED_IDLE is not available here: the processing thread keeps its nice value only');
  const writePriority = data.writePriority ? new WritePriority(data.writePriority) : null;
  // A serving write that waits for the lock this thread holds lifts it until the group commits (server/db/write-priority.ts).
  if (writePriority && tid !== null && (PROCESSING_NICE !== 0 || idle)) writePriority.registerLoweredWriter(tid, () => lowerThreadLater(tid, { nice: PROCESSING_NICE, idle }));
  // The serving thread has migrated the database and checkpoints it.
  const db = await openDatabase(data.databaseLocation, { sqliteSynchronous: data.sqliteSynchronous, checkpointer: false, spinOnBusy: true, groupCommit: true, onIdleConnectionError: (message) => logger.warn({ err: message }, 'an idle database connection failed; the pool opens a new one'), ...(writePriority ? { writePriority } : {}) });
  const registry = loadRegistry(data.schemasDir, { compile: 'lazy' });
  // Referral coupons are made while an order is processed (server/services/referrals.ts): the same discount adapter as the serving thread.
  const platformDiscounts = data.auth.demo ? new LocalDiscounts() : new ShopifyDiscounts({ accessToken: (shopId) => accessToken({ db, auth: data.auth }, shopId) });
  const queue = new WebhookQueue({ db, registry, auth: data.auth, logger, platformDiscounts }, { logger, lockSeconds: data.lockSeconds });
  // Journaled records (server/webhooks/journal.ts) from every message of one turn are stored in
  // one transaction.
  let inbox: { ref: number; records: JournalRecord[] }[] = [];
  let storing: Promise<void> = Promise.resolve();
  const storeInbox = (): void => {
    const batch = inbox;
    inbox = [];
    storing = queue
      .storeRecords(batch.flatMap((m) => m.records))
      .then(
        (results) => {
          let at = 0;
          for (const m of batch) {
            port.postMessage({ ref: m.ref, results: results.slice(at, at + m.records.length) } satisfies ThreadReply);
            at += m.records.length;
          }
          queue.kick();
        },
        (e: unknown) => {
          for (const m of batch) port.postMessage({ ref: m.ref, error: e instanceof Error ? e.message : String(e) } satisfies ThreadReply);
        },
      );
  };
  port.on('message', (message: unknown) => {
    if (typeof message === 'object' && message !== null && (message as { type?: unknown }).type === 'store') {
      inbox.push(message as { ref: number; records: JournalRecord[] });
      if (inbox.length === 1) setImmediate(() => void storing.then(storeInbox));
    } else if (typeof message === 'object' && message !== null && (message as { type?: unknown }).type === 'enqueue') {
      const { ref, delivery } = message as { ref: number; delivery: NewDelivery };
      queue.enqueue(delivery).then(
        (stored) => {
          port.postMessage({ ref, ...stored } satisfies ThreadReply);
          if (!stored.duplicate) queue.kick();
        },
        (e: unknown) => port.postMessage({ ref, error: e instanceof Error ? e.message : String(e) } satisfies ThreadReply),
      );
    } else if (message === 'kick') queue.kick();
    else if (message === 'stop') {
      // Records handed over before the stop are stored first (else the journal keeps them for the next start).
      void storing
        .then(() => (inbox.length > 0 ? (storeInbox(), storing) : undefined))
        .then(() => queue.stop())
        .then(() => db.destroy())
        .then(() => port.postMessage('stopped'));
    }
  });
  queue.start();
  port.postMessage('ready');
}
