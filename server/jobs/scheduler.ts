/**
 * The in-process scheduler the daily jobs share (point expiry and tier demotion, birthdays and
 * anniversaries): a pass runs `firstMs` after start and then every `everyMs`; passes never
 * overlap (the next waits for the one in hand); a failed pass is logged and the next runs anyway.
 * The timers do not keep the process alive.
 */
import type { Logger } from '../logging';

/**
 * Starts running `pass` periodically. `what` names the job in the log line of a failed pass.
 * Returns a stop function that clears the timers and waits for a pass in hand.
 */
export function startPeriodic(pass: () => Promise<unknown>, logger: Logger, what: string, everyMs: number, firstMs: number): () => Promise<void> {
  let running: Promise<unknown> = Promise.resolve();
  const tick = (): void => {
    running = running.then(pass).catch((e: unknown) => logger.error({ err: e }, `the ${what} scheduler failed`));
  };
  const first = setTimeout(tick, firstMs);
  const timer = setInterval(tick, everyMs);
  first.unref();
  timer.unref();
  return async () => {
    clearTimeout(first);
    clearInterval(timer);
    await running;
  };
}
