/**
 * SQLite WAL checkpoints on a worker thread. A checkpoint copies the write-ahead log back into
 * the database file and waits for the disk; SQLite runs it inside whichever commit crosses its
 * threshold (1,000 pages), and with better-sqlite3 that commit holds the event loop for tens of
 * milliseconds. Here a worker thread with its own connection checkpoints (PASSIVE: it never
 * blocks the writer) every `intervalMs`, and the serving connection's own threshold is raised to
 * a safety net it only reaches if the worker stops.
 */
import { createRequire } from 'node:module';
import { Worker } from 'node:worker_threads';

/** Pages of WAL at which the serving connection still checkpoints by itself (80 MB): a safety net. */
export const SAFETY_NET_PAGES = 20_000;

const WORKER_SOURCE = `
const { parentPort, workerData } = require('node:worker_threads');
const Database = require(workerData.module);
// A lower priority for this thread only (Linux keeps nice values per thread): request threads first.
try { require('node:os').setPriority(10); } catch {}
// And under SCHED_IDLE where Linux and util-linux's chrt allow (as the webhook processing thread):
// it runs on a core nothing else wants.
if (workerData.idle) {
  try {
    const tid = require('node:fs').readlinkSync('/proc/thread-self').split('/').pop();
    if (/^\\d+$/.test(tid)) require('node:child_process').execFileSync('chrt', ['--idle', '--pid', '0', tid], { stdio: 'ignore', timeout: 5000 });
  } catch {}
}
const db = new Database(workerData.path);
db.pragma('busy_timeout = 5000');
const timer = setInterval(() => {
  try { db.pragma('wal_checkpoint(PASSIVE)'); } catch (e) { parentPort.postMessage({ error: String(e && e.message || e) }); }
}, workerData.intervalMs);
parentPort.on('message', (m) => { if (m === 'stop') { clearInterval(timer); db.close(); parentPort.close(); } });
`;

/** A running checkpointer; `stop()` ends it (also called when the database closes). */
export interface Checkpointer {
  stop(): void;
}

/**
 * Starts checkpointing the SQLite file at `path` every `intervalMs` (1000) on a worker thread.
 * `onError` hears about a failed checkpoint (the next one retries). The worker never keeps the
 * process alive.
 */
export function startCheckpointer(path: string, options: { intervalMs?: number; onError?: (message: string) => void } = {}): Checkpointer {
  const module = createRequire(import.meta.url).resolve('better-sqlite3');
  const worker = new Worker(WORKER_SOURCE, { eval: true, workerData: { module, path, intervalMs: options.intervalMs ?? 1000, idle: process.env.WEBHOOK_THREAD_SCHED?.trim().toLowerCase() !== 'normal' } });
  worker.unref();
  worker.on('message', (m: { error?: string }) => {
    if (m.error) options.onError?.(m.error);
  });
  worker.on('error', (e) => options.onError?.(e.message));
  return { stop: () => worker.postMessage('stop') };
}
