/**
 * Customer imports on a thread of their own (issue 10; DESIGN.md "nothing heavy runs inside a
 * request"): the serving thread stores the upload and the mapping and kicks this thread, whose
 * ImportRunner (./worker.ts) writes the batches on its own database connection. A thread that dies
 * is started again after a second; the import resumes from its committed batch.
 */
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { Worker } from 'node:worker_threads';
import type { Logger } from '../../logging';
import { startWithFlags } from '../../webhooks/thread';
import type { ImportThreadData } from './worker';

declare const __BUNDLED__: boolean | undefined;

/**
 * The thread's V8 heap limits. A young generation of at most 16 MB (V8's default lets it reach 48 MB
 * on a large machine): an import allocates a batch's rows and statements and drops them, so short
 * scavenges keep its memory flat; the old generation's cap turns a runaway into the thread's exit
 * (and a restart that resumes) rather than the server's.
 */
const RESOURCE_LIMITS = { maxYoungGenerationSizeMb: 16, maxOldGenerationSizeMb: 512 };

/** The built entry beside the bundle (scripts/build-server.ts), or the TypeScript source through tsx's loader. */
function newWorker(workerData: ImportThreadData): Worker {
  const resourceLimits = RESOURCE_LIMITS;
  if (typeof __BUNDLED__ !== 'undefined' && __BUNDLED__) return startWithFlags((execArgv) => new Worker(new URL('./import-worker.mjs', import.meta.url), { workerData, execArgv, resourceLimits }));
  const tsxApi = pathToFileURL(join(dirname(createRequire(import.meta.url).resolve('tsx/package.json')), 'dist/esm/api/index.mjs')).href;
  const entry = new URL('./worker.ts', import.meta.url).href;
  const code = `import(${JSON.stringify(tsxApi)}).then((tsx) => { tsx.register(); return import(${JSON.stringify(entry)}); })`;
  return startWithFlags((execArgv) => new Worker(code, { eval: true, workerData, execArgv, resourceLimits }));
}

/** The import thread as the serving thread sees it: start, kick, stop. */
export class ImportThread {
  private worker: Worker | null = null;
  private ready: Promise<void> = Promise.resolve();
  private stopping = false;

  constructor(
    private readonly data: ImportThreadData,
    private readonly logger: Logger,
  ) {}

  /** Starts the thread; resolves once it polls for imports. Rejects when it fails to start. */
  start(): Promise<void> {
    const worker = newWorker(this.data);
    this.worker = worker;
    this.ready = new Promise((resolve, reject) => {
      worker.once('message', (m) => (m === 'ready' ? resolve() : reject(new Error(`unexpected message ${String(m)}`))));
      worker.once('error', reject);
    });
    worker.on('error', (e) => this.logger.error({ err: e }, 'customer import thread failed'));
    worker.on('exit', (code) => {
      if (this.worker === worker) this.worker = null;
      if (this.stopping) return;
      this.logger.error({ code }, 'customer import thread exited; starting it again in 1 s');
      setTimeout(() => {
        if (!this.stopping) void this.start().catch(() => undefined);
      }, 1000).unref();
    });
    return this.ready;
  }

  /** Tells the thread an import is waiting (its own polling finds it otherwise within IMPORT_LOCK_SECONDS). */
  kick(): void {
    this.worker?.postMessage('kick');
  }

  /** Lets the thread finish its batch in hand and close its connection (SIGTERM); at most `timeoutMs`. */
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
