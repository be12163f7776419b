/**
 * `npm run bench:storefront` (issue 11 "Speed"): the storefront API as the widget calls it, through
 * the real server as a child process (`server/main.ts`), driven from a separate load-generator
 * process, against a bare baseline measured in the same run.
 *
 * 1. Seed: a fresh SQLite file made by the app's migrations, one shop with a widget-sized set of
 *    programs (place order, sign up, birthday, website visit, Instagram follow, a review program;
 *    three rewards; VIP tiers Bronze / Silver / Gold, launched), then 100,000 customers and
 *    1,000,000 ledger entries written straight into the file (scripts/bench/customers-seed.ts,
 *    prepared inserts in 2,000-customer transactions).
 * 2. Bare: scripts/bench/bare-proxy-server.ts verifies the same app-proxy signature with the app's
 *    own check and answers a constant JSON.
 * 3. App: the real server on the seeded file, in demo mode (no SHOPIFY_API_SECRET: the demo secret
 *    signs, and redemption creates its discount codes with LocalDiscounts in memory, since the
 *    platform's Admin API is out of reach — the redeem figure has no platform round trip in it);
 *    the per-shop rate limit is raised for the run (PROXY_SHOP_RATE / PROXY_SHOP_BURST, one shop
 *    takes the whole load), the per-shopper limit stays at its default and is checked on every
 *    request.
 *
 * Every request is a different shopper (members and left customers in random order), its signed
 * query precomputed just before the run it belongs to (signatures are fresh for 90 s). Closed-loop
 * rates use autocannon (scripts/bench/autocannon-load.ts, 16 connections, BENCH_SECONDS each);
 * latency at half the bare rate uses the paced open-loop generator scripts/bench/loadgen.ts
 * (latency counted from each request's due time).
 *
 * Targets (exit 1 on a miss): `GET /proxy/customer` and `GET /proxy/ways-to-earn` at most 3× below
 * bare, with p99 ≤ 20 ms at half the bare rate; `POST /proxy/visit` at most 2× below bare; `POST
 * /proxy/redeem` p99 ≤ 50 ms at 16 connections. A measure whose answers are not 2xx (a call not
 * implemented yet answers 404) is a miss.
 *
 * BENCH_CUSTOMERS (100000), BENCH_LEDGER (1000000), BENCH_SECONDS (8), BENCH_ONLY (some of whoami, customer, ways-to-earn, visit, redeem), BENCH_DB=<file> (keep the
 * seeded file and reuse it next time; with BENCH_SEED_ONLY=1 only seed it) size it; BENCH_APP_LOG=<file>
 * keeps the servers' request logs.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { loadRegistry } from '../engine/registry';
import { localDate } from '../engine/store-time';
import type { JsonObject } from '../engine/types';
import { DEMO } from '../server/config';
import { openDatabase } from '../server/db/database';
import { proxySignature, type ProxyQuery } from '../server/proxy/signature';
import { insertDocument } from '../server/store/documents';
import { ensureShop } from '../server/store/shops';
import { seedCustomers, shuffled } from './bench/customers-seed';
import type { LoadResult, PreparedRequest } from './bench/loadgen';
import { prng } from './bench/orders';
import { PROGRAM_DATA } from './bench/programs';
import { printResults, type Result } from './bench/results';
import { startServerProcess, type ServerProcess } from './bench/server-process';

const ROOT = join(import.meta.dirname, '..');
const CUSTOMERS = Number(process.env.BENCH_CUSTOMERS ?? 100_000);
const LEDGER = Number(process.env.BENCH_LEDGER ?? 1_000_000);
const SECONDS = Number(process.env.BENCH_SECONDS ?? 8);
const WARMUP_SECONDS = 2;
const CONNECTIONS = 16;
const SHOP = 'bench-shop.myshopify.com';
/** The app runs in demo mode (see the header); both servers verify with the demo secret. */
const SECRET = DEMO.apiSecret;
const TARGET = { readRatio: 3, readP99Ms: 20, visitRatio: 2, redeemP99Ms: 50 };
const REWARD_COST = 100;

const round = (n: number, digits = 1): number => Number(n.toFixed(digits));
const work = mkdtempSync(join(tmpdir(), 'bench-storefront-'));
const children = new Set<ChildProcess>();
process.on('exit', () => {
  for (const child of children) child.kill('SIGKILL');
  rmSync(work, { recursive: true, force: true });
});
let nextFile = 0;

// ---------------------------------------------------------------------------------------------
// The database

/** Widget-sized programs, rewards and tiers, as a merchant saves them (validated by their kinds). */
const DOCUMENTS: [string, JsonObject][] = [
  ['earning.place_order', { status: true, ...PROGRAM_DATA[0]!, translateTitle: { fr: '1 point par dollar', de: '1 Punkt pro Dollar' } }],
  ['earning.sign_up', { status: true, title: 'Create an account', translateTitle: { fr: 'Créez un compte' }, earnPoint: 100 }],
  ['earning.birthday', { status: true, title: 'Birthday reward', translateTitle: { fr: 'Anniversaire' }, earnPoint: 200 }],
  ['earning.interact_website', { status: true, title: 'Visit the shop', translateTitle: { fr: 'Visitez la boutique' }, earnPoint: 5, hasLimit: true, limitInterval: 1, limitUnit: 'day', earnPointsLimit: 5 }],
  ['earning.follow_instagram', { status: true, title: 'Follow us on Instagram', translateTitle: { fr: 'Suivez-nous' }, earnPoint: 50, socialUrl: 'https://instagram.com/bench' }],
  ['earning.write_review', { status: true, title: 'Write a review', earnPoint: 50 }],
  ['redeem.amount_discount', { status: true, title: '$1 off', translateTitle: { fr: '1 $ de réduction' }, redeemPoint: REWARD_COST, discountAmount: 1 }],
  ['redeem.free_shipping', { status: true, title: 'Free shipping', redeemPoint: 400 }],
  ['redeem.percentage_discount', { status: true, title: '10% off', redeemPoint: 1000, discountPercent: 10 }],
  ['tier.tier', { name: 'Bronze', entryMethod: 'points_earned', entryRequirement: 0 }],
  ['tier.tier', { name: 'Silver', entryMethod: 'points_earned', entryRequirement: 1000 }],
  ['tier.tier', { name: 'Gold', entryMethod: 'points_earned', entryRequirement: 5000 }],
  ['tier.settings', { general: { status: true, entryMethod: 'points_earned' } }],
];

interface Seeded {
  /** Members and left customers (they have entries), with their balance and type. */
  /** `balance`: the points a shopper can spend now (pending ones left out). */
  shoppers: { id: string; balance: number; type: string }[];
  /** The cheapest reward's id (the redeem measure). */
  rewardId: string;
}

/** A migrated file with the shop, its documents and the seeded customers; reused when BENCH_DB names a seeded one. */
async function prepareDatabase(path: string): Promise<Seeded> {
  const db = await openDatabase(path);
  const seeded = await db.selectFrom('customers').select((eb) => eb.fn.countAll<number>().as('n')).where('shop_id', '=', SHOP).executeTakeFirst();
  if (Number(seeded?.n) === CUSTOMERS) {
    console.log(`reusing ${path}: ${CUSTOMERS.toLocaleString('en-US')} customers`);
  } else {
    if (Number(seeded?.n) > 0) throw new Error(`${path} holds another seed (${seeded?.n} customers); remove it or name another BENCH_DB`);
    const now = new Date().toISOString();
    await ensureShop(db, SHOP, now, { currency: 'USD', iana_timezone: 'America/New_York', plan: 'enterprise_2025', settings: JSON.stringify({ shopifyPlan: 'shopify_plus' }) });
    const registry = loadRegistry(join(ROOT, 'schemas'));
    let programId = '';
    for (const [kindId, data] of DOCUMENTS) {
      const kind = registry.get(kindId)!;
      const outcome = kind.validate(data);
      if (!outcome.ok) throw new Error(`bench document ${kindId} does not validate: ${JSON.stringify(outcome.issues)}`);
      const id = (await insertDocument(db, SHOP, kind.id, kind.version, outcome.data, now)).id;
      if (kindId === 'earning.place_order') programId = id;
    }
    await db.insertInto('tier_program').values({ shop_id: SHOP, status: 'launched', launched_at: now, start_date: null, change_notes: '', grant_entry_rewards: 0, actor: 'bench', updated_at: now }).execute();
    await db.destroy();
    const seed = seedCustomers(path, SHOP, programId, CUSTOMERS, LEDGER);
    console.log(`seeded ${CUSTOMERS.toLocaleString('en-US')} customers and ${seed.entries.toLocaleString('en-US')} ledger entries (prepared inserts, 2,000 customers a transaction) in ${round(seed.seconds)} s`);
    return prepareDatabase(path);
  }
  // The daily expiry and demotion job would walk every customer a few seconds after the server
  // starts (once per store-local day); mark today and tomorrow as run so it stays out of the measures.
  const today = new Date();
  for (const day of [today, new Date(today.getTime() + 86_400_000)]) {
    await db
      .insertInto('point_expiry_shop_runs')
      .values({ shop_id: SHOP, run_date: localDate(day, 'America/New_York'), finished_at: today.toISOString() })
      .onConflict((oc) => oc.doNothing())
      .execute();
  }
  // The balance a shopper can spend: the stored balance less what is still pending (redeem refuses the rest).
  const rows = await db
    .selectFrom('customers as c')
    .select(['c.id', 'c.type', (eb) => eb('c.points_balance', '-', eb.fn.coalesce(eb.selectFrom('ledger_entries as l').select((e) => e.fn.sum<number>('l.points').as('p')).whereRef('l.shop_id', '=', 'c.shop_id').whereRef('l.customer_id', '=', 'c.id').where('l.available_at', '>', new Date().toISOString()), eb.lit(0))).as('points_balance')])
    .where('c.shop_id', '=', SHOP)
    .where('c.type', '!=', 'guest')
    .execute();
  const reward = await db.selectFrom('documents').select(['id', 'data']).where('shop_id', '=', SHOP).where('kind', '=', 'redeem.amount_discount').executeTakeFirstOrThrow();
  await db.destroy();
  return { shoppers: shuffled(rows.map((r) => ({ id: r.id, balance: Number(r.points_balance), type: r.type })), prng(20_261_125)), rewardId: reward.id };
}

// ---------------------------------------------------------------------------------------------
// Processes

type Server = Pick<ServerProcess, 'child' | 'url'>;

let nextPort = 4710 + Math.floor(Math.random() * 200);

function start(args: string[], env: Record<string, string>): Promise<Server> {
  return startServerProcess(args, env, { cwd: ROOT, port: nextPort++, children, pollMs: 20 });
}

async function stop(server: Server): Promise<void> {
  const exited = new Promise((resolve) => server.child.once('exit', resolve));
  server.child.kill('SIGTERM');
  await exited;
}

/** CPU seconds (user + system) the process has used so far, from /proc. */
function cpuSeconds(pid: number): number {
  const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]!.split(' ');
  return (Number(fields[11]) + Number(fields[12])) / 100;
}

/** Waits until the server has used under 5 % of a core for three half-seconds in a row (at most 60 s); answers the seconds waited. */
async function waitIdle(server: Server): Promise<number> {
  const began = performance.now();
  let quiet = 0;
  while (quiet < 3 && performance.now() - began < 60_000) {
    const before = cpuSeconds(server.child.pid!);
    await sleep(500);
    quiet = cpuSeconds(server.child.pid!) - before < 0.025 ? quiet + 1 : 0;
  }
  return (performance.now() - began) / 1000;
}

/** Runs a generator script in its own process and returns its one JSON line. */
function generator(script: string, spec: Record<string, unknown>): Promise<LoadResult> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ['--import', 'tsx', join(ROOT, script), JSON.stringify(spec)], { cwd: ROOT, stdio: ['ignore', 'pipe', 'inherit'] });
    children.add(child);
    let out = '';
    child.stdout.on('data', (d: Buffer) => (out += d.toString()));
    child.on('exit', (code) => {
      children.delete(child);
      if (code !== 0) return reject(new Error(`${script} exited with ${code}`));
      resolve(JSON.parse(out.trim().split('\n').at(-1)!) as LoadResult);
    });
  });
}

function writeRequests(requests: PreparedRequest[]): string {
  const file = join(work, `requests-${nextFile++}.jsonl`);
  writeFileSync(file, requests.map((r) => JSON.stringify(r)).join('\n'));
  return file;
}

/** Closed loop: 16 connections for `seconds` (autocannon). Answers the rate and the latencies. */
async function closedLoop(server: Server, requests: PreparedRequest[], seconds = SECONDS): Promise<LoadResult & { rate: number; statuses?: Record<string, number> }> {
  const r: LoadResult & { statuses?: Record<string, number> } = await generator('scripts/bench/autocannon-load.ts', { url: server.url, file: writeRequests(requests), connections: CONNECTIONS, seconds });
  return { ...r, rate: r.requests / ((r.finishedAt - r.startedAt) / 1000) };
}

/** Open loop at `rate` per second for `seconds` (loadgen.ts paced mode): latency from each request's due time. */
function paced(server: Server, requests: PreparedRequest[], rate: number, seconds = SECONDS): Promise<LoadResult> {
  return generator('scripts/bench/loadgen.ts', { url: server.url, file: writeRequests(requests), connections: CONNECTIONS, amount: Math.max(1, Math.round(rate * seconds)), overallRate: rate });
}

// ---------------------------------------------------------------------------------------------
// Requests

/** A signed storefront request for `customerId`, fresh now (the platform's app-proxy query). */
function signedRequest(method: 'GET' | 'POST', path: string, customerId: string, extra: ProxyQuery = {}, body?: string, headers: Record<string, string> = {}): PreparedRequest {
  const query: ProxyQuery = { shop: [SHOP], logged_in_customer_id: [customerId], path_prefix: ['/apps/loyalty'], timestamp: [String(Math.floor(Date.now() / 1000))], ...extra };
  const params = new URLSearchParams();
  for (const [key, values] of Object.entries(query)) for (const value of values) params.append(key, value);
  params.append('signature', proxySignature(query, SECRET));
  return { method, path: `/proxy${path}?${params.toString()}`, headers: { ...headers, ...(body !== undefined ? { 'content-type': 'application/json' } : {}) }, ...(body !== undefined ? { body } : {}) };
}

/** `count` requests, each for the next shopper of the list (a different one each time until the list wraps). */
function requestsFor(shoppers: readonly { id: string }[], from: number, count: number, make: (id: string, i: number) => PreparedRequest): PreparedRequest[] {
  return Array.from({ length: count }, (_, i) => make(shoppers[(from + i) % shoppers.length]!.id, i));
}

// ---------------------------------------------------------------------------------------------
// The run

async function main(): Promise<void> {
  console.log(`bench:storefront — ${CUSTOMERS.toLocaleString('en-US')} customers, ${LEDGER.toLocaleString('en-US')} ledger entries; ${CONNECTIONS} connections, ${SECONDS} s per measure after ${WARMUP_SECONDS} s of warm-up; a different shopper per request`);
  const keep = process.env.BENCH_DB;
  const path = keep ?? join(work, 'storefront.sqlite');
  if (keep && existsSync(keep)) console.log(`BENCH_DB: ${keep}`);
  const { shoppers, rewardId } = await prepareDatabase(path);
  if (process.env.BENCH_SEED_ONLY) return; // BENCH_DB=<file> BENCH_SEED_ONLY=1: seed for later runs, measure nothing
  // Enough distinct shoppers that no run repeats one within its seconds at a few thousand per second.
  const batch = Math.min(shoppers.length, 60_000);
  let cursor = 0;
  const take = (count: number): number => {
    const from = cursor;
    cursor = (cursor + count) % shoppers.length;
    return from;
  };

  // Bare baseline.
  const bare = await start(['--import', 'tsx', join(ROOT, 'scripts/bench/bare-proxy-server.ts')], { SECRET });
  const customerRequests = (): PreparedRequest[] => requestsFor(shoppers, take(batch), batch, (id) => signedRequest('GET', '/customer', id));
  await closedLoop(bare, customerRequests(), WARMUP_SECONDS);
  const bareRun = await closedLoop(bare, customerRequests());
  const halfRate = Math.max(1, Math.floor(bareRun.rate / 2));
  const bareHalf = await paced(bare, customerRequests(), halfRate);
  await stop(bare);
  console.log(`bare verify-signature server: ${round(bareRun.rate, 0)} requests/s (p99 ${bareRun.latency.p99} ms at full speed); at half that rate (${halfRate}/s) p50 ${bareHalf.latency.p50} ms, p99 ${bareHalf.latency.p99} ms`);

  // The app.
  // BENCH_CPU_PROF=<folder>: the app writes a V8 CPU profile there when it stops (where the time goes).
  // BENCH_NODE_ARGS: more Node flags for the app (e.g. --trace-gc, whose lines go to BENCH_APP_LOG).
  const profile = [...(process.env.BENCH_CPU_PROF ? ['--cpu-prof', '--cpu-prof-dir', process.env.BENCH_CPU_PROF] : []), ...(process.env.BENCH_NODE_ARGS?.split(' ').filter(Boolean) ?? [])];
  const app = await start([...profile, '--import', 'tsx', join(ROOT, 'server/main.ts')], {
    DATABASE_PATH: path,
    // Demo mode: discount codes come from LocalDiscounts (in memory) instead of the platform's
    // Admin API, which the benchmark cannot reach; everything else runs as in production.
    SHOPIFY_API_SECRET: '',
    SHOPIFY_API_KEY: '',
    LOG_LEVEL: process.env.BENCH_LOG_LEVEL ?? 'info',
    PROXY_SHOP_RATE: '1000000000',
    PROXY_SHOP_BURST: '1000000000',
  });
  // Right after its first answer the server compiles every schema validator, starts its processing
  // and import threads and seeds the demo shop: measure only once it has settled.
  console.log(`app settled ${round(await waitIdle(app))} s after its first answer`);

  const results: Result[] = [];
  const notes: string[] = [];
  const answers = (r: LoadResult): string => (r.non2xx + r.errors > 0 ? `; ${r.non2xx} non-2xx, ${r.errors} errors of ${r.requests}` : '');
  const refused = (r: LoadResult & { statuses?: Record<string, number> }, what: string): boolean => {
    if (r.non2xx + r.errors === 0) return false;
    const statuses = r.statuses ? ` (by status: ${JSON.stringify(r.statuses)})` : '';
    notes.push(`${what}: ${r.non2xx} of ${r.requests} answers were not 2xx${statuses} and ${r.errors} failed (a call not implemented yet answers 404)`);
    return true;
  };

  // BENCH_ONLY=whoami,customer,ways-to-earn,visit,redeem runs only those measures (while working on
  // one; a full run measures all, and a partial run never reports "all targets met").
  const only = process.env.BENCH_ONLY?.split(',').map((m) => m.trim()).filter(Boolean);
  const runs = (measure: string): boolean => !only || only.includes(measure);

  // For information: the app's own stack with no handler work (signature, rate limit, request log,
  // security headers, compression check), what every storefront call pays before its own work.
  if (runs('whoami')) {
    const make = (): PreparedRequest[] => requestsFor(shoppers, take(batch), batch, (id) => signedRequest('GET', '/whoami', id));
    await closedLoop(app, make(), WARMUP_SECONDS);
    const full = await closedLoop(app, make());
    console.log(`GET /proxy/whoami (the app's stack alone): ${round(full.rate, 0)} requests/s (${round(bareRun.rate / full.rate, 2)}× below bare; p99 ${full.latency.p99} ms)`);
    results.push({ group: 'app stack', measure: 'GET /proxy/whoami, requests/s (16 connections)', figure: full.rate, unit: 'req/s', detail: `p99 ${full.latency.p99} ms; ${round(bareRun.rate / full.rate, 2)}× below bare`, baseline: { figure: bareRun.rate, what: 'verify only' } });
  }

  const reads: [string, string, ProxyQuery][] = [
    ['balance', '/customer', {}],
    ['ways to earn', '/ways-to-earn', { language: ['fr'] }],
  ];
  for (const [name, route, extra] of reads) {
    if (!runs(route.slice(1))) continue;
    const make = (): PreparedRequest[] => requestsFor(shoppers, take(batch), batch, (id) => signedRequest('GET', route, id, extra));
    await closedLoop(app, make(), WARMUP_SECONDS);
    const full = await closedLoop(app, make());
    const half = await paced(app, make(), halfRate);
    const bad = refused(full, `GET /proxy${route}`) || refused(half, `GET /proxy${route} at half rate`);
    console.log(`GET /proxy${route}: ${round(full.rate, 0)} requests/s (${round(bareRun.rate / full.rate, 2)}× below bare; p99 ${full.latency.p99} ms at full speed${answers(full)}); at ${halfRate}/s p50 ${half.latency.p50} ms, p99 ${half.latency.p99} ms${answers(half)}`);
    results.push({
      group: name,
      measure: `GET /proxy${route}, requests/s (16 connections)`,
      figure: bad ? 0 : full.rate,
      unit: 'req/s',
      detail: `p99 ${full.latency.p99} ms at full speed; ${round(bareRun.rate / full.rate, 2)}× below bare`,
      baseline: { figure: bareRun.rate, what: 'verify only' },
      target: { min: bareRun.rate / TARGET.readRatio },
    });
    results.push({
      group: name,
      measure: `GET /proxy${route}, p99 at half the bare rate (${halfRate}/s)`,
      figure: bad ? Number.POSITIVE_INFINITY : half.latency.p99,
      unit: 'ms',
      detail: `p50 ${half.latency.p50} ms, max ${half.latency.max} ms`,
      baseline: { figure: bareHalf.latency.p99, what: 'verify only, same rate' },
      target: { max: TARGET.readP99Ms },
    });
  }

  // Redeem (REDEEM's POST /proxy/redeem): shoppers who can afford the $1-off reward, one redemption each.
  if (runs('redeem')) {
    // Each shopper redeems once in the run (warm-up and measure take different ones), so an answer
    // is never "Current balance is insufficient" because of an earlier redemption of this run.
    // Members only: a customer who left the program cannot redeem.
    const rich = shoppers.filter((s) => s.type === 'member' && s.balance >= REWARD_COST * 3);
    const warm = Math.min(Math.floor(rich.length / 3), 10_000);
    const make = (from: number, count: number): PreparedRequest[] =>
      requestsFor(rich.slice(from, from + count), 0, count, (id) => signedRequest('POST', '/redeem', id, {}, JSON.stringify({ rewardId }), { 'idempotency-key': crypto.randomUUID() }));
    await closedLoop(app, make(0, warm), WARMUP_SECONDS);
    const full = await closedLoop(app, make(warm, Math.min(rich.length - warm, 40_000)));
    const bad = refused(full, 'POST /proxy/redeem');
    console.log(`POST /proxy/redeem: ${round(full.rate, 0)} redemptions/s at 16 connections, p50 ${full.latency.p50} ms, p99 ${full.latency.p99} ms${answers(full)}`);
    results.push({
      group: 'redeem',
      measure: 'POST /proxy/redeem, p99 at 16 connections',
      figure: bad ? Number.POSITIVE_INFINITY : full.latency.p99,
      unit: 'ms',
      detail: `${round(full.rate, 0)}/s, p50 ${full.latency.p50} ms${bad ? ' — answers not 2xx' : ''}`,
      target: { max: TARGET.redeemP99Ms },
    });
  }
  // The visit ping (POST /proxy/visit), last: each ping is queued and awarded by the processing
  // thread afterwards (server/services/visits.ts), so a run leaves tens of thousands of visits to
  // award, minutes of background writing that would weigh on any measure after it.
  if (runs('visit')) {
    const make = (): PreparedRequest[] => requestsFor(shoppers, take(batch), batch, (id) => signedRequest('POST', '/visit', id, {}, '{}'));
    await closedLoop(app, make(), WARMUP_SECONDS);
    const full = await closedLoop(app, make());
    const bad = refused(full, 'POST /proxy/visit');
    console.log(`POST /proxy/visit: ${round(full.rate, 0)} requests/s (${round(bareRun.rate / full.rate, 2)}× below bare; p50 ${full.latency.p50} ms, p99 ${full.latency.p99} ms${answers(full)})`);
    results.push({
      group: 'visit ping',
      measure: 'POST /proxy/visit, requests/s (16 connections)',
      figure: bad ? 0 : full.rate,
      unit: 'req/s',
      detail: `p99 ${full.latency.p99} ms; ${round(bareRun.rate / full.rate, 2)}× below bare${bad ? ' — answers not 2xx' : ''}`,
      baseline: { figure: bareRun.rate, what: 'verify only' },
      target: { min: bareRun.rate / TARGET.visitRatio },
    });
  }

  await stop(app);

  const misses = printResults(`bench:storefront — ${CUSTOMERS.toLocaleString('en-US')} customers, ${LEDGER.toLocaleString('en-US')} entries `, results);
  for (const note of notes) console.log(`note: ${note}`);
  if (misses.length > 0) {
    console.log(`\nMISSED: ${misses.map((m) => `${m.group} · ${m.measure}`).join('; ')}`);
    process.exit(1);
  }
  if (only) {
    console.log(`\nBENCH_ONLY=${only.join(',')}: the measures run met their targets; a full run measures all`);
    return;
  }
  console.log('\nall bench:storefront targets met');
}

main().then(
  () => process.exit(0),
  (e: unknown) => {
    console.error(e);
    process.exit(1);
  },
);
