/**
 * The background-job scaffolding the customer import and the customer export share
 * (server/services/customer-import/job.ts, server/services/customer-export/job.ts): a sweep takes up
 * the jobs that are waiting or whose runner's claim lapsed; `kick()` starts one (or has the sweep in
 * flight go round once more, since it may have looked before the newest job was queued);
 * `startPolling()` sweeps every claim period; `stop()` stops and lets the work in hand finish.
 */
import type { Logger } from '../logging';
import { CoalescedRun } from './coalesced-run';

export abstract class SweepingRunner {
  private readonly sweeps: CoalescedRun;
  private timer: NodeJS.Timeout | null = null;
  /** True once `stop()` was called: no new sweep starts, and jobs should end at their next safe point. */
  protected stopping = false;

  /**
   * @param periodMs how often `startPolling()` sweeps (milliseconds): the jobs' claim period
   * @param what the jobs' name in the log ("customer import")
   */
  protected constructor(
    private readonly periodMs: number,
    private readonly what: string,
    private readonly logger: () => Logger | undefined,
  ) {
    this.sweeps = new CoalescedRun(
      () => this.takeUpWaiting(),
      (e: unknown) => this.logger()?.error({ err: e }, `${this.what} sweep failed`),
      () => !this.stopping,
    );
  }

  /** One sweep: takes up every job that is waiting or whose claim lapsed. */
  protected abstract takeUpWaiting(): Promise<void>;

  /** Takes up waiting jobs now (a sweep already running goes round once more). */
  kick(): void {
    this.sweeps.kick();
  }

  /** Kicks now and then every claim period (the timer does not keep the process alive). */
  startPolling(): void {
    this.kick();
    this.timer ??= setInterval(() => this.kick(), this.periodMs);
    this.timer.unref();
  }

  /** Resolves once no sweep runs (subclasses also wait for the jobs they run apart from it). */
  async whenIdle(): Promise<void> {
    await this.sweeps.whenIdle();
  }

  /** The sweep in flight, if any. */
  protected get sweeping(): Promise<void> | null {
    return this.sweeps.inFlight;
  }

  /** Stops polling and lets the work in hand finish. */
  async stop(): Promise<void> {
    this.stopping = true;
    if (this.timer) clearInterval(this.timer);
    await this.whenIdle();
  }
}
