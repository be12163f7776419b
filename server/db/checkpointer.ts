/**
 * SQLite WAL checkpoints on a worker thread. A checkpoint copies the write-ahead log back into
 * the database file and waits for the disk; SQLite runs it inside whichever commit crosses its
 * threshold (1,000 pages), and with better-sqlite3 that commit holds the event loop for tens of
 * milliseconds. Here a worker thread with its own connection checkpoints (PASSIVE: it never
 * blocks the writer) every `intervalMs` (100), so little is left to copy when a connection's own
 * threshold is reached.
 *
 * The log is only written from its start again (a restart) when a writer begins while every frame
 * is copied back. Under sustained writes (the storefront's redemptions commit every millisecond or
 * two) the worker's checkpoint always ends a few frames behind the last commit, so only a
 * connection's own checkpoint, run right after its commit, restarts the log. That one has to wait
 * for the disk (the log is synced before copying and the file after), about 30–40 ms on the
 * development machine under that load, whatever it copies. The serving connection therefore runs
 * it at SERVING_CHECKPOINT_PAGES (16 MB of log) and the other connections at SAFETY_NET_PAGES:
 * bench:storefront's redeem p99 went from 122–156 ms (a 20,000-page checkpoint inside a commit every
 * two seconds, with the worker checkpointing once a second) to 66–97 ms, and the log stays near
 * 16 MB instead of 80 MB.
 */
import { createRequire } from 'node:module';
import { Worker } from 'node:worker_threads';

/** Pages of WAL at which a background connection still checkpoints by itself (80 MB): a safety net. */
export const SAFETY_NET_PAGES = 20_000;
/** Pages of WAL (16 MB) at which the connection that runs the checkpointer checkpoints by itself, so the log restarts. */
export const SERVING_CHECKPOINT_PAGES = 4_000;
/** Milliseconds between the worker's checkpoints. */
export const CHECKPOINT_INTERVAL_MS = 100;

const WORKER_SOURCE = `
const { parentPort, workerData } = require('node:worker_threads');
const Database = require(workerData.module);
// Not at a low priority, on purpose: this thread holds SQLite's checkpoint lock while it copies,
// and a connection's own checkpoint is skipped, without waiting, while that lock is held. Under
// SCHED_IDLE (as the webhook processing thread) or nice 10, a machine busy with other work starved
// this thread in the middle of a checkpoint, every checkpoint of the serving connection was skipped
// meanwhile and the log grew past SERVING_CHECKPOINT_PAGES without bound (checkpointer.test.ts beside
// four busy loops and a writer syncing 50 MB at a time: over 6,000 pages, up to 11,853, in 6 of 22
// runs under SCHED_IDLE and 13 of 16 at nice 10; none of 10 at nice 0, 4,031–4,357, nor of 10 under
// SCHED_BATCH, 4,031–4,374). So nice 0, under SCHED_BATCH where util-linux's chrt allows: a fair share
// of the CPU, but its wake-ups do not preempt a running request. The price, measured in alternating
// bench:ingest runs on a saturated 2-core machine (README): end to end 303 → 275 orders/s (medians,
// idle vs not), the answers' p99 at half the bare rate 53 → 91 ms.
// Named for top -H and bench:ingest's CPU split (server/thread-priority.ts nameThread; eval source cannot import it).
try { require('node:fs').writeFileSync('/proc/thread-self/comm', 'loyalty-checkpt'); } catch {}
try {
  const tid = require('node:fs').readlinkSync('/proc/thread-self').split('/').pop();
  if (/^\\d+$/.test(tid)) require('node:child_process').execFileSync('chrt', ['--batch', '--pid', '0', tid], { stdio: 'ignore', timeout: 5000 });
} catch {}
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
 * Starts checkpointing the SQLite file at `path` every `intervalMs` (CHECKPOINT_INTERVAL_MS) on a worker thread.
 * `onError` hears about a failed checkpoint (the next one retries). The worker never keeps the
 * process alive.
 */
export function startCheckpointer(path: string, options: { intervalMs?: number; onError?: (message: string) => void } = {}): Checkpointer {
  const module = createRequire(import.meta.url).resolve('better-sqlite3');
  const worker = new Worker(WORKER_SOURCE, { eval: true, workerData: { module, path, intervalMs: options.intervalMs ?? CHECKPOINT_INTERVAL_MS } });
  worker.unref();
  worker.on('message', (m: { error?: string }) => {
    if (m.error) options.onError?.(m.error);
  });
  worker.on('error', (e) => options.onError?.(e.message));
  return { stop: () => worker.postMessage('stop') };
}
