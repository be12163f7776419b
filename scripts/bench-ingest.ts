/**
 * `npm run bench:ingest` (issue 14 "Speed"): webhook ingestion end to end against a bare
 * baseline measured in the same run, with the same load generator (scripts/bench/loadgen.ts, in
 * its own process, 16 keep-alive connections) and the same orders.
 *
 * Phases, each on its own fresh SQLite file:
 * 1. Bare: scripts/bench/bare-server.ts verifies the HMAC, parses and inserts each delivery.
 *    Its rate is N orders ÷ the time until the last answer.
 * 2. Empty app: the built server (dist/server/main.mjs), one shop with the 10 place-order
 *    programs of scripts/bench/programs.ts. End-to-end rate: N orders ÷ the time from the first
 *    request until the last order's receipt and points are in the database. Then the answer p99
 *    at half the bare rate (orders processed meanwhile).
 * 3. The same at 1,000,000 ledger entries (100,000 customers with 10 order awards each, their
 *    receipts, seeded straight into the file): end-to-end rate, the answers at half the bare
 *    rate, then cancellations one after another (p99 of received → processed, from
 *    webhook_deliveries), then customer balances (`GET /api/customers/:id`, one connection,
 *    p99), with the event loop watched phase by phase (scripts/bench/loop-monitor.ts). At full
 *    speed the closed loop keeps 16 requests waiting at every moment, so each turn of the loop
 *    serves several of them and its length says how many arrived, not how long one held the
 *    loop: that phase is printed for information, with the longest gap split into time on a core
 *    and time waiting for one. The target applies to the other three phases, where a request
 *    does not wait behind others: there a long delay is one piece of work, or the scheduler.
 * 4. Startup: spawn to the first `/healthz` answer and resident memory then, on a fresh file
 *    (migrations included), beside the bare server's.
 *
 * Targets (exit 1 on a miss): end-to-end ≥ bare ÷ 3; answer p99 ≤ 20 ms at half the bare rate;
 * at 1M entries the end-to-end rate within 1.3× of the empty figure, cancellation p99 ≤ 20 ms,
 * balance p99 ≤ 5 ms, event loop never held > 50 ms (half rate, cancellations, balances); startup ≤ 1 s and RSS ≤ 150 MB.
 * BENCH_ORDERS (4000) sets N; BENCH_LEDGER (1000000) the seeded ledger size; BENCH_APP_LOG=<file> keeps
 * the servers' request logs.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import SQLite from 'better-sqlite3';
import { signSessionToken } from '../server/auth';
import { webhookHmac } from '../server/webhook-hmac';
import { buildServer } from './build-server';
import { startServerProcess, type ServerProcess } from './bench/server-process';
import type { LoadResult, PreparedRequest } from './bench/loadgen';
import type { LoopPhase } from './bench/loop-monitor';
import { platformOrder, prng } from './bench/orders';
import { prepareBenchShopDatabase } from './bench/shop-database';

const ROOT = join(import.meta.dirname, '..');
const ORDERS = Number(process.env.BENCH_ORDERS ?? 4000);
const LEDGER = Number(process.env.BENCH_LEDGER ?? 1_000_000);
const CUSTOMERS = Math.max(1, Math.floor(LEDGER / 10));
const CONNECTIONS = 16;
const SECRET = 'bench-secret';
const API_KEY = 'bench-key';
const SHOP = 'bench-shop.myshopify.com';
const WARMUP = 300;

const TARGET = { e2eRatio: 3, answerP99Ms: 20, scaledRatio: 1.3, cancelP99Ms: 20, balanceP99Ms: 5, loopMaxMs: 50, startupMs: 1000, startupRssMb: 150 };

const work = mkdtempSync(join(tmpdir(), 'bench-ingest-'));
const children = new Set<ChildProcess>();
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
const round = (n: number, digits = 1) => Number(n.toFixed(digits));
let nextPort = 4700 + Math.floor(Math.random() * 500);

process.on('exit', () => {
  for (const child of children) child.kill('SIGKILL');
  rmSync(work, { recursive: true, force: true });
});

// ---------------------------------------------------------------------------------------------
// Processes

interface Server extends ServerProcess {
  /** Resident memory at the first answer, MB. */
  rssMb: number;
}

function rssMb(pid: number): number {
  const status = readFileSync(`/proc/${pid}/status`, 'utf8');
  return Number(/VmRSS:\s+(\d+)/.exec(status)?.[1] ?? 0) / 1024;
}

async function start(args: string[], env: Record<string, string>): Promise<Server> {
  const server = await startServerProcess(args, env, { cwd: ROOT, port: nextPort++, children, pollMs: 5 });
  return { ...server, rssMb: rssMb(server.child.pid!) };
}

/** CPU seconds (user + system) the process has used so far, from /proc. */
function cpuSeconds(pid: number): number {
  const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]!.split(' ');
  return (Number(fields[11]) + Number(fields[12])) / 100;
}

/**
 * CPU seconds by thread so far: the serving thread (`serving`, whose id is the process's), each named
 * thread by its name (server/thread-priority.ts nameThread: loyalty-webhook, loyalty-checkpt, …)
 * and the rest (`other`: the garbage collector's and libuv's helpers). Threads that ended are not counted.
 */
function threadCpuSeconds(pid: number): Map<string, number> {
  const out = new Map<string, number>();
  for (const tid of readdirSync(`/proc/${pid}/task`)) {
    try {
      const stat = readFileSync(`/proc/${pid}/task/${tid}/stat`, 'utf8');
      const name = Number(tid) === pid ? 'serving' : stat.slice(stat.indexOf('(') + 1, stat.lastIndexOf(')'));
      const fields = stat.slice(stat.lastIndexOf(') ') + 2).split(' ');
      const key = name.startsWith('loyalty-') || name === 'serving' ? name : 'other';
      out.set(key, (out.get(key) ?? 0) + (Number(fields[11]) + Number(fields[12])) / 100);
    } catch {
      // the thread ended meanwhile
    }
  }
  return out;
}

/** `after` less `before` per thread, in ms an order, as text (largest first). */
function threadSplit(before: Map<string, number>, after: Map<string, number>, orders: number): string {
  return [...after]
    .map(([name, seconds]) => [name, ((seconds - (before.get(name) ?? 0)) * 1000) / orders] as const)
    .filter(([, ms]) => ms >= 0.005)
    .sort((a, b) => b[1] - a[1])
    .map(([name, ms]) => `${name} ${round(ms, 2)}`)
    .join(', ');
}

async function stop(server: Server): Promise<void> {
  const exited = new Promise((resolve) => server.child.once('exit', resolve));
  server.child.kill('SIGTERM');
  await exited;
}

function startBare(databasePath: string): Promise<Server> {
  return start(['--import', 'tsx', join(ROOT, 'scripts/bench/bare-server.ts')], { DATABASE_PATH: databasePath, SECRET });
}

function startApp(databasePath: string, loopFile?: string): Promise<Server> {
  const preload = loopFile ? ['--import', 'tsx', '--import', join(ROOT, 'scripts/bench/loop-monitor.ts')] : [];
  // BENCH_NODE_ARGS: extra Node flags for the app (e.g. `--cpu-prof` to see where its time goes).
  const extra = (process.env.BENCH_NODE_ARGS ?? '').split(' ').filter(Boolean);
  const entry = process.env.BENCH_APP_SOURCE ? ['--import', 'tsx', join(ROOT, 'server/main.ts')] : [join(ROOT, 'dist/server/main.mjs')];
  return start([...extra, ...preload, ...entry], {
    DATABASE_PATH: databasePath,
    SHOPIFY_API_SECRET: SECRET,
    SHOPIFY_API_KEY: API_KEY,
    LOG_LEVEL: 'info',
    ...(loopFile ? { LOOP_MONITOR_FILE: loopFile } : {}),
  });
}

/** Runs the load generator in its own process and returns what it measured. */
function load(server: Server, requests: PreparedRequest[], options: { connections?: number; amount?: number; overallRate?: number } = {}): Promise<LoadResult> {
  const file = join(work, `requests-${nextPort++}.jsonl`);
  writeFileSync(file, requests.map((r) => JSON.stringify(r)).join('\n'));
  const spec = { url: server.url, file, connections: options.connections ?? CONNECTIONS, amount: options.amount ?? requests.length, ...(options.overallRate ? { overallRate: options.overallRate } : {}) };
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ['--import', 'tsx', join(ROOT, 'scripts/bench/loadgen.ts'), JSON.stringify(spec)], { cwd: ROOT, stdio: ['ignore', 'pipe', 'inherit'] });
    let out = '';
    child.stdout.on('data', (chunk: Buffer) => (out += chunk.toString()));
    child.on('exit', (code) => {
      if (code !== 0) return reject(new Error(`load generator exited with ${code}`));
      const result = JSON.parse(out.trim().split('\n').at(-1) ?? '{}') as LoadResult;
      if (result.non2xx > 0 || result.errors > 0 || result.timeouts > 0) return reject(new Error(`load generator saw ${result.non2xx} non-2xx, ${result.errors} errors, ${result.timeouts} timeouts`));
      resolve(result);
    });
  });
}

// ---------------------------------------------------------------------------------------------
// Requests

let orderNumber = 0;

/** `count` signed orders/create deliveries of new orders, customers drawn from `customerPool`. */
function orderRequests(count: number, customerPool: number, random: () => number): { requests: PreparedRequest[]; orderIds: string[] } {
  const requests: PreparedRequest[] = [];
  const orderIds: string[] = [];
  for (let i = 0; i < count; i++) {
    const n = ++orderNumber;
    const body = JSON.stringify(platformOrder(n, Math.floor(random() * customerPool), random));
    orderIds.push(String(5_000_000_000_000 + n));
    requests.push(webhook('orders/create', body, `bench-order-${n}`));
  }
  return { requests, orderIds };
}

function webhook(topic: string, body: string, webhookId: string): PreparedRequest {
  return {
    path: `/api/webhooks/${topic}`,
    headers: {
      'content-type': 'application/json',
      'x-shopify-topic': topic,
      'x-shopify-shop-domain': SHOP,
      'x-shopify-hmac-sha256': webhookHmac(body, SECRET),
      'x-shopify-webhook-id': webhookId,
    },
    body,
  };
}

// ---------------------------------------------------------------------------------------------
// Databases

/**
 * Seeds `entries` ledger entries: CUSTOMERS customers with 10 order awards each and a receipt per
 * order, written straight into the file (one transaction per 50,000 rows); each customer's stored
 * balance and lifetime points are the sum of their awards, as appends keep them (server/store/ledger.ts).
 */
function seedLedger(path: string, entries: number): void {
  const sqlite = new SQLite(path);
  sqlite.pragma('journal_mode = WAL');
  const customer = sqlite.prepare('insert into customers (shop_id, id, email, first_name, last_name, type, tier_id, points_balance, points_earned, created_at, updated_at) values (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)');
  const entry = sqlite.prepare(
    'insert into ledger_entries (id, shop_id, customer_id, type, points, program_id, program_kind, program_version, source_type, source_id, reverses_id, explanation, created_at, available_at) values (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)',
  );
  const receipt = sqlite.prepare('insert into webhook_receipts (shop_id, topic, resource_id, received_at, outcome, counted_month) values (?, ?, ?, ?, ?, ?)');
  const programId = (sqlite.prepare("select id from documents where kind = 'earning.place_order' limit 1").get() as { id: string }).id;
  const at = '2026-06-01T12:00:00.000Z';
  const perCustomer = Math.max(1, Math.round(entries / CUSTOMERS));
  // The awards are 10, 11, … points: their sum.
  const awarded = perCustomer * 10 + (perCustomer * (perCustomer - 1)) / 2;
  const batch = sqlite.transaction((from: number, to: number) => {
    for (let c = from; c < to; c++) {
      const id = String(7_000_000_000_000 + c);
      customer.run(SHOP, id, `seeded.${c}@example.com`, 'Seeded', `Customer ${c}`, 'member', null, awarded, awarded, at, at);
      for (let k = 0; k < perCustomer; k++) {
        const orderId = String(8_000_000_000_000 + c * perCustomer + k);
        entry.run(crypto.randomUUID(), SHOP, id, 'earn_point', 10 + k, programId, 'earning.place_order', 1, 'order', orderId, null, '{"seeded":true}', at, null);
        receipt.run(SHOP, 'orders/create', orderId, at, '{}', '2026-06');
      }
    }
  });
  const step = Math.max(1, Math.floor(50_000 / perCustomer));
  for (let c = 0; c < CUSTOMERS; c += step) batch(c, Math.min(CUSTOMERS, c + step));
  sqlite.pragma('wal_checkpoint(TRUNCATE)');
  sqlite.close();
}

/** Waits until `count` orders have receipts (their points are on the ledger); returns that moment (epoch ms). */
async function processedAt(path: string, count: number, timeoutMs = 600_000): Promise<number> {
  const sqlite = new SQLite(path, { readonly: true });
  const query = sqlite.prepare("select count(*) as n from webhook_deliveries where status in ('done', 'dead')");
  const deadline = Date.now() + timeoutMs;
  try {
    for (;;) {
      const { n } = query.get() as { n: number };
      if (n >= count) return Date.now();
      if (Date.now() > deadline) throw new Error(`only ${n} of ${count} deliveries processed after ${timeoutMs / 1000} s`);
      await sleep(10);
    }
  } finally {
    sqlite.close();
  }
}

function deadLetters(path: string): number {
  const sqlite = new SQLite(path, { readonly: true });
  const { n } = sqlite.prepare("select count(*) as n from webhook_deliveries where status = 'dead'").get() as { n: number };
  sqlite.close();
  return n;
}

/** p99 (ms) of received → finished for the processed deliveries of `topic`. */
function processingP99(path: string, topic: string): { count: number; p99: number } {
  const sqlite = new SQLite(path, { readonly: true });
  const rows = sqlite.prepare("select received_at, finished_at from webhook_deliveries where topic = ? and status = 'done'").all(topic) as { received_at: string; finished_at: string }[];
  sqlite.close();
  const times = rows.map((r) => Date.parse(r.finished_at) - Date.parse(r.received_at)).sort((a, b) => a - b);
  return { count: times.length, p99: times[Math.min(times.length - 1, Math.ceil(times.length * 0.99) - 1)] ?? Infinity };
}

// ---------------------------------------------------------------------------------------------
// The run

/** Sends `requests` as fast as 16 connections go and waits for processing: orders per second end to end. */
async function endToEnd(server: Server, path: string, requests: PreparedRequest[], processedBefore: number): Promise<{ rate: number; answer: LoadResult; serverCpuMsPerOrder: number; threads: string }> {
  const cpuBefore = cpuSeconds(server.child.pid!);
  const threadsBefore = threadCpuSeconds(server.child.pid!);
  const answer = await load(server, requests);
  const finished = await processedAt(path, processedBefore + requests.length);
  const serverCpuMsPerOrder = ((cpuSeconds(server.child.pid!) - cpuBefore) * 1000) / requests.length;
  const threads = threadSplit(threadsBefore, threadCpuSeconds(server.child.pid!), requests.length);
  return { rate: requests.length / ((finished - answer.startedAt) / 1000), answer, serverCpuMsPerOrder, threads };
}

async function main(): Promise<void> {
  console.log(`bench:ingest — ${ORDERS} orders per run (≈17 KB each), ${CONNECTIONS} connections, 10 place-order programs; ledger of ${LEDGER.toLocaleString('en-US')} entries`);
  await buildServer();
  const random = prng(20_261_124);

  // 1. Bare.
  const barePath = join(work, 'bare.sqlite');
  const bare = await startBare(barePath);
  await load(bare, orderRequests(WARMUP, 5000, random).requests);
  const bareCpu = cpuSeconds(bare.child.pid!);
  const bareRun = await load(bare, orderRequests(ORDERS, 5000, random).requests);
  const bareRate = ORDERS / ((bareRun.finishedAt - bareRun.startedAt) / 1000);
  const bareCpuMs = ((cpuSeconds(bare.child.pid!) - bareCpu) * 1000) / ORDERS;
  const halfRate = Math.max(1, Math.floor(bareRate / 2));
  const halfAmount = Math.min(ORDERS, halfRate * 4);
  const bareHalf = await load(bare, orderRequests(halfAmount, 5000, random).requests, { overallRate: halfRate });
  await stop(bare);
  console.log(`bare verify-parse-insert: ${round(bareRate, 0)} orders/s, answer p99 ${bareRun.latency.p99} ms (server CPU ${round(bareCpuMs, 2)} ms/order, generator ${round((bareRun.cpuSeconds * 1000) / ORDERS, 2)} ms/order); at half that rate p50 ${bareHalf.latency.p50} ms, p99 ${bareHalf.latency.p99} ms`);

  // 2. Empty app.
  const emptyPath = join(work, 'empty.sqlite');
  await prepareBenchShopDatabase(emptyPath, SHOP, ROOT);
  let app = await startApp(emptyPath);
  let processed = 0;
  await endToEnd(app, emptyPath, orderRequests(WARMUP, 5000, random).requests, processed);
  processed += WARMUP;
  const empty = await endToEnd(app, emptyPath, orderRequests(ORDERS, 5000, random).requests, processed);
  processed += ORDERS;
  console.log(`app end to end (empty ledger): ${round(empty.rate, 0)} orders/s, ${round(bareRate / empty.rate, 2)}× below bare (answer p99 ${empty.answer.latency.p99} ms at full speed; server CPU ${round(empty.serverCpuMsPerOrder, 2)} ms/order: ${empty.threads}; answers done after ${round((empty.answer.finishedAt - empty.answer.startedAt) / 1000)} s)`);
  const half = await load(app, orderRequests(halfAmount, 5000, random).requests, { overallRate: halfRate });
  await processedAt(emptyPath, processed + halfAmount);
  processed += halfAmount;
  console.log(`app answer at half the bare rate (${halfRate}/s, ${halfAmount} orders): p50 ${half.latency.p50} ms, p99 ${half.latency.p99} ms`);
  await stop(app);
  const emptyDead = deadLetters(emptyPath);

  // 3. At LEDGER entries.
  const bigPath = join(work, 'big.sqlite');
  await prepareBenchShopDatabase(bigPath, SHOP, ROOT);
  const seedStarted = performance.now();
  seedLedger(bigPath, LEDGER);
  console.log(`seeded ${LEDGER.toLocaleString('en-US')} ledger entries for ${CUSTOMERS.toLocaleString('en-US')} customers in ${round((performance.now() - seedStarted) / 1000)} s`);
  const loopFile = join(work, 'loop.json');
  app = await startApp(bigPath, loopFile);
  processed = 0;
  await endToEnd(app, bigPath, orderRequests(WARMUP, CUSTOMERS, random).requests, processed);
  processed += WARMUP;
  // The event-loop record (scripts/bench/loop-monitor.ts) is kept phase by phase: each SIGUSR2 ends one.
  const nextLoopPhase = async (): Promise<void> => {
    app.child.kill('SIGUSR2');
    await new Promise((resolve) => setTimeout(resolve, 100));
  };
  await nextLoopPhase(); // startup and warm-up end here
  const big = orderRequests(ORDERS, CUSTOMERS, random);
  const scaled = await endToEnd(app, bigPath, big.requests, processed);
  processed += ORDERS;
  console.log(`app end to end (${LEDGER.toLocaleString('en-US')} entries): ${round(scaled.rate, 0)} orders/s, ${round(empty.rate / scaled.rate, 2)}× the empty-ledger time (server CPU ${round(scaled.serverCpuMsPerOrder, 2)} ms/order: ${scaled.threads})`);
  await nextLoopPhase(); // the closed loop at full speed ends here
  const halfBig = await load(app, orderRequests(halfAmount, CUSTOMERS, random).requests, { overallRate: halfRate });
  await processedAt(bigPath, processed + halfAmount);
  processed += halfAmount;
  console.log(`app answer at half the bare rate (${LEDGER.toLocaleString('en-US')} entries): p50 ${halfBig.latency.p50} ms, p99 ${halfBig.latency.p99} ms`);
  await nextLoopPhase();
  const cancellations = big.orderIds.slice(0, 300).map((id, i) => webhook('orders/cancelled', JSON.stringify({ id: Number(id), cancelled_at: '2026-11-24T10:00:00Z', cancel_reason: 'customer' }), `bench-cancel-${i}`));
  await load(app, cancellations, { connections: 1, overallRate: 50 });
  await processedAt(bigPath, processed + cancellations.length);
  processed += cancellations.length;
  const cancel = processingP99(bigPath, 'orders/cancelled');
  console.log(`cancellation, received → points reversed: p99 ${cancel.p99} ms over ${cancel.count}`);
  await nextLoopPhase();
  const token = await signSessionToken({ apiKey: API_KEY, apiSecret: SECRET, demo: false }, SHOP, '1', 3600);
  const balances: PreparedRequest[] = Array.from({ length: 3000 }, () => ({
    method: 'GET',
    path: `/api/customers/${7_000_000_000_000 + Math.floor(random() * CUSTOMERS)}`,
    headers: { authorization: `Bearer ${token}` },
  }));
  const balance = await load(app, balances, { connections: 1 });
  console.log(`customer balance (GET /api/customers/:id): p50 ${balance.latency.p50} ms, p99 ${balance.latency.p99} ms`);
  await nextLoopPhase(); // what follows is the shutdown
  await stop(app);
  const { phases } = JSON.parse(readFileSync(loopFile, 'utf8')) as { phases: LoopPhase[] };
  const [, saturated, ...unsaturated] = phases;
  if (!saturated || unsaturated.length < 3) throw new Error(`the event-loop record has ${phases.length} phases, expected 6`);
  const described = (phase: LoopPhase): string =>
    `held at most ${round(phase.maxMs)} ms (p99 delay ${round(phase.p99Ms)} ms${phase.longest ? `; the longest gap between 5 ms ticks ${round(phase.longest.wallMs)} ms: ${round(phase.longest.onCpuMs)} ms on a core (${round(phase.longest.gcMs)} ms of it collecting garbage), ${round(phase.longest.waitingMs)} ms waiting for one` : ''})`;
  // Where no request waits for others (half rate, cancellations, balances), a delay is one piece of work or the machine's scheduling.
  const loop = unsaturated.slice(0, 3).reduce((worst, phase) => (phase.maxMs > worst.maxMs ? phase : worst));
  console.log(`event loop at ${LEDGER.toLocaleString('en-US')} entries, closed loop at full speed (16 connections: each turn of the loop serves the requests that arrived meanwhile; info): ${described(saturated)}`);
  console.log(`event loop at ${LEDGER.toLocaleString('en-US')} entries, half rate, cancellations and balances: ${described(loop)}`);
  const bigDead = deadLetters(bigPath);

  // 4. Startup.
  const bareStart = await startBare(join(work, 'bare-start.sqlite'));
  await stop(bareStart);
  const appStart = await startApp(join(work, 'start.sqlite'));
  await stop(appStart);
  console.log(`startup to first answer: app ${round(appStart.startupMs, 0)} ms, ${round(appStart.rssMb, 0)} MB RSS; bare ${round(bareStart.startupMs, 0)} ms, ${round(bareStart.rssMb, 0)} MB`);

  const misses: string[] = [];
  const check = (ok: boolean, what: string) => {
    if (!ok) misses.push(what);
  };
  check(emptyDead === 0 && bigDead === 0, `dead letters: ${emptyDead + bigDead}`);
  check(empty.rate * TARGET.e2eRatio >= bareRate, `end to end ${round(bareRate / empty.rate, 2)}× below bare (target ≤ ${TARGET.e2eRatio}×)`);
  check(half.latency.p99 <= TARGET.answerP99Ms, `answer p99 at half rate ${half.latency.p99} ms (target ≤ ${TARGET.answerP99Ms})`);
  check(empty.rate <= scaled.rate * TARGET.scaledRatio, `at ${LEDGER} entries ${round(empty.rate / scaled.rate, 2)}× slower (target ≤ ${TARGET.scaledRatio}×)`);
  check(cancel.count === cancellations.length && cancel.p99 <= TARGET.cancelP99Ms, `cancellation p99 ${cancel.p99} ms over ${cancel.count} (target ≤ ${TARGET.cancelP99Ms})`);
  check(balance.latency.p99 <= TARGET.balanceP99Ms, `balance p99 ${balance.latency.p99} ms (target ≤ ${TARGET.balanceP99Ms})`);
  check(loop.maxMs <= TARGET.loopMaxMs, `event loop held ${round(loop.maxMs)} ms at half rate, cancellations or balances (target ≤ ${TARGET.loopMaxMs})`);
  check(appStart.startupMs <= TARGET.startupMs, `startup ${round(appStart.startupMs, 0)} ms (target ≤ ${TARGET.startupMs})`);
  check(appStart.rssMb <= TARGET.startupRssMb, `startup RSS ${round(appStart.rssMb, 0)} MB (target ≤ ${TARGET.startupRssMb})`);
  if (misses.length > 0) {
    console.log(`MISSED: ${misses.join('; ')}`);
    process.exit(1);
  }
  console.log('all bench:ingest targets met');
}

main().then(
  () => process.exit(0),
  (e: unknown) => {
    console.error(e);
    process.exit(1);
  },
);
