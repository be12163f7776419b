/**
 * Shared pieces of the benchmarks that report a table of measures: latency sampling after a
 * warm-up, percentiles, and one results table with target, baseline and ratio per row
 * (`npm run bench:customers`; a throughput or memory measure fits the same row shape).
 */

/** Nearest-rank percentile `p` (0–100) of `values` (need not be sorted); NaN for none. */
export function percentile(values: readonly number[], p: number): number {
  if (values.length === 0) return Number.NaN;
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil((sorted.length * p) / 100) - 1))]!;
}

/** Latency percentiles in milliseconds. */
export interface Latency {
  samples: number;
  p50: number;
  p95: number;
  p99: number;
  max: number;
}

export function latencyOf(times: readonly number[]): Latency {
  return { samples: times.length, p50: percentile(times, 50), p95: percentile(times, 95), p99: percentile(times, 99), max: percentile(times, 100) };
}

/**
 * Runs `run(i)` `warmup` times unmeasured, then `samples` times one after another, timing each
 * (milliseconds, performance.now()); `i` counts from 0 over the warm-up and again over the samples
 * so each call can take a different input.
 */
export async function sampleLatency(run: (i: number, warm: boolean) => Promise<void>, samples: number, warmup: number): Promise<number[]> {
  for (let i = 0; i < warmup; i++) await run(i, true);
  const times: number[] = [];
  for (let i = 0; i < samples; i++) {
    const began = performance.now();
    await run(i, false);
    times.push(performance.now() - began);
  }
  return times;
}

/** One row of the results table. */
export interface Result {
  /** Group the row belongs to (list, search, profile, import, …). */
  group: string;
  measure: string;
  /** The figure held against the target (e.g. p95), in `unit`. */
  figure: number;
  unit: 'ms' | 'rows/s' | 'req/s' | 'MB';
  /** What the figure is (`p95`, `rate`, `peak RSS`) and the other figures worth seeing. */
  detail: string;
  /** Bare baseline measured in the same run, same unit; undefined when there is none. */
  baseline?: { figure: number; what: string };
  /** The target: at most (`max`) or at least (`min`) `value`; undefined = shown for information. */
  target?: { max?: number; min?: number };
}

/** Whether a row meets its target (true when it has none). */
export function met(r: Result): boolean {
  if (!r.target) return true;
  if (r.target.max !== undefined && !(r.figure <= r.target.max)) return false;
  if (r.target.min !== undefined && !(r.figure >= r.target.min)) return false;
  return true;
}

const fmt = (n: number, unit: Result['unit']): string => (unit === 'rows/s' || unit === 'req/s' ? Math.round(n).toLocaleString('en-US') : n < 10 ? n.toFixed(2) : n.toFixed(1));

/** Prints the results as an aligned table; returns the rows that missed their targets. */
export function printResults(title: string, results: readonly Result[]): Result[] {
  const rows = results.map((r) => {
    const ratio = r.baseline && r.baseline.figure > 0 ? r.figure / r.baseline.figure : undefined;
    const target = r.target ? [r.target.max !== undefined ? `≤ ${r.target.max}` : '', r.target.min !== undefined ? `≥ ${r.target.min.toLocaleString('en-US')}` : ''].filter(Boolean).join(', ') : '—';
    return [
      r.group,
      r.measure,
      `${fmt(r.figure, r.unit)} ${r.unit}`,
      r.detail,
      r.baseline ? `${fmt(r.baseline.figure, r.unit)} ${r.unit} (${r.baseline.what})` : '—',
      ratio === undefined ? '—' : `${ratio.toFixed(1)}×`,
      target,
      r.target ? (met(r) ? 'met' : 'MISSED') : 'info',
    ];
  });
  const head = ['group', 'measure', 'figure', 'detail', 'bare baseline', 'ratio', 'target', ''];
  const widths = head.map((h, i) => Math.max(h.length, ...rows.map((row) => row[i]!.length)));
  const line = (cells: string[]) => cells.map((c, i) => c.padEnd(widths[i]!)).join('  ').trimEnd();
  console.log(`\n${title}`);
  console.log(line(head));
  console.log(line(widths.map((w) => '-'.repeat(w))));
  for (const row of rows) console.log(line(row));
  return results.filter((r) => !met(r));
}
