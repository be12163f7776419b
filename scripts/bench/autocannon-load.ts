/**
 * The closed-loop load generator of bench:storefront, run as its own process: autocannon with
 * `connections` keep-alive connections for `seconds` seconds, each request the next of a prepared
 * list (a JSON-lines file of `{ method?, path, headers, body? }`, signed by the caller), so every
 * request can be a different shopper. Prints one JSON line in loadgen.ts's LoadResult shape, plus `statuses` (answers by HTTP status).
 *
 * Duration mode only: autocannon's run then ends on its own timer and reports the real elapsed
 * time, so requests ÷ duration is the rate (its `amount` mode ends on a one-second tick, see
 * loadgen.ts). The paced (open-loop) measures use loadgen.ts: autocannon's rate limit sends each
 * second's quota at once, which measures bursts rather than the latency at a steady rate.
 *
 * Usage: node --import tsx scripts/bench/autocannon-load.ts '<json options>' with
 * { url, file, connections, seconds }.
 */
import { readFileSync } from 'node:fs';
import autocannon from 'autocannon';
import type { LoadResult, PreparedRequest } from './loadgen';

const options = JSON.parse(process.argv[2] ?? '{}') as { url: string; file: string; connections: number; seconds: number };
const prepared = readFileSync(options.file, 'utf8')
  .split('\n')
  .filter((line) => line.length > 0)
  .map((line) => JSON.parse(line) as PreparedRequest);
let next = 0;

const instance = autocannon(
  {
    url: options.url,
    connections: options.connections,
    duration: options.seconds,
    requests: [
      {
        setupRequest: (req) => {
          const item = prepared[next++ % prepared.length]!;
          return { ...req, method: (item.method ?? 'GET') as autocannon.Request['method'], path: item.path, headers: item.headers, ...(item.body !== undefined ? { body: item.body } : {}) };
        },
      },
    ],
  },
  (err, result) => {
    if (err) {
      console.error(err);
      process.exit(1);
    }
    const cpu = process.cpuUsage();
    const out: LoadResult & { statuses: Record<string, number> } = {
      startedAt: result.start.getTime(),
      finishedAt: result.finish.getTime(),
      requests: result.requests.total,
      non2xx: result.non2xx,
      errors: result.errors,
      timeouts: result.timeouts,
      latency: { p50: result.latency.p50, p99: result.latency.p99, max: result.latency.max },
      cpuSeconds: (cpu.user + cpu.system) / 1e6,
      statuses: Object.fromEntries(Object.entries(result.statusCodeStats ?? {}).map(([code, stat]) => [code, stat.count ?? 0])),
    };
    console.log(JSON.stringify(out));
  },
);
process.once('SIGTERM', () => instance.stop());
