/**
 * Preloaded into the server bench:ingest measures (`node --import tsx --import
 * ./scripts/bench/loop-monitor.ts …`): records how late the event loop ran (Node's
 * monitorEventLoopDelay, 5 ms resolution) and, when the process exits, writes
 * `{ maxMs, p99Ms }` to LOOP_MONITOR_FILE. SIGUSR2 starts the record afresh (after startup, whose
 * module loading is one long synchronous step by nature). The largest delay is the longest time
 * any one piece of work held the loop.
 */
import { writeFileSync } from 'node:fs';
import { monitorEventLoopDelay } from 'node:perf_hooks';

const file = process.env.LOOP_MONITOR_FILE;
if (file) {
  const histogram = monitorEventLoopDelay({ resolution: 5 });
  histogram.enable();
  process.on('SIGUSR2', () => histogram.reset());
  process.on('exit', () => {
    writeFileSync(file, JSON.stringify({ maxMs: histogram.max / 1e6, p99Ms: histogram.percentile(99) / 1e6 }));
  });
}
