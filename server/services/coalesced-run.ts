/**
 * Background work that runs one pass at a time and is asked for with `kick()`: a kick while a pass
 * is in flight has one more pass run after it (the pass may have looked before what the kick
 * announces was there), and any number of kicks during one pass make one more pass, not many.
 * Shared by the webhook queue (server/webhooks/queue.ts) and the import and export job runners
 * (server/services/sweeping-runner.ts).
 */
export class CoalescedRun {
  private pass: Promise<void> | null = null;
  private again = false;

  /**
   * @param work one pass; its rejection goes to `onError` (the next kick runs a new pass)
   * @param enabled read before each pass, the follow-up one included: false = no new pass starts
   */
  constructor(
    private readonly work: () => Promise<void>,
    private readonly onError: (error: unknown) => void,
    private readonly enabled: () => boolean = () => true,
  ) {}

  /** Starts a pass now, or one more after the pass in flight. */
  kick(): void {
    if (!this.enabled()) return;
    if (this.pass) {
      this.again = true;
      return;
    }
    this.pass = this.work()
      .catch(this.onError)
      .finally(() => {
        this.pass = null;
        if (this.again) {
          this.again = false;
          this.kick();
        }
      });
  }

  /** The pass in flight, if any (settles, never rejects). */
  get inFlight(): Promise<void> | null {
    return this.pass;
  }

  /** Resolves once no pass runs, follow-up passes included. */
  async whenIdle(): Promise<void> {
    while (this.pass) await this.pass;
  }
}
