/**
 * The load generator of bench:ingest, run as its own process so it never shares an event loop or
 * a core's time slice accounting with the server it measures. Drives autocannon with one
 * prepared request after another from a JSON-lines file (`{ path, headers, body }` per line,
 * bodies signed by the caller) and prints one JSON line: when it started and finished (epoch ms),
 * how many answers, how many were not 2xx, errors, timeouts and latency percentiles (ms).
 *
 * Usage: node --import tsx scripts/bench/loadgen.ts '<json options>' with
 * { url, file, connections, amount, overallRate? } (overallRate: requests per second in total).
 */
import { readFileSync } from 'node:fs';
import autocannon from 'autocannon';

/** One prepared request. */
export interface PreparedRequest {
  method?: string;
  path: string;
  headers: Record<string, string>;
  body?: string;
}

/** What the generator prints. */
export interface LoadResult {
  startedAt: number;
  finishedAt: number;
  requests: number;
  non2xx: number;
  errors: number;
  timeouts: number;
  latency: { p50: number; p99: number; max: number };
  /** CPU seconds the generator itself used (user + system). */
  cpuSeconds: number;
}

const options = JSON.parse(process.argv[2] ?? '{}') as { url: string; file: string; connections: number; amount: number; overallRate?: number };
const prepared = readFileSync(options.file, 'utf8')
  .split('\n')
  .filter((line) => line.length > 0)
  .map((line) => JSON.parse(line) as PreparedRequest);
let next = 0;

const startedAt = Date.now();
autocannon(
  {
    url: options.url,
    connections: options.connections,
    amount: options.amount,
    ...(options.overallRate ? { overallRate: options.overallRate } : {}),
    timeout: 30,
    requests: [
      {
        setupRequest: (request) => {
          const item = prepared[next++ % prepared.length]!;
          return { ...request, method: (item.method ?? 'POST') as 'POST', path: item.path, headers: item.headers, ...(item.body === undefined ? {} : { body: item.body }) };
        },
      },
    ],
  },
  (error, result) => {
    if (error) {
      console.error(error);
      process.exit(1);
    }
    const out: LoadResult = {
      startedAt,
      finishedAt: Date.now(),
      requests: result.requests.total,
      non2xx: result.non2xx,
      errors: result.errors,
      timeouts: result.timeouts,
      latency: { p50: result.latency.p50, p99: result.latency.p99, max: result.latency.max },
      cpuSeconds: (process.cpuUsage().user + process.cpuUsage().system) / 1e6,
    };
    console.log(JSON.stringify(out));
  },
);
