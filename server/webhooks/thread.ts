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
import type { ProcessingThreadData } from './worker';

declare const __BUNDLED__: boolean | undefined;

/**
 * Starts the worker: the built file beside the bundle (scripts/build-server.ts), or, when the
 * server runs from source under tsx, the TypeScript source through tsx's loader (a worker does
 * not inherit the `--import tsx` hooks on Node 20).
 */
function newWorker(workerData: ProcessingThreadData): Worker {
  if (typeof __BUNDLED__ !== 'undefined' && __BUNDLED__) return new Worker(new URL('./webhook-worker.mjs', import.meta.url), { workerData });
  const tsxApi = pathToFileURL(join(dirname(createRequire(import.meta.url).resolve('tsx/package.json')), 'dist/esm/api/index.mjs')).href;
  const entry = new URL('./worker.ts', import.meta.url).href;
  const code = `import(${JSON.stringify(tsxApi)}).then((tsx) => { tsx.register(); return import(${JSON.stringify(entry)}); })`;
  return new Worker(code, { eval: true, workerData, execArgv: [] });
}

/** The serving thread's handle on the processing thread. */
export class ProcessingThread {
  private worker: Worker | null = null;
  private stopping = false;
  private ready: Promise<void> = Promise.resolve();

  constructor(
    private readonly data: ProcessingThreadData,
    private readonly logger: Logger,
  ) {}

  /** Starts the thread; resolves once it is polling. Rejects when it fails to start. */
  start(): Promise<void> {
    const worker = newWorker(this.data);
    this.worker = worker;
    this.ready = new Promise((resolve, reject) => {
      worker.once('message', (m) => (m === 'ready' ? resolve() : reject(new Error(`unexpected message ${String(m)}`))));
      worker.once('error', reject);
    });
    worker.on('error', (e) => this.logger.error({ err: e }, 'webhook processing thread failed'));
    worker.on('exit', (code) => {
      if (this.worker === worker) this.worker = null;
      if (this.stopping) return;
      this.logger.error({ code }, 'webhook processing thread exited; starting it again in 1 s');
      setTimeout(() => {
        if (!this.stopping) void this.start().catch(() => undefined);
      }, 1000).unref();
    });
    return this.ready;
  }

  /** Tells the thread a delivery is waiting. */
  kick(): void {
    this.worker?.postMessage('kick');
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
