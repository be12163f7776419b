/**
 * `npm run bench:customers` (issue 10 "Speed"): the customers admin on a shop of 100,000 customers
 * and 1,000,000 ledger entries, measured through the real app (`createApp` from server/app.ts,
 * `app.request()` with a session token, as tests/support/app.ts does) against a bare baseline
 * measured in the same run.
 *
 * The database is a fresh SQLite file made by the app's own migrations (server/db/database.ts)
 * and seeded straight into the file by scripts/bench/customers-seed.ts: realistic names and
 * e-mails, member / guest / left mixed, a skewed ledger (a few customers with thousands of
 * entries), every `points_balance` equal to the sum of the customer's entries. No ANALYZE is run:
 * the app never runs it, so the query planner sees what it sees in production.
 *
 * Measures run one after another, each a function returning rows for the one results table
 * (scripts/bench/results.ts); each latency measure takes BENCH_SAMPLES samples after
 * BENCH_WARMUP unmeasured requests, one request at a time:
 * - list: `GET /api/customers?limit=20` (points high to low), a deep page through the cursor
 *   (a random point in the second half of the list each time), `sort=points_asc`,
 *   `sort=updated_desc`, `tab=member` — target p95 ≤ 30 ms each; and, for information, the deepest
 *   pages (a cursor in the last 1,000 rows);
 * - search: by full e-mail, a different customer each time (any case) — p95 ≤ 30 ms; by the start
 *   of a name (for information);
 * - profile: `GET /api/customers/:id` then `GET /api/customers/:id/activity` (first page), a
 *   different customer each time, one in five with 200 or more entries — p95 ≤ 30 ms; and the same
 *   for customers with 200 or more entries only — p95 ≤ 30 ms;
 * - diagnosis (information): the list's statements alone — `count(*)` for the tabs and searches, and
 *   the e-mail search's page query with and without its ORDER BY, the deepest page's query with and
 *   without a range bound on its cursor;
 * - import: the CSV import's measure goes here (see MEASURES below).
 *
 * The bare baseline of each measure replays its samples against a bare Hono app answering a
 * constant JSON after the same number of primary-key lookups (`select * from customers where
 * shop_id = ? and id = ?`, through the same Kysely connection) as the app's requests made SQL
 * statements (counted by a Kysely plugin), so the ratio is the price of what the queries do rather
 * than of how many there are.
 *
 * Exit 1 when a target is missed. BENCH_CUSTOMERS (100000), BENCH_LEDGER (1000000),
 * BENCH_SAMPLES (300), BENCH_WARMUP (50) size it; BENCH_DB=<file> keeps the seeded file and reuses
 * it on the next run with the same sizes (otherwise a temporary file, removed at exit); BENCH_ONLY
 * (e.g. `search,diagnosis`) runs only the measures it names.
 */
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Hono } from 'hono';
import { sql, type KyselyPlugin } from 'kysely';
import { loadRegistry } from '../engine/registry';
import { createApp } from '../server/app';
import { signSessionToken } from '../server/auth';
import type { AuthConfig } from '../server/config';
import { openDatabase, type Db } from '../server/db/database';
import { insertDocument } from '../server/store/documents';
import { ensureShop } from '../server/store/shops';
import { seedCustomers, shuffled } from './bench/customers-seed';
import { prng } from './bench/orders';
import { PROGRAM_DATA } from './bench/programs';
import { latencyOf, printResults, sampleLatency, type Result } from './bench/results';
import { benchImport } from './bench/import';
import { nameSearch } from '../server/services/customers';

const ROOT = join(import.meta.dirname, '..');
const CUSTOMERS = Number(process.env.BENCH_CUSTOMERS ?? 100_000);
const LEDGER = Number(process.env.BENCH_LEDGER ?? 1_000_000);
const SAMPLES = Number(process.env.BENCH_SAMPLES ?? 300);
const WARMUP = Number(process.env.BENCH_WARMUP ?? 50);
const SHOP = 'bench-shop.myshopify.com';
const AUTH: AuthConfig = { apiKey: 'bench-key', apiSecret: 'bench-secret', demo: false };
/** Issue 10: p95 of the list, the e-mail search and the profile with its first activity page. */
const TARGET_P95_MS = 30;
/** A customer with at least this many entries counts as one "with many entries". */
const MANY_ENTRIES = 200;
/** Samples of each diagnosis statement (some take a full scan). */
const DIAGNOSIS_SAMPLES = 50;

/** A customer as the requests need them (read back from the seeded file). */
interface BenchCustomer {
  id: string;
  email: string;
  firstName: string;
  lastName: string;
  type: string;
  entries: number;
}

/** What every measure gets. */
interface BenchContext {
  /** The real app, on `appDb`. */
  app: ReturnType<typeof createApp>;
  /** The bare baseline: `GET /bare/:n` makes n primary-key lookups and answers a constant JSON. */
  bare: Hono;
  /** The database connection without the counting plugin (the app's own connection underneath). */
  db: Db;
  token: string;
  customers: BenchCustomer[];
  /** SQL statements the app has issued so far (Kysely plugin on the app's connection). */
  statements: { count: number };
  random: () => number;
}

type Measure = (ctx: BenchContext) => Promise<Result[]>;

const round = (n: number, digits = 1): number => Number(n.toFixed(digits));

// ---------------------------------------------------------------------------------------------
// Requests and the bare baseline

interface Answer {
  status: number;
  body: string;
  /** SQL statements this request made. */
  statements: number;
}

/** One authenticated GET through the app, body read to the end. */
async function get(ctx: BenchContext, path: string): Promise<Answer> {
  const before = ctx.statements.count;
  const res = await ctx.app.request(path, { headers: { Authorization: `Bearer ${ctx.token}` } });
  const body = await res.text();
  return { status: res.status, body, statements: ctx.statements.count - before };
}

function expectOk(answer: Answer, path: string): void {
  if (answer.status !== 200) throw new Error(`GET ${path} answered ${answer.status}: ${answer.body.slice(0, 300)}`);
}

/** The bare app: the same Hono and the same Kysely connection, n primary-key lookups, a constant answer. */
function bareApp(db: Db, customers: readonly BenchCustomer[]): Hono {
  const bare = new Hono();
  const random = prng(7);
  bare.get('/bare/:n', async (c) => {
    const n = Number(c.req.param('n'));
    for (let i = 0; i < n; i++) {
      const id = customers[Math.floor(random() * customers.length)]!.id;
      await db.selectFrom('customers').selectAll().where('shop_id', '=', SHOP).where('id', '=', id).executeTakeFirst();
    }
    return c.json({ data: [], pageInfo: { hasNextPage: false, endCursor: null } });
  });
  return bare;
}

/**
 * Times `paths(i)` (one or more GETs made one after another) per sample; every answer must be 200
 * and pass `check`. Then replays the same samples against the bare app with the same number of
 * statements per request. Returns the latency row with its baseline.
 */
async function requestMeasure(
  ctx: BenchContext,
  row: { group: string; measure: string; target?: boolean },
  paths: (i: number, warm: boolean) => string[],
  check?: (body: unknown, path: string) => void,
): Promise<Result> {
  const shapes: number[][] = [];
  // Answers are checked after the timing, so parsing them is not counted.
  const answers: [string, Answer][] = [];
  const times = await sampleLatency(
    async (i, warm) => {
      const counts: number[] = [];
      for (const path of paths(i, warm)) {
        const answer = await get(ctx, path);
        answers.push([path, answer]);
        counts.push(answer.statements);
      }
      if (!warm) shapes.push(counts);
    },
    SAMPLES,
    WARMUP,
  );
  for (const [path, answer] of answers) {
    expectOk(answer, path);
    check?.(JSON.parse(answer.body) as unknown, path);
  }
  const bareTimes = await sampleLatency(
    async (i, warm) => {
      for (const n of shapes[i % shapes.length]!) {
        const res = await ctx.bare.request(`/bare/${n}`);
        await res.text();
        if (!warm && res.status !== 200) throw new Error(`bare answered ${res.status}`);
      }
    },
    SAMPLES,
    WARMUP,
  );
  const app = latencyOf(times);
  const base = latencyOf(bareTimes);
  const statements = shapes.map((s) => s.reduce((a, b) => a + b, 0));
  const perSample = statements.length ? round(statements.reduce((a, b) => a + b, 0) / statements.length) : 0;
  const result: Result = {
    group: row.group,
    measure: row.measure,
    figure: app.p95,
    unit: 'ms',
    detail: `p95; p50 ${round(app.p50, 2)}, p99 ${round(app.p99, 1)}, max ${round(app.max, 1)}; ${perSample} SQL/sample`,
    baseline: { figure: base.p95, what: `p95, ${perSample} PK lookups` },
    ...(row.target === false ? {} : { target: { max: TARGET_P95_MS } }),
  };
  console.log(`  ${row.group} · ${row.measure}: p50 ${round(app.p50, 2)} ms, p95 ${round(app.p95, 2)} ms, p99 ${round(app.p99, 2)} ms (bare p95 ${round(base.p95, 2)} ms)`);
  return result;
}

type ListPage = { data: { id: string; email: string }[]; pageInfo: { hasNextPage: boolean; endCursor: string | null }; total: number };

const cursorOf = (points: number, id: string): string => Buffer.from(JSON.stringify([points, id])).toString('base64url');

// ---------------------------------------------------------------------------------------------
// Measures

/** The list: first pages in each order, the member tab, and a deep page through the cursor. */
const measureList: Measure = async (ctx) => {
  const results: Result[] = [];
  const pageOf = (body: unknown, path: string) => {
    const page = body as ListPage;
    if (page.data.length !== 20 || page.total <= 0) throw new Error(`GET ${path}: ${page.data.length} rows, total ${page.total}`);
  };
  results.push(await requestMeasure(ctx, { group: 'list', measure: 'first page, points high→low (limit=20)' }, () => ['/api/customers?limit=20'], pageOf));

  // Deep pages: the cursor of a random row in the second half of the points order, each time.
  const order = await ctx.db.selectFrom('customers').select(['points_balance', 'id']).where('shop_id', '=', SHOP).orderBy('points_balance', 'desc').orderBy('id', 'desc').execute();
  const half = Math.floor(order.length / 2);
  const deepPath = () => {
    const row = order[half + Math.floor(ctx.random() * (order.length - half - 40))]!;
    return [`/api/customers?limit=20&after=${cursorOf(row.points_balance, row.id)}`];
  };
  results.push(await requestMeasure(ctx, { group: 'list', measure: 'deep page via cursor (2nd half of the list)' }, deepPath, pageOf));
  const deepest = () => {
    const row = order[order.length - 1000 + Math.floor(ctx.random() * 960)]!;
    return [`/api/customers?limit=20&after=${cursorOf(row.points_balance, row.id)}`];
  };
  results.push(await requestMeasure(ctx, { group: 'list', measure: 'deepest pages via cursor (last 1,000 rows)', target: false }, deepest, pageOf));
  results.push(await requestMeasure(ctx, { group: 'list', measure: 'first page, sort=points_asc' }, () => ['/api/customers?limit=20&sort=points_asc'], pageOf));
  results.push(await requestMeasure(ctx, { group: 'list', measure: 'first page, sort=updated_desc' }, () => ['/api/customers?limit=20&sort=updated_desc'], pageOf));
  results.push(await requestMeasure(ctx, { group: 'list', measure: 'first page, tab=member' }, () => ['/api/customers?limit=20&tab=member'], pageOf));
  return results;
};

/** Search: by full e-mail (a different customer each time, sometimes typed capitalised) and by the start of a name. */
const measureSearch: Measure = async (ctx) => {
  const pickCustomer = () => ctx.customers[Math.floor(ctx.random() * ctx.customers.length)]!;
  const byEmail = new Map<string, string>();
  const emailPath = () => {
    const c = pickCustomer();
    const typed = ctx.random() < 0.3 ? c.email[0]!.toUpperCase() + c.email.slice(1) : c.email;
    const path = `/api/customers?search=${encodeURIComponent(typed)}`;
    byEmail.set(path, c.email);
    return [path];
  };
  const found = (body: unknown, path: string) => {
    const page = body as ListPage;
    if (page.total !== 1 || page.data[0]?.email !== byEmail.get(path)) throw new Error(`GET ${path}: expected exactly ${byEmail.get(path)}, got ${page.total} (${page.data[0]?.email})`);
  };
  const results = [await requestMeasure(ctx, { group: 'search', measure: 'by full e-mail, a different customer each time' }, emailPath, found)];
  const prefixPath = () => {
    const c = pickCustomer();
    const name = ctx.random() < 0.5 ? c.firstName : c.lastName;
    return [`/api/customers?search=${encodeURIComponent(name.slice(0, 3).toLowerCase())}`];
  };
  results.push(await requestMeasure(ctx, { group: 'search', measure: 'by name prefix (3 letters)', target: false }, prefixPath));
  return results;
};

/** The profile and its first activity page, a different customer each time. */
const measureProfile: Measure = async (ctx) => {
  const many = shuffled(ctx.customers.filter((c) => c.entries >= MANY_ENTRIES), ctx.random);
  const everyone = shuffled(ctx.customers, ctx.random);
  const profilePaths = (c: BenchCustomer) => [`/api/customers/${c.id}`, `/api/customers/${c.id}/activity`];
  const activityShown = (body: unknown, path: string) => {
    if (!path.endsWith('/activity')) return;
    const page = body as { data: unknown[] };
    if (!Array.isArray(page.data)) throw new Error(`GET ${path}: no activity page`);
  };
  // Mixed: one sample in five from the customers with many entries, the rest anyone; never the same customer twice.
  let nextMany = 0;
  let nextAnyone = 0;
  const mixed = (i: number) => profilePaths(i % 5 === 0 ? many[nextMany++ % many.length]! : everyone[nextAnyone++ % everyone.length]!);
  const results = [await requestMeasure(ctx, { group: 'profile', measure: 'profile + first activity page, mixed (1 in 5 with ≥200 entries)' }, mixed, activityShown)];
  const heavyOnly = () => profilePaths(many[nextMany++ % many.length]!);
  results.push(await requestMeasure(ctx, { group: 'profile', measure: `profile + first activity page, customers with ≥${MANY_ENTRIES} entries` }, heavyOnly, activityShown));
  return results;
};

/**
 * Diagnosis, for information: the list's own statements timed alone through the same connection
 * (DIAGNOSIS_SAMPLES each), against one primary-key lookup — the `total` count for a tab and the
 * searches, the page query of an e-mail search as the app builds it beside the same query without
 * ORDER BY (its at most two rows sorted afterwards; the plan is printed), and the deepest pages'
 * query with its cursor condition as written beside the same with a redundant `points_balance <=`
 * bound.
 */
const measureDiagnosis: Measure = async (ctx) => {
  const someone = (i: number) => ctx.customers[(i * 7919) % ctx.customers.length]!;
  const count = () => ctx.db.selectFrom('customers').select((eb) => eb.fn.countAll<number>().as('n')).where('shop_id', '=', SHOP);
  const byEmail = (i: number) => {
    const email = someone(i).email;
    return ctx.db.selectFrom('customers').selectAll().where('shop_id', '=', SHOP).where('email', 'in', [email[0]!.toUpperCase() + email.slice(1), email]);
  };
  // The points order's cursor condition as listCustomers writes it, and with a redundant bound that lets an index range start at the cursor.
  const last = await ctx.db.selectFrom('customers').select(['points_balance', 'id']).where('shop_id', '=', SHOP).orderBy('points_balance', 'asc').orderBy('id', 'asc').limit(1000).execute();
  const afterCursor = (i: number, bounded: boolean) => {
    const at = last[(i * 37) % last.length]!;
    let q = ctx.db.selectFrom('customers').selectAll().where('shop_id', '=', SHOP);
    if (bounded) q = q.where('points_balance', '<=', at.points_balance);
    q = q.where((eb) => eb.or([eb('points_balance', '<', at.points_balance), eb.and([eb('points_balance', '=', at.points_balance), eb('id', '<', at.id)])]));
    return q.orderBy('points_balance', 'desc').orderBy('id', 'desc').limit(21).execute();
  };
  const queries: [string, (i: number) => Promise<unknown>][] = [
    ['SQL: count(*), tab=all', () => count().executeTakeFirst()],
    ['SQL: count(*), tab=member', () => count().where('type', '=', 'member').executeTakeFirst()],
    ['SQL: count(*), e-mail search', (i) => count().where('email', '=', someone(i).email).executeTakeFirst()],
    [
      'SQL: count(*), name prefix',
      (i) => count().where(nameSearch(ctx.db, someone(i).lastName.slice(0, 3))).executeTakeFirst(),
    ],
    ['SQL: e-mail search page, as listed (ORDER BY points)', (i) => byEmail(i).orderBy('points_balance', 'desc').orderBy('id', 'desc').limit(21).execute()],
    ['SQL: e-mail search page, no ORDER BY (then sorted)', (i) => byEmail(i).limit(21).execute()],
    ['SQL: deepest page, cursor as listed', (i) => afterCursor(i, false)],
    ['SQL: deepest page, cursor with points_balance <= bound', (i) => afterCursor(i, true)],
  ];
  const pk = latencyOf(await sampleLatency(async (i) => void (await ctx.db.selectFrom('customers').selectAll().where('shop_id', '=', SHOP).where('id', '=', someone(i).id).executeTakeFirst()), SAMPLES, WARMUP));
  const email = someone(1).email;
  const plan = await sql<{ detail: string }>`explain query plan select * from customers where shop_id = ${SHOP} and email in (${email}) order by points_balance desc, id desc limit 21`.execute(ctx.db).catch(() => ({ rows: [] }));
  if (plan.rows.length) console.log(`  plan of the e-mail search page: ${plan.rows.map((r) => r.detail).join(' | ')}`);
  const results: Result[] = [];
  for (const [measure, run] of queries) {
    const l = latencyOf(await sampleLatency(async (i) => void (await run(i)), DIAGNOSIS_SAMPLES, 3));
    results.push({ group: 'diagnosis', measure, figure: l.p95, unit: 'ms', detail: `p95; p50 ${round(l.p50, 2)}`, baseline: { figure: pk.p95, what: 'p95, 1 PK lookup' } });
    console.log(`  diagnosis · ${measure}: p50 ${round(l.p50, 2)} ms, p95 ${round(l.p95, 2)} ms`);
  }
  return results;
};

/**
 * The CSV import (issue 10): a 350,000-row, ~24 MB file from upload to completed through the real
 * service, in a process of its own with a fresh database (scripts/bench/import.ts), against a bare
 * csv-parse + prepared-insert baseline in that same process. Targets ≥ 50,000 rows/s and a peak
 * RSS ≤ 250 MB of that process.
 */
async function measureImport(): Promise<Result[]> {
  const f = await benchImport();
  console.log(`  import · ${f.rows.toLocaleString('en-US')} rows (${f.megabytes} MB): ${f.rowsPerSecond.toLocaleString('en-US')} rows/s (bare ${f.baselineRowsPerSecond.toLocaleString('en-US')} rows/s; SQLite's floor for these rows, INSERT … SELECT in one transaction, ${f.floorRowsPerSecond.toLocaleString('en-US')} rows/s), peak RSS ${f.peakRssMb} MB; CPU ${f.cpuSeconds} s of every thread (bare ${f.baselineCpuSeconds} s)`);
  return [
    { group: 'import', measure: `${f.rows.toLocaleString('en-US')}-row ${f.megabytes} MB CSV, upload to completed`, figure: f.rowsPerSecond, unit: 'rows/s', detail: `rate; CPU ${f.cpuSeconds} s (bare ${f.baselineCpuSeconds} s)`, baseline: { figure: f.baselineRowsPerSecond, what: 'csv-parse + prepared inserts' }, target: { min: 50_000 } },
    { group: 'import', measure: 'peak RSS of the importing process', figure: f.peakRssMb, unit: 'MB', detail: `peak RSS; ${f.peakAnonRssMb} MB without the database's mapped pages`, target: { max: 250 } },
  ];
}

/**
 * The measures, run in this order. The CSV import's measure (350,000 rows, ≥ 50,000 rows/s, peak
 * RSS ≤ 250 MB) goes last, as `measureImport`: a Measure returning rows with `unit: 'rows/s'`
 * (`target: { min: 50_000 }`) and `unit: 'MB'` (`target: { max: 250 }`); it may use ctx.app and
 * ctx.token, and should import into a shop of its own so the other measures' figures stay as they are.
 * Its peak RSS wants a process of its own (or a fresh database): by then this process has read much
 * of the 1.1 GB seeded file through SQLite's memory map, and those pages count in its RSS.
 */
const MEASURES: [string, Measure][] = [
  ['list', measureList],
  ['search', measureSearch],
  ['profile', measureProfile],
  ['diagnosis', measureDiagnosis],
  ['import', measureImport],
];

// ---------------------------------------------------------------------------------------------
// The run

/** A migrated file with the shop, one earning program and the seeded customers; reused when BENCH_DB names a seeded one. */
async function prepareDatabase(path: string): Promise<void> {
  const db = await openDatabase(path);
  const seeded = await db.selectFrom('customers').select((eb) => eb.fn.countAll<number>().as('n')).where('shop_id', '=', SHOP).executeTakeFirst();
  const entries = await db.selectFrom('ledger_entries').select((eb) => eb.fn.countAll<number>().as('n')).where('shop_id', '=', SHOP).executeTakeFirst();
  if (Number(seeded?.n) === CUSTOMERS && Number(entries?.n) === LEDGER) {
    console.log(`reusing ${path}: ${CUSTOMERS.toLocaleString('en-US')} customers, ${LEDGER.toLocaleString('en-US')} entries`);
    await db.destroy();
    return;
  }
  if (Number(seeded?.n) > 0) throw new Error(`${path} holds another seed (${seeded?.n} customers); remove it or name another BENCH_DB`);
  const now = new Date().toISOString();
  await ensureShop(db, SHOP, now, { currency: 'USD', iana_timezone: 'America/New_York', plan: 'enterprise_2025', settings: JSON.stringify({ shopifyPlan: 'shopify_plus' }) });
  const kind = loadRegistry(join(ROOT, 'schemas')).get('earning.place_order')!;
  const outcome = kind.validate({ status: true, ...PROGRAM_DATA[0]! });
  if (!outcome.ok) throw new Error(`bench program does not validate: ${JSON.stringify(outcome.issues)}`);
  const programId = (await insertDocument(db, SHOP, kind.id, kind.version, outcome.data, now)).id;
  await db.destroy();
  const seed = seedCustomers(path, SHOP, programId, CUSTOMERS, LEDGER);
  const types = seed.customers.reduce<Record<string, number>>((acc, c) => ({ ...acc, [c.type]: (acc[c.type] ?? 0) + 1 }), {});
  const most = Math.max(...seed.customers.map((c) => c.entries));
  console.log(`seeded ${CUSTOMERS.toLocaleString('en-US')} customers (${Object.entries(types).map(([t, n]) => `${n.toLocaleString('en-US')} ${t}`).join(', ')}) and ${seed.entries.toLocaleString('en-US')} ledger entries (at most ${most} for one customer; balances checked against the sums) in ${round(seed.seconds)} s`);
}

async function main(): Promise<void> {
  console.log(`bench:customers — ${CUSTOMERS.toLocaleString('en-US')} customers, ${LEDGER.toLocaleString('en-US')} ledger entries; ${SAMPLES} samples per measure after ${WARMUP} warm-up requests, one at a time, through app.request()`);
  const keep = process.env.BENCH_DB;
  const work = keep ? undefined : mkdtempSync(join(tmpdir(), 'bench-customers-'));
  if (work) process.on('exit', () => rmSync(work, { recursive: true, force: true }));
  const path = keep ?? join(work!, 'customers.sqlite');
  if (keep && existsSync(keep)) console.log(`BENCH_DB: ${keep}`);
  await prepareDatabase(path);

  const db = await openDatabase(path);
  const statements = { count: 0 };
  const counting: KyselyPlugin = {
    transformQuery: (args) => {
      statements.count++;
      return args.node;
    },
    transformResult: (args) => Promise.resolve(args.result),
  };
  const appDb = db.withPlugin(counting);
  const app = createApp({ db: appDb, registry: loadRegistry(join(ROOT, 'schemas')), auth: AUTH });
  const rows = await db
    .selectFrom('customers as c')
    .select(['c.id', 'c.email', 'c.first_name', 'c.last_name', 'c.type', (eb) => eb.selectFrom('ledger_entries as l').select((e) => e.fn.countAll<number>().as('n')).whereRef('l.shop_id', '=', 'c.shop_id').whereRef('l.customer_id', '=', 'c.id').as('entries')])
    .where('c.shop_id', '=', SHOP)
    .execute();
  const customers = rows.map((r) => ({ id: r.id, email: r.email, firstName: r.first_name, lastName: r.last_name, type: r.type, entries: Number(r.entries) }));
  const ctx: BenchContext = { app, bare: bareApp(db, customers), db, token: await signSessionToken(AUTH, SHOP, '1', 3600), customers, statements, random: prng(20_261_125) };

  const results: Result[] = [];
  // BENCH_ONLY=search,profile runs only those measures (while working on one; a full run measures all).
  const only = process.env.BENCH_ONLY?.split(',').map((m) => m.trim()).filter(Boolean);
  for (const [name, measure] of MEASURES) {
    if (only && !only.includes(name)) continue;
    console.log(`${name}:`);
    results.push(...(await measure(ctx)));
  }
  await db.destroy();
  // The seeded file is memory-mapped (server/db/database.ts mmap_size): its pages read count in RSS.
  console.log(`process RSS now ${round(process.memoryUsage().rss / 2 ** 20, 0)} MB, peak ${round(process.resourceUsage().maxRSS / 1024, 0)} MB`);

  const misses = printResults(`bench:customers — ${CUSTOMERS.toLocaleString('en-US')} customers, ${LEDGER.toLocaleString('en-US')} entries, ${SAMPLES} samples each (ms unless stated)`, results);
  if (misses.length > 0) {
    console.log(`\nMISSED: ${misses.map((m) => `${m.group} · ${m.measure} ${round(m.figure, 1)} ${m.unit}`).join('; ')}`);
    process.exit(1);
  }
  console.log('\nall bench:customers targets met');
}

main().then(
  () => process.exit(0),
  (e: unknown) => {
    console.error(e);
    process.exit(1);
  },
);
