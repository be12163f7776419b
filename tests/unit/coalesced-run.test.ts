import { describe, expect, it } from 'vitest';
import { CoalescedRun } from '../../server/services/coalesced-run';

/** A pass that waits until released, counting how many started. */
function gatedWork() {
  const state = { started: 0, release: () => undefined as void };
  const work = () => {
    state.started += 1;
    return new Promise<void>((resolve) => (state.release = resolve));
  };
  return { state, work };
}

describe('CoalescedRun (the webhook queue and the job runners kick their background passes through it)', () => {
  it('runs one pass at a time, and many kicks during a pass make exactly one more', async () => {
    const { state, work } = gatedWork();
    const run = new CoalescedRun(work, () => undefined);
    run.kick();
    run.kick();
    run.kick();
    expect(state.started).toBe(1);
    state.release();
    await Promise.resolve();
    await new Promise((resolve) => setTimeout(resolve, 0));
    expect(state.started).toBe(2);
    state.release();
    await run.whenIdle();
    expect(state.started).toBe(2);
    expect(run.inFlight).toBeNull();
  });

  it('starts no pass, not even the follow-up one, once disabled', async () => {
    const { state, work } = gatedWork();
    let enabled = true;
    const run = new CoalescedRun(work, () => undefined, () => enabled);
    run.kick();
    run.kick();
    enabled = false;
    state.release();
    await run.whenIdle();
    expect(state.started).toBe(1);
    run.kick();
    expect(state.started).toBe(1);
  });

  it('hands a failed pass to onError and runs the next kick', async () => {
    const errors: unknown[] = [];
    let passes = 0;
    const run = new CoalescedRun(
      async () => {
        passes += 1;
        if (passes === 1) throw new Error('boom');
      },
      (error) => errors.push(error),
    );
    run.kick();
    await run.whenIdle();
    expect(errors.map((error) => (error as Error).message)).toEqual(['boom']);
    run.kick();
    await run.whenIdle();
    expect(passes).toBe(2);
    expect(errors).toHaveLength(1);
  });
});
