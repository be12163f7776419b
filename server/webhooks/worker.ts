/**
 * The webhook processing thread's entry (started by server/webhooks/thread.ts): its own database
 * connection, registry and WebhookQueue, processing deliveries the serving thread stored. Messages
 * from the serving thread: `'kick'` (a delivery was queued: look now) and `'stop'` (finish the
 * delivery in hand, close the database, answer `'stopped'`). It answers `'ready'` once polling.
 */
import { parentPort, workerData } from 'node:worker_threads';
import { loadRegistry } from '../../engine/registry';
import type { AuthConfig } from '../config';
import { openDatabase } from '../db/database';
import { createLogger } from '../logging';
import { WebhookQueue } from './queue';

/** What the serving thread hands the processing thread. */
export interface ProcessingThreadData {
  databaseLocation: string;
  sqliteSynchronous: 'normal' | 'full';
  schemasDir: string;
  auth: AuthConfig;
  /** Seconds a claim lasts (WEBHOOK_LOCK_SECONDS). */
  lockSeconds: number;
  logLevel: string;
}

const port = parentPort;
if (port) {
  const data = workerData as ProcessingThreadData;
  const logger = createLogger(data.logLevel).child({ thread: 'webhooks' });
  // The serving thread has migrated the database and checkpoints it.
  const db = await openDatabase(data.databaseLocation, { sqliteSynchronous: data.sqliteSynchronous, checkpointer: false });
  const registry = loadRegistry(data.schemasDir, { compile: 'lazy' });
  const queue = new WebhookQueue({ db, registry, auth: data.auth, logger }, { logger, lockSeconds: data.lockSeconds });
  port.on('message', (message: unknown) => {
    if (message === 'kick') queue.kick();
    else if (message === 'stop') {
      void queue
        .stop()
        .then(() => db.destroy())
        .then(() => port.postMessage('stopped'));
    }
  });
  queue.start();
  port.postMessage('ready');
}
