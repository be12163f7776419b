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
 *
 * The other way round, a background thread that holds the lock must be able to finish. The webhook
 * processing thread runs lowered (nice 19, SCHED_IDLE: server/webhooks/worker.ts), and on a machine
 * whose cores are busy with other work it may get almost no CPU while it holds the lock for its
 * group: a merchant's points adjustment then waited 2.5–4.1 s, near the 5 s after which it fails
 * (`npm run bench:lift`: 3,000 queued orders, two busy loops beside the app; 34 ms at most without
 * them; with the lift below 107–516 ms, and bench:lift fails past 1 s). So the lowered thread registers its thread id (`registerLoweredWriter`), a serving
 * write that has waited LIFT_AFTER_MS lifts it to the normal policy at nice 0
 * (`liftLoweredWriters`), and the thread lowers itself again once its group has committed
 * (`lowerAgainIfLifted`, called by the group commit): priority inheritance by hand.
 */

/** The longest a background writer yields to the serving thread before taking the lock anyway (ms). */
export const BACKGROUND_YIELD_MS = 100;

/** How long a serving-thread write waits for the lock before it lifts the lowered background writer (ms): longer than a group holds the lock on a machine with room (34 ms at most measured). */
export const LIFT_AFTER_MS = 50;

/** The least time between two lifts (ms): a write that still waits lifts again, in case the writer lowered itself meanwhile. */
export const RELIFT_MS = 100;

/** How often a lowered writer looks again, after its group, for a lift that landed late (ms). */
export const LANDING_CHECK_MS = 20;
/** How long after its group a lowered writer keeps looking for a lift that landed late (ms). */
export const LANDING_WATCH_MS = 500;

// Cells of the shared buffer: the count of waiting serving writes, the count of lifts done, the
// counts of lifts started and settled (done or refused), and the lowered writers' thread ids (0: a
// free cell), MAX_LOWERED_WRITERS of them.
const COUNT = 0;
const LIFTS = 1;
const STARTED = 2;
const SETTLED = 3;
const FIRST_TID = 4;
/** How many lowered writers (webhook processing threads, WEBHOOK_WORKERS) can register; more are not lifted. */
export const MAX_LOWERED_WRITERS = 8;
const CELLS = FIRST_TID + MAX_LOWERED_WRITERS;

/** The shared counter of serving-thread writers waiting for the write lock, and the lowered writer's lifts. */
export class WritePriority {
  private readonly cell: Int32Array;
  /** This thread's way to lower itself again (set by `registerLoweredWriter` on the lowered thread only). */
  private lower: (() => Promise<unknown>) | null = null;
  /** The lowered thread: the lift count it last lowered itself after. */
  private loweredAfter = 0;
  /** The serving thread: when it last started a lift (performance.now(), ms). */
  private liftedAt = -Infinity;
  /** Set on the serving thread once a lift failed (not permitted): no further tries. */
  private liftUnavailable = false;
  /** The lowered thread: its next look for a lift that landed late (lowerAgainIfLifted), if one is due. */
  private landingCheck: ReturnType<typeof setTimeout> | null = null;
  /** The lowered thread: until when (performance.now(), ms) it keeps looking after its last group. */
  private watchUntil = 0;

  /** A new counter, or the one another thread made (its `buffer`, passed through `workerData`). */
  constructor(readonly buffer: SharedArrayBuffer = new SharedArrayBuffer(CELLS * 4)) {
    if (buffer.byteLength < CELLS * 4) throw new RangeError(`a WritePriority buffer has ${CELLS * 4} bytes`);
    this.cell = new Int32Array(buffer);
  }

  /**
   * A lowered background writer, once it has lowered itself: its kernel thread id, and how it
   * lowers itself again after a lift (without blocking: server/thread-priority.ts lowerThreadLater).
   * Answers false when MAX_LOWERED_WRITERS are registered already (this one is then never lifted).
   */
  registerLoweredWriter(tid: number, lower: () => Promise<unknown>): boolean {
    for (let i = FIRST_TID; i < CELLS; i++) {
      if (Atomics.compareExchange(this.cell, i, 0, tid) === 0) {
        this.lower = lower;
        this.loweredAfter = Atomics.load(this.cell, LIFTS);
        return true;
      }
    }
    return false;
  }

  /**
   * The serving thread, while a write of its has waited LIFT_AFTER_MS for the lock: lifts every
   * lowered writer (`lift`, server/thread-priority.ts liftThread; the one holding the lock is
   * among them), at most once per RELIFT_MS, and counts the lift once done. Nothing when no writer
   * registered or a lift was refused before. Answers whether it started a lift.
   */
  liftLoweredWriters(lift: (tid: number) => Promise<void>): boolean {
    const now = performance.now();
    if (this.liftUnavailable || now - this.liftedAt < RELIFT_MS) return false;
    const tids: number[] = [];
    for (let i = FIRST_TID; i < CELLS; i++) {
      const tid = Atomics.load(this.cell, i);
      if (tid !== 0) tids.push(tid);
    }
    if (tids.length === 0) return false;
    this.liftedAt = now;
    Atomics.add(this.cell, STARTED, 1);
    Promise.all(tids.map(lift))
      .then(
        () => void Atomics.add(this.cell, LIFTS, 1),
        () => void (this.liftUnavailable = true),
      )
      .finally(() => Atomics.add(this.cell, SETTLED, 1));
    return true;
  }

  /**
   * The lowered writer, after its group committed or rolled back: starts lowering itself again when
   * a lift was done since it last did (it runs on, lifted, until that is done; a refusal is
   * ignored). Answers whether it started. A lift can land after this: one still in flight, or one
   * a write that still waits starts before its next try takes the lock (measured: a lift landing
   * 150–300 ms after the group's end left the thread lifted while it sat idle). So the writer looks
   * again every LANDING_CHECK_MS for LANDING_WATCH_MS after the group's end, and for as long as a
   * lift started has not settled, and lowers itself once another lift landed, unless a serving
   * write wants the lock then (that write's lift stands). A lowering that lands after a lift is
   * lifted again by the write that still waits.
   */
  lowerAgainIfLifted(): boolean {
    if (!this.lower) return false;
    this.watchUntil = performance.now() + LANDING_WATCH_MS;
    this.lookForLanding();
    return this.lowerIfLanded();
  }

  /** Starts lowering this (lowered, registered) thread when a lift landed since it last did. */
  private lowerIfLanded(): boolean {
    const lifts = Atomics.load(this.cell, LIFTS);
    if (!this.lower || lifts === this.loweredAfter) return false;
    this.loweredAfter = lifts;
    this.lower().catch(() => undefined);
    return true;
  }

  /** The next look for a landed lift, in LANDING_CHECK_MS (see lowerAgainIfLifted). */
  private lookForLanding(): void {
    if (this.landingCheck) return;
    this.landingCheck = setTimeout(() => {
      this.landingCheck = null;
      if (!this.wanted) this.lowerIfLanded();
      if (performance.now() < this.watchUntil || Atomics.load(this.cell, SETTLED) < Atomics.load(this.cell, STARTED)) this.lookForLanding();
    }, LANDING_CHECK_MS);
    // A thread with nothing else to do may end; a look is no reason to stay.
    (this.landingCheck as { unref?: () => void }).unref?.();
  }

  /** How many lifts were done (for tests and diagnostics). */
  get lifts(): number {
    return Atomics.load(this.cell, LIFTS);
  }

  /** The serving thread: a write of ours wants the lock (call `served` once it is done or gave up). */
  waiting(): void {
    Atomics.add(this.cell, COUNT, 1);
  }

  /** The serving thread: the write that called `waiting` is done, or gave up. */
  served(): void {
    Atomics.sub(this.cell, COUNT, 1);
    Atomics.notify(this.cell, COUNT);
  }

  /** Whether a serving-thread writer waits for the lock now. */
  get wanted(): boolean {
    return Atomics.load(this.cell, COUNT) > 0;
  }

  /** How many serving-thread writes are counted in now. */
  get count(): number {
    return Atomics.load(this.cell, COUNT);
  }

  /**
   * A background thread, before it takes the lock: blocks this thread until no serving-thread
   * writer waits, for at most `maxWaitMs`. Answers the milliseconds it waited.
   */
  yieldToServing(maxWaitMs = BACKGROUND_YIELD_MS): number {
    const started = performance.now();
    for (;;) {
      const count = Atomics.load(this.cell, COUNT);
      const left = maxWaitMs - (performance.now() - started);
      if (count <= 0 || left <= 0) return performance.now() - started;
      Atomics.wait(this.cell, COUNT, count, left);
    }
  }
}
