/**
 * The customer import thread's entry (started by ./thread.ts): its own database connection and an
 * ImportRunner, so an import's batches never hold up the serving thread's answers. The connection
 * reads the file through SQLite's page cache rather than a memory map (IMPORT_SQLITE_PRAGMAS): an
 * import touches every page of the indexes it grows, and mapped pages would count in the process's RSS.
 * Messages from the serving thread: `'kick'` (an import was queued: look now) and `'stop'` (finish
 * the batch in hand, close the database, answer `'stopped'`). It answers `'ready'` once polling.
 */
import { parentPort, workerData } from 'node:worker_threads';
import { sql } from 'kysely';
import { isPostgresUrl, openDatabase } from '../../db/database';
import { WritePriority } from '../../db/write-priority';
import { createLogger } from '../../logging';
import { nameThread } from '../../thread-priority';
import { IMPORT_SQLITE_PRAGMAS, ImportRunner } from './job';

/** What the serving thread hands the import thread. */
export interface ImportThreadData {
  databaseLocation: string;
  sqliteSynchronous: 'normal' | 'full';
  /** Seconds a runner's claim on an import lasts (IMPORT_LOCK_SECONDS). */
  lockSeconds: number;
  logLevel: string;
  /** The serving thread's WritePriority counter (server/db/write-priority.ts): imports yield the write lock to it. */
  writePriority?: SharedArrayBuffer;
}

const port = parentPort;
if (port) {
  const data = workerData as ImportThreadData;
  nameThread('loyalty-import');
  const logger = createLogger(data.logLevel).child({ thread: 'imports' });
  // The serving thread has migrated the database and checkpoints it.
  const db = await openDatabase(data.databaseLocation, { sqliteSynchronous: data.sqliteSynchronous, checkpointer: false, spinOnBusy: true, max: 2, onIdleConnectionError: (message) => logger.warn({ err: message }, 'an idle database connection failed; the pool opens a new one'), ...(data.writePriority ? { writePriority: new WritePriority(data.writePriority) } : {}) });
  if (!isPostgresUrl(data.databaseLocation)) {
    for (const pragma of IMPORT_SQLITE_PRAGMAS) await sql.raw(`pragma ${pragma}`).execute(db);
  }
  const runner = new ImportRunner({ db, logger }, { lockSeconds: data.lockSeconds });
  port.on('message', (message: unknown) => {
    if (message === 'kick') runner.kick();
    else if (message === 'stop') {
      void runner
        .stop()
        .then(() => db.destroy())
        .then(() => port.postMessage('stopped'));
    }
  });
  runner.startPolling();
  port.postMessage('ready');
}
