/**
 * Who writes first on a SQLite file (issue 11, redeem's p99 ≤ 50 ms in bench:storefront). SQLite
 * has one write lock per file and no queue for it: whoever asks at the right moment gets it. The
 * background threads (webhook processing, customer imports) spin for it every 50 µs while the
 * serving thread asks about once a millisecond (it waits on the event loop), so under a webhook
 * or visit backlog a shopper's redemption waited behind batch after batch: p50 333 ms, p99 976 ms.
 *
 * A WritePriority is a counter in shared memory that the serving thread and the background threads
 * of one process all see. The serving thread counts a transaction in from before its BEGIN to its
 * end (and a write outside a transaction while it waits for the lock); a background thread, before
 * each try at the lock, waits until the count is back at zero (at most `maxWaitMs` a try), and a
 * group commit ends its group early when the count rises. Under a steady stream of the serving
 * thread's writes background work waits; it catches up as soon as the stream pauses. Other processes on the file are not covered: they compete
 * as SQLite lets them.
 */

/** The longest a background writer yields to the serving thread before taking the lock anyway (ms). */
export const BACKGROUND_YIELD_MS = 100;

/** The shared counter of serving-thread writers waiting for the write lock. */
export class WritePriority {
  private readonly cell: Int32Array;

  /** A new counter, or the one another thread made (its `buffer`, passed through `workerData`). */
  constructor(readonly buffer: SharedArrayBuffer = new SharedArrayBuffer(4)) {
    this.cell = new Int32Array(buffer);
  }

  /** The serving thread: a write of ours wants the lock (call `served` once it is done or gave up). */
  waiting(): void {
    Atomics.add(this.cell, 0, 1);
  }

  /** The serving thread: the write that called `waiting` is done, or gave up. */
  served(): void {
    Atomics.sub(this.cell, 0, 1);
    Atomics.notify(this.cell, 0);
  }

  /** Whether a serving-thread writer waits for the lock now. */
  get wanted(): boolean {
    return Atomics.load(this.cell, 0) > 0;
  }

  /** How many serving-thread writes are counted in now. */
  get count(): number {
    return Atomics.load(this.cell, 0);
  }

  /**
   * A background thread, before it takes the lock: blocks this thread until no serving-thread
   * writer waits, for at most `maxWaitMs`. Answers the milliseconds it waited.
   */
  yieldToServing(maxWaitMs = BACKGROUND_YIELD_MS): number {
    const started = performance.now();
    for (;;) {
      const count = Atomics.load(this.cell, 0);
      const left = maxWaitMs - (performance.now() - started);
      if (count <= 0 || left <= 0) return performance.now() - started;
      Atomics.wait(this.cell, 0, count, left);
    }
  }
}
