/**
 * Preloaded into the server bench:ingest measures (`node --import tsx --import
 * ./scripts/bench/loop-monitor.ts …`): records how late the event loop ran (Node's
 * monitorEventLoopDelay, 5 ms resolution), phase by phase. Each SIGUSR2 ends a phase and starts
 * the next (the first ends after startup, whose module loading is one long synchronous step by
 * nature); when the process exits it writes `{ phases: [{ maxMs, p99Ms, longest }, …] }` to
 * LOOP_MONITOR_FILE, the last phase being the one the exit ended.
 *
 * A delay is work holding the loop or the thread waiting for a core. `longest` tells those apart,
 * on Linux: a 5 ms timer reads the serving thread's scheduler statistics
 * (/proc/thread-self/schedstat: nanoseconds on a core and nanoseconds runnable but waiting for
 * one) at each tick, and keeps the phase's longest gap between two ticks with what the thread did
 * in it: `{ wallMs, onCpuMs, waitingMs, gcMs }` (wall = the gap less the 5 ms interval; on a core =
 * work the loop ran, waiting = time it was ready to run while the cores ran other threads; gc = the
 * garbage collector's pauses of this thread within the gap, from a `gc` PerformanceObserver).
 * Null where the file is not readable.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { monitorEventLoopDelay, PerformanceObserver } from 'node:perf_hooks';

/** The longest gap between two ticks of a 5 ms timer in a phase, split by what the thread did (ms). */
export interface LongestGap {
  wallMs: number;
  onCpuMs: number;
  waitingMs: number;
  /** Garbage-collection pauses within the gap (ms). */
  gcMs: number;
}

/** One phase's record: the largest and 99th-percentile loop delay (ms) and its longest gap. */
export interface LoopPhase {
  maxMs: number;
  p99Ms: number;
  longest: LongestGap | null;
}

const file = process.env.LOOP_MONITOR_FILE;
if (file) {
  const histogram = monitorEventLoopDelay({ resolution: 5 });
  histogram.enable();
  /** Nanoseconds on a core and waiting for one, of this thread; null where Linux's schedstat is not available. */
  const schedstat = (): [number, number] | null => {
    try {
      const [run, wait] = readFileSync('/proc/thread-self/schedstat', 'utf8').split(' ');
      return [Number(run), Number(wait)];
    } catch {
      return null;
    }
  };
  const INTERVAL_MS = 5;
  // The garbage collector's pauses: [end, duration] in performance.now() time, the last few seconds' worth.
  const pauses: [number, number][] = [];
  new PerformanceObserver((list) => {
    for (const entry of list.getEntries()) pauses.push([entry.startTime + entry.duration, entry.duration]);
    if (pauses.length > 4096) pauses.splice(0, pauses.length - 2048);
  }).observe({ entryTypes: ['gc'] });
  const gcBetween = (from: number, to: number): number => pauses.reduce((sum, [end, ms]) => sum + Math.max(0, Math.min(end, to) - Math.max(end - ms, from)), 0);
  let longest: LongestGap | null = null;
  let last = { at: performance.now(), stat: schedstat() };
  if (last.stat) {
    setInterval(() => {
      const now = { at: performance.now(), stat: schedstat() };
      if (now.stat && last.stat) {
        const wallMs = now.at - last.at - INTERVAL_MS;
        if (!longest || wallMs > longest.wallMs) longest = { wallMs, onCpuMs: (now.stat[0] - last.stat[0]) / 1e6, waitingMs: (now.stat[1] - last.stat[1]) / 1e6, gcMs: gcBetween(last.at, now.at) };
      }
      last = now;
    }, INTERVAL_MS).unref();
  }
  const phases: LoopPhase[] = [];
  const endPhase = (): void => {
    phases.push({ maxMs: histogram.max / 1e6, p99Ms: histogram.percentile(99) / 1e6, longest });
    histogram.reset();
    longest = null;
  };
  process.on('SIGUSR2', endPhase);
  process.on('exit', () => {
    endPhase();
    writeFileSync(file, JSON.stringify({ phases }));
  });
}
