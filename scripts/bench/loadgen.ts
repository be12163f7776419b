/**
 * The load generator of bench:ingest, run as its own process so it never shares an event loop or
 * a core's time slice accounting with the server it measures. Sends one prepared request after
 * another from a JSON-lines file (`{ path, headers, body }` per line, bodies signed by the caller)
 * over a keep-alive pool of `connections` sockets (node:http) and prints one JSON line: when it
 * started and finished (epoch ms), how many answers, how many were not 2xx, errors, timeouts and
 * latency percentiles (ms).
 *
 * Usage: node --import tsx scripts/bench/loadgen.ts '<json options>' with
 * { url, file, connections, amount, overallRate? } (overallRate: requests per second in total).
 *
 * Without a rate it is a closed loop: each connection sends its next request when the last is
 * answered. With a rate it is an open loop, one request every 1/rate s, and each latency counts
 * from the moment the request was due. autocannon was used first and dropped: its closed loop ends
 * on its one-second tick (a 0.3 s run measured as 1 s, so the bare baseline's rate came out far
 * too low), its rate limit sends each second's quota at once, and its coordinated-omission
 * correction assumes a whole-millisecond interval.
 */
import { readFileSync } from 'node:fs';
import { Agent, request } from 'node:http';

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
const cpu = (): number => (process.cpuUsage().user + process.cpuUsage().system) / 1e6;
const percentile = (sorted: number[], p: number): number => sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil(sorted.length * p) - 1))] ?? 0;

/** Open loop at `rate` requests per second; latency from each request's due time. */
function paced(rate: number): void {
  const agent = new Agent({ keepAlive: true, maxSockets: options.connections });
  const target = new URL(options.url);
  const latencies: number[] = [];
  let non2xx = 0;
  let errors = 0;
  let sent = 0;
  let settled = 0;
  const t0 = performance.now();
  const finish = (): void => {
    agent.destroy();
    latencies.sort((a, b) => a - b);
    const out: LoadResult = {
      startedAt,
      finishedAt: Date.now(),
      requests: settled,
      non2xx,
      errors,
      timeouts: 0,
      latency: { p50: Math.round(percentile(latencies, 0.5)), p99: Math.round(percentile(latencies, 0.99)), max: Math.round(latencies.at(-1) ?? 0) },
      cpuSeconds: cpu(),
    };
    console.log(JSON.stringify(out));
  };
  const send = (due: number): void => {
    const item = prepared[next++ % prepared.length]!;
    let done = false;
    const once = (ok: boolean, status = 0): void => {
      if (done) return;
      done = true;
      if (ok) {
        latencies.push(performance.now() - due);
        if (status < 200 || status >= 300) non2xx++;
      } else errors++;
      if (++settled === options.amount) finish();
    };
    const req = request(
      { host: target.hostname, port: target.port, method: item.method ?? 'POST', path: item.path, headers: item.body === undefined ? item.headers : { ...item.headers, 'content-length': Buffer.byteLength(item.body) }, agent },
      (res) => {
        res.resume();
        res.on('end', () => once(true, res.statusCode ?? 0));
        res.on('error', () => once(false));
      },
    );
    req.on('error', () => once(false));
    req.end(item.body);
  };
  const tick = (): void => {
    const now = performance.now();
    while (sent < options.amount && t0 + (sent * 1000) / rate <= now) send(t0 + (sent++ * 1000) / rate);
    if (sent < options.amount) setTimeout(tick, Math.max(0, t0 + (sent * 1000) / rate - performance.now()));
  };
  tick();
}

/**
 * Closed loop: `connections` keep-alive connections, each sending its next request when the last is
 * answered, until `amount` are answered. (Not autocannon: its closed loop ends on its one-second
 * tick, so a run's duration, and any rate derived from it, was rounded up to whole seconds.)
 */
function closed(): void {
  const agent = new Agent({ keepAlive: true, maxSockets: options.connections });
  const target = new URL(options.url);
  const latencies: number[] = [];
  let non2xx = 0;
  let errors = 0;
  let sent = 0;
  let settled = 0;
  const finish = (): void => {
    const finishedAt = Date.now();
    agent.destroy();
    latencies.sort((a, b) => a - b);
    const out: LoadResult = {
      startedAt,
      finishedAt,
      requests: settled,
      non2xx,
      errors,
      timeouts: 0,
      latency: { p50: Math.round(percentile(latencies, 0.5)), p99: Math.round(percentile(latencies, 0.99)), max: Math.round(latencies.at(-1) ?? 0) },
      cpuSeconds: cpu(),
    };
    console.log(JSON.stringify(out));
  };
  let finished = false;
  const settle = (): void => {
    settled++;
    if (settled >= options.amount) {
      if (!finished) {
        finished = true;
        finish();
      }
    } else if (sent < options.amount) send();
  };
  const send = (): void => {
    sent++;
    const item = prepared[next++ % prepared.length]!;
    const began = performance.now();
    let done = false;
    const once = (ok: boolean, status = 0): void => {
      if (done) return;
      done = true;
      if (ok) {
        latencies.push(performance.now() - began);
        if (status < 200 || status >= 300) non2xx++;
      } else errors++;
      settle();
    };
    const req = request(
      { host: target.hostname, port: target.port, method: item.method ?? 'POST', path: item.path, headers: item.body === undefined ? item.headers : { ...item.headers, 'content-length': Buffer.byteLength(item.body) }, agent },
      (res) => {
        res.resume();
        res.on('end', () => once(true, res.statusCode ?? 0));
        res.on('error', () => once(false));
      },
    );
    req.on('error', () => once(false));
    req.end(item.body);
  };
  for (let i = 0; i < Math.min(options.connections, options.amount); i++) send();
}

if (options.overallRate) paced(options.overallRate);
else closed();
