/**
 * Webhook processing on its own thread (issue 14 "Webhooks off the request path"): the serving
 * thread verifies, stores and answers deliveries; a worker thread (server/webhooks/worker.ts)
 * with its own database connection evaluates and writes the points. Answers never wait behind an
 * order's evaluation, and the second core does the processing. A thread that dies is started
 * again after a second (deliveries stay queued meanwhile).
 */
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { Worker } from 'node:worker_threads';
import type { Logger } from '../logging';
import type { JournalRecord } from './journal';
import type { NewDelivery } from './queue';
import type { ProcessingThreadData, ThreadReply } from './worker';

declare const __BUNDLED__: boolean | undefined;

/**
 * Starts the worker: the built file beside the bundle (scripts/build-server.ts), or, when the
 * server runs from source under tsx, the TypeScript source through tsx's loader (a worker does
 * not inherit the `--import tsx` hooks on Node 20).
 */
function newWorker(workerData: ProcessingThreadData): Worker {
  if (typeof __BUNDLED__ !== 'undefined' && __BUNDLED__) return startWithFlags((execArgv) => new Worker(new URL('./webhook-worker.mjs', import.meta.url), { workerData, execArgv }));
  const tsxApi = pathToFileURL(join(dirname(createRequire(import.meta.url).resolve('tsx/package.json')), 'dist/esm/api/index.mjs')).href;
  const entry = new URL('./worker.ts', import.meta.url).href;
  const code = `import(${JSON.stringify(tsxApi)}).then((tsx) => { tsx.register(); return import(${JSON.stringify(entry)}); })`;
  return startWithFlags((execArgv) => new Worker(code, { eval: true, workerData, execArgv }));
}

/**
 * The parent's Node flags without its preloads (`--import`, `--require`, `--loader`): those are
 * for the serving thread (tsx, a bench's monitor) and may not load in a worker; flags such as
 * `--cpu-prof` carry over. Flags a worker refuses are dropped when it starts (startWithFlags).
 */
export function workerExecArgv(parent: readonly string[]): string[] {
  const out: string[] = [];
  for (let i = 0; i < parent.length; i++) {
    const flag = parent[i]!;
    if (/^--(import|require|loader|experimental-loader)$/.test(flag) || flag === '-r') {
      i++;
      continue;
    }
    if (/^--(import|require|loader|experimental-loader)=/.test(flag)) continue;
    out.push(flag);
  }
  return out;
}

/**
 * Starts a worker with the parent's flags (workerExecArgv), leaving out the ones Node refuses in
 * a worker's `execArgv`: V8 options such as `--max-old-space-size`, `--stack-size` or `--trace-gc`
 * and options of the whole process such as `--title` (ERR_WORKER_INVALID_EXEC_ARGV, whose message
 * names them). Those already apply to the whole process, so nothing is lost; without this the
 * app did not start under `node --max-old-space-size=… dist/server/main.mjs`. When the refused
 * flags cannot be told apart, the worker starts with none. Other errors are thrown.
 */
export function startWithFlags<T>(start: (execArgv: string[]) => T, parent: readonly string[] = process.execArgv): T {
  let flags = workerExecArgv(parent);
  for (;;) {
    try {
      return start(flags);
    } catch (e) {
      if ((e as { code?: unknown }).code !== 'ERR_WORKER_INVALID_EXEC_ARGV' || flags.length === 0) throw e;
      const refused = /flags: (.*)$/.exec((e as Error).message)?.[1]?.split(', ') ?? [];
      const kept = flags.filter((f) => !refused.includes(f));
      flags = kept.length < flags.length ? kept : [];
    }
  }
}

/** A journaled record handed to the thread, waiting for its answer. */
interface StoreWaiter {
  record: JournalRecord;
  resolve: (r: { id: string; duplicate: boolean }) => void;
  reject: (e: Error) => void;
}

/** The serving thread's handle on the processing thread. */
export class ProcessingThread {
  private worker: Worker | null = null;
  private stopping = false;
  private ready: Promise<void> = Promise.resolve();
  private running = false;
  private kickScheduled = false;
  private nextRef = 0;
  /** Deliveries handed to the thread and not yet answered, by reference. */
  private readonly pending = new Map<number, { resolve: (r: { id: string; duplicate: boolean }) => void; reject: (e: Error) => void }>();
  /** Journaled records waiting for this turn of the event loop's message (see `store`). */
  private outbox: StoreWaiter[] = [];
  /** Messages of journaled records sent and not yet answered, by reference. */
  private readonly batches = new Map<number, StoreWaiter[]>();

  constructor(
    private readonly data: ProcessingThreadData,
    private readonly logger: Logger,
  ) {}

  /** Starts the thread; resolves once it is polling. Rejects when it fails to start. */
  start(): Promise<void> {
    const worker = newWorker(this.data);
    this.worker = worker;
    this.ready = new Promise((resolve, reject) => {
      worker.once('message', (m) => {
        if (m !== 'ready') return reject(new Error(`unexpected message ${String(m)}`));
        this.running = true;
        resolve();
      });
      worker.once('error', reject);
    });
    worker.on('message', (m: unknown) => {
      if (typeof m !== 'object' || m === null) return;
      const reply = m as ThreadReply;
      const batch = this.batches.get(reply.ref);
      if (batch) {
        this.batches.delete(reply.ref);
        batch.forEach((b, i) => (reply.error !== undefined || !reply.results?.[i] ? b.reject(new Error(reply.error ?? 'no answer for the record')) : b.resolve(reply.results[i])));
        return;
      }
      const waiting = this.pending.get(reply.ref);
      if (!waiting) return;
      this.pending.delete(reply.ref);
      if (reply.error !== undefined) waiting.reject(new Error(reply.error));
      else waiting.resolve({ id: reply.id!, duplicate: reply.duplicate! });
    });
    worker.on('error', (e) => this.logger.error({ err: e }, 'webhook processing thread failed'));
    worker.on('exit', (code) => {
      if (this.worker === worker) this.worker = null;
      this.running = false;
      for (const [ref, waiting] of this.pending) {
        this.pending.delete(ref);
        waiting.reject(new Error('the webhook processing thread exited'));
      }
      for (const [ref, batch] of this.batches) {
        this.batches.delete(ref);
        for (const b of batch) b.reject(new Error('the webhook processing thread exited'));
      }
      if (this.stopping) return;
      this.logger.error({ code }, 'webhook processing thread exited; starting it again in 1 s');
      setTimeout(() => {
        if (!this.stopping) void this.start().catch(() => undefined);
      }, 1000).unref();
    });
    return this.ready;
  }

  /**
   * Has the thread store a delivery (the serving thread's fallback when SQLite's write lock stayed
   * taken: server/webhooks/intake.ts). Rejects when the thread is not running or exits first; the caller then
   * stores the delivery itself.
   */
  enqueue(delivery: NewDelivery): Promise<{ id: string; duplicate: boolean }> {
    const worker = this.worker;
    if (!worker || !this.running || this.stopping) return Promise.reject(new Error('the webhook processing thread is not running'));
    const ref = ++this.nextRef;
    const { parsed: _parsed, ...plain } = delivery;
    return new Promise((resolve, reject) => {
      this.pending.set(ref, { resolve, reject });
      worker.postMessage({ type: 'enqueue', ref, delivery: plain });
    });
  }

  /** Whether the thread is up and taking work. */
  get isRunning(): boolean {
    return this.worker !== null && this.running && !this.stopping;
  }

  /**
   * Has the thread store a journaled delivery (server/webhooks/intake.ts storeThroughJournal): the
   * records of one turn of the event loop go in one message, and the thread stores them in one
   * transaction. Resolves once stored; rejects when the thread is not running or exits first.
   */
  store(record: JournalRecord): Promise<{ id: string; duplicate: boolean }> {
    if (!this.isRunning) return Promise.reject(new Error('the webhook processing thread is not running'));
    return new Promise((resolve, reject) => {
      this.outbox.push({ record, resolve, reject });
      if (this.outbox.length > 1) return;
      setImmediate(() => {
        const batch = this.outbox;
        this.outbox = [];
        const worker = this.worker;
        if (!worker || !this.isRunning) {
          for (const b of batch) b.reject(new Error('the webhook processing thread is not running'));
          return;
        }
        const ref = ++this.nextRef;
        this.batches.set(ref, batch);
        worker.postMessage({ type: 'store', ref, records: batch.map((b) => b.record) });
      });
    });
  }

  /** Tells the thread a delivery is waiting; kicks in one turn of the event loop make one message. */
  kick(): void {
    if (this.kickScheduled || !this.worker) return;
    this.kickScheduled = true;
    setImmediate(() => {
      this.kickScheduled = false;
      this.worker?.postMessage('kick');
    });
  }

  /** Lets the thread finish the delivery in hand and close its connection (SIGTERM); at most `timeoutMs`. */
  async stop(timeoutMs = 10_000): Promise<void> {
    this.stopping = true;
    const worker = this.worker;
    if (!worker) return;
    await this.ready.catch(() => undefined);
    await new Promise<void>((resolve) => {
      const timer = setTimeout(() => void worker.terminate().then(() => resolve()), timeoutMs);
      worker.on('message', (m) => {
        if (m === 'stopped') {
          clearTimeout(timer);
          void worker.terminate().then(() => resolve());
        }
      });
      worker.postMessage('stop');
    });
  }
}
