/**
 * Customer import speed (issue 10): generates a 350,000-row CSV of about 24 MB in the app's
 * template layout (Customer ID, Email, Phone with the platform's leading apostrophe, names, points,
 * birthday), imports it into a fresh SQLite database as the server does (upload with the record
 * count on the serving thread, then the batches on the import thread), and in the same run a bare baseline:
 * csv-parse and plain prepared inserts of the same customers and ledger rows, no checks; and the
 * storage engine's floor (engineFloor: the same rows inserted inside SQLite, no JavaScript, one
 * transaction), which says how far any import into this schema could go on this machine.
 * Targets: ≥ 50,000 rows/s end to end (upload included) and peak RSS ≤ 250 MB.
 *
 * The work runs in a child process of its own, so its peak RSS (the kernel's maxRSS of that
 * process) is the import's and not the caller's (bench:customers has read a 1 GB database by then).
 * The child runs as the built server does (`npm run build:server`): this file and the import
 * thread's entry bundled by esbuild with `__BUNDLED__`, loaded by plain node, no TypeScript compiler
 * in the process (tsx's loader and its hooks thread, in the child and in the import thread, took
 * about 120 MB of the RSS, which a server never has).
 * `npm run bench:customers` reports it as its `import` measure; `npx tsx scripts/bench/import.ts`
 * runs it alone and exits 1 when a target is missed. `BENCH_IMPORT_ROWS` (350000) sizes it.
 */
import { createReadStream, createWriteStream, mkdtempSync, readFileSync, rmSync, statSync } from 'node:fs';
import { once } from 'node:events';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { spawn } from 'node:child_process';
import { pathToFileURL } from 'node:url';
import SQLite from 'better-sqlite3';
import { parse } from 'csv-parse';
import { openDatabase } from '../../server/db/database';
import { ensureShop } from '../../server/store/shops';
import { createLogger } from '../../server/logging';
import { SAFETY_NET_PAGES } from '../../server/db/checkpointer';
import { createImport, IMPORT_BATCH_ROWS, IMPORT_SQLITE_PRAGMAS, orderedId, startImport } from '../../server/services/customer-import/job';
import { ImportThread } from '../../server/services/customer-import/thread';

const SHOP = 'bench-shop.myshopify.com';

/** Writes the benchmark file; answers its path and size in bytes. */
async function generate(dir: string, rows: number): Promise<{ path: string; bytes: number }> {
  const path = join(dir, 'customers.csv');
  const out = createWriteStream(path);
  out.write('Customer ID,Email,Phone,First Name,Last Name,Points,Birthday,Tier\n');
  let buffer = '';
  for (let i = 0; i < rows; i++) {
    const month = String((i % 12) + 1).padStart(2, '0');
    const day = String((i % 28) + 1).padStart(2, '0');
    buffer += `${7_400_000_000_000 + i},c${i}@ex.com,'+1555${String(i).padStart(7, '0')},Ada,L${i},${i % 5000},${month}/${day},\n`;
    if (buffer.length > 1 << 16) {
      if (!out.write(buffer)) await once(out, 'drain');
      buffer = '';
    }
  }
  out.end(buffer);
  await once(out, 'finish');
  return { path, bytes: statSync(path).size };
}

/**
 * The import as the server runs it: the upload (stream to disk, count) and the mapping on the
 * serving thread's connection, the batches on the import thread (server/services/customer-import/
 * thread.ts) with its own connection; done when the import's status says so. Answers seconds.
 */
async function serviceImport(dir: string, file: string): Promise<{ seconds: number; imported: number; failed: number }> {
  const location = join(dir, 'service.sqlite');
  const db = await openDatabase(location);
  await ensureShop(db, SHOP, new Date().toISOString());
  const thread = new ImportThread({ databaseLocation: location, sqliteSynchronous: 'normal', lockSeconds: 30, logLevel: 'warn' }, createLogger('silent'));
  await thread.start();
  const started = performance.now();
  const uploaded = await createImport({ db }, SHOP, { fileName: 'customers.csv', kind: 'customers', body: createReadStream(file), actor: 'bench', directory: dir });
  await startImport({ db }, SHOP, uploaded.id, { mapping: uploaded.guessedMapping, tierRule: 'ignore' });
  thread.kick();
  let done = await db.selectFrom('customer_imports').selectAll().where('id', '=', uploaded.id).executeTakeFirstOrThrow();
  while (done.status !== 'completed' && done.status !== 'failed') {
    await new Promise((r) => setTimeout(r, 20));
    done = await db.selectFrom('customer_imports').selectAll().where('id', '=', uploaded.id).executeTakeFirstOrThrow();
  }
  const seconds = (performance.now() - started) / 1000;
  await thread.stop();
  await db.destroy();
  if (done.status !== 'completed') throw new Error(`import ended ${done.status}: ${done.error ?? ''}`);
  return { seconds, imported: done.imported_rows, failed: done.failed_rows };
}

/**
 * A fresh database at `location`, made by the app's migrations, with the benchmark's shop, opened
 * as the import thread's connection is (WAL, synchronous NORMAL, the same checkpoint threshold and
 * IMPORT_SQLITE_PRAGMAS): the bare baseline's and the engine floor's.
 */
async function importConnection(location: string): Promise<SQLite.Database> {
  await (await openDatabase(location, { checkpointer: false })).destroy();
  const sqlite = new SQLite(location);
  sqlite.pragma('journal_mode = WAL');
  sqlite.pragma('synchronous = NORMAL');
  sqlite.pragma(`wal_autocheckpoint = ${SAFETY_NET_PAGES}`);
  for (const pragma of IMPORT_SQLITE_PRAGMAS) sqlite.pragma(pragma);
  sqlite.prepare("insert into shops (id, name, email, plan, currency, iana_timezone, settings, created_at, updated_at) values (?, 'b', 'b', 'free', 'USD', 'UTC', '{}', '', '')").run(SHOP);
  return sqlite;
}

/**
 * The bare baseline: csv-parse and prepared inserts (customers + one ledger row each, the same
 * time-ordered ids), IMPORT_BATCH_ROWS rows per transaction, on a connection set up as the import
 * thread's (WAL, synchronous NORMAL, the same checkpoint threshold and IMPORT_SQLITE_PRAGMAS).
 */
async function baseline(dir: string, file: string): Promise<number> {
  const sqlite = await importConnection(join(dir, 'baseline.sqlite'));
  const insertCustomer = sqlite.prepare('insert into customers (shop_id, id, email, first_name, last_name, phone, birthday, points_balance, created_at, updated_at) values (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)');
  const insertEntry = sqlite.prepare("insert into ledger_entries (id, shop_id, customer_id, type, points, source_type, source_id, explanation, created_at) values (?, ?, ?, 'earn_point', ?, 'import', ?, '{}', ?)");
  const now = new Date().toISOString();
  const write = sqlite.transaction((rows: string[][]) => {
    for (const r of rows) {
      insertCustomer.run(SHOP, r[0], r[1], r[3], r[4], r[2], r[6], Number(r[5]), now, now);
      insertEntry.run(orderedId(), SHOP, r[0], Number(r[5]), `b:${r[0]}`, now);
    }
  });
  const started = performance.now();
  const parser = createReadStream(file).pipe(parse({ bom: true, relax_column_count: true, from_line: 2 }));
  let batch: string[][] = [];
  for await (const record of parser) {
    batch.push(record as string[]);
    if (batch.length >= IMPORT_BATCH_ROWS) {
      write(batch);
      batch = [];
    }
  }
  write(batch);
  const seconds = (performance.now() - started) / 1000;
  sqlite.close();
  return seconds;
}

/**
 * The storage engine's floor for this schema: the same customers (same ids, e-mails, phones, names,
 * points and birthdays as generate() writes) and their ledger rows inserted by two
 * `INSERT … SELECT` statements over a recursive CTE, inside SQLite, in ONE transaction, on a fresh
 * database made by the app's migrations with the import connection's settings: no JavaScript per
 * row, no parse, no checks, no lookups, no events, one commit. Nothing can import these rows into
 * this schema faster on this machine; answers rows per second.
 */
async function engineFloor(dir: string, rows: number): Promise<number> {
  const sqlite = await importConnection(join(dir, 'floor.sqlite'));
  const now = new Date().toISOString();
  const series = 'with recursive s(i) as (select 0 union all select i + 1 from s where i < ?)';
  const customers = sqlite.prepare(
    `${series} insert into customers (shop_id, id, email, first_name, last_name, phone, birthday, points_balance, created_at, updated_at)
     select ?, cast(7400000000000 + i as text), 'c' || i || '@ex.com', 'Ada', 'L' || i, '+1555' || printf('%07d', i), printf('%02d/%02d', (i % 12) + 1, (i % 28) + 1), i % 5000, ?, ? from s`,
  );
  const entries = sqlite.prepare(
    `${series} insert into ledger_entries (id, shop_id, customer_id, type, points, source_type, source_id, explanation, created_at)
     select printf('%020d', i), ?, cast(7400000000000 + i as text), 'earn_point', i % 5000, 'import', 'f:' || i, '{}', ? from s`,
  );
  const started = performance.now();
  sqlite.transaction(() => {
    customers.run(rows - 1, SHOP, now, now);
    entries.run(rows - 1, SHOP, now);
  })();
  const seconds = (performance.now() - started) / 1000;
  sqlite.close();
  return Math.round(rows / seconds);
}

/** The figures of one run. Rows per second are data rows; peak RSS is the child process's, in MB. */
export interface ImportFigures {
  rowsPerSecond: number;
  baselineRowsPerSecond: number;
  /** engineFloor(): the same rows inserted inside SQLite by INSERT … SELECT in one transaction, no JavaScript. */
  floorRowsPerSecond: number;
  peakRssMb: number;
  /** Peak of the anonymous part (sampled every 50 ms): the RSS less the database file's mapped pages. */
  peakAnonRssMb: number;
  /** CPU seconds (user + system, every thread of the process) of the import, upload to completed, and of the baseline: on a shared machine they move less than the wall clock. */
  cpuSeconds: number;
  baselineCpuSeconds: number;
  rows: number;
  megabytes: number;
}

/**
 * The process's anonymous resident memory (heap, SQLite's page cache) in MB, without the pages of
 * files mapped into it (the database's memory map, server/db/database.ts `mmap_size`); 0 where
 * /proc is missing.
 */
function anonRssMb(): number {
  return rssPartsMb().anon;
}

/** The resident memory's parts in MB (/proc/self/status RssAnon, RssFile, RssShmem); zeros where /proc is missing. */
function rssPartsMb(): { anon: number; file: number; shmem: number } {
  try {
    const status = readFileSync('/proc/self/status', 'utf8');
    const kb = (name: string) => Number(new RegExp(`${name}:\\s+(\\d+) kB`).exec(status)?.[1] ?? 0) / 1024;
    return { anon: kb('RssAnon'), file: kb('RssFile'), shmem: kb('RssShmem') };
  } catch {
    return { anon: 0, file: 0, shmem: 0 };
  }
}

/**
 * The process's peak RSS in MB: /proc/self/status VmHWM, the high-water mark of this process's own
 * memory since its exec. Not getrusage's maxRSS: Linux carries the parent's RSS at the fork into the
 * child's maxRSS across exec, so a child of bench:customers (which has mapped much of a 1.1 GB
 * database by then) reported the parent's 281 MB. Falls back to maxRSS where /proc is missing.
 */
function peakRssOfThisProcessMb(): number {
  try {
    const m = /VmHWM:\s+(\d+) kB/.exec(readFileSync('/proc/self/status', 'utf8'));
    if (m) return Number(m[1]) / 1024;
  } catch {
    // no /proc: below
  }
  return process.resourceUsage().maxRSS / 1024;
}

/** The child's work: generate, import through the service (peak RSS read right after), then the baseline. */
async function runChild(rows: number): Promise<ImportFigures> {
  const dir = mkdtempSync(join(tmpdir(), 'bench-import-'));
  try {
    const { path, bytes } = await generate(dir, rows);
    let anonPeak = anonRssMb();
    const partsPeak = { anon: 0, file: 0, shmem: 0 };
    const sampler = setInterval(() => {
      const parts = rssPartsMb();
      anonPeak = Math.max(anonPeak, parts.anon);
      for (const k of ['anon', 'file', 'shmem'] as const) partsPeak[k] = Math.max(partsPeak[k], parts[k]);
    }, 50);
    const cpu = process.cpuUsage();
    const result = await serviceImport(dir, path);
    const importCpu = process.cpuUsage(cpu);
    clearInterval(sampler);
    const peakRssMb = peakRssOfThisProcessMb();
    if (process.env.BENCH_IMPORT_MEMORY) console.error(`sampled peaks (MB): anon ${Math.round(partsPeak.anon)}, file ${Math.round(partsPeak.file)}, shmem ${Math.round(partsPeak.shmem)}; maxRSS ${Math.round(peakRssMb)}`);
    if (result.imported !== rows || result.failed !== 0) throw new Error(`imported ${result.imported}, failed ${result.failed} of ${rows}`);
    const baselineCpu = process.cpuUsage();
    const baselineSeconds = await baseline(dir, path);
    const bareCpu = process.cpuUsage(baselineCpu);
    const floorRowsPerSecond = await engineFloor(dir, rows);
    const cpuSeconds = (u: NodeJS.CpuUsage) => Math.round((u.user + u.system) / 1e5) / 10;
    return {
      cpuSeconds: cpuSeconds(importCpu),
      baselineCpuSeconds: cpuSeconds(bareCpu), rowsPerSecond: Math.round(rows / result.seconds), baselineRowsPerSecond: Math.round(rows / baselineSeconds), floorRowsPerSecond, peakRssMb: Math.round(peakRssMb), peakAnonRssMb: Math.round(anonPeak), rows, megabytes: Math.round((bytes / 1024 / 1024) * 10) / 10 };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/**
 * Bundles this file and the import thread's entry beside each other (as scripts/build-server.ts
 * does for the server) under node_modules/.cache, where the external packages still resolve;
 * answers the bundle of this file.
 */
async function bundleChild(): Promise<string> {
  const { build } = await import('esbuild');
  const root = join(import.meta.dirname, '..', '..');
  const outdir = join(root, 'node_modules', '.cache', 'bench-customers-import');
  await build({
    entryPoints: { 'bench-import': import.meta.filename, 'import-worker': join(root, 'server', 'services', 'customer-import', 'worker.ts') },
    outdir,
    outExtension: { '.js': '.mjs' },
    define: { __BUNDLED__: 'true' },
    bundle: true,
    platform: 'node',
    format: 'esm',
    target: 'node20',
    external: ['better-sqlite3', 'pg', 'pino', 'esbuild', 'vite'],
    banner: { js: "import { createRequire as __createRequire } from 'node:module'; const require = __createRequire(import.meta.url);" },
    logLevel: 'warning',
  });
  return join(outdir, 'bench-import.mjs');
}

/**
 * Runs the import benchmark in a child process (the bundle, see bundleChild) and answers its figures.
 * @throws when the bundle does not build or the child fails (its stderr is in the message)
 */
export async function benchImport(rows = Number(process.env.BENCH_IMPORT_ROWS ?? 350_000)): Promise<ImportFigures> {
  const child = spawn(process.execPath, [await bundleChild(), '--child', String(rows)], { stdio: ['ignore', 'pipe', 'pipe'] });
  let out = '';
  let err = '';
  child.stdout.on('data', (d: Buffer) => (out += d.toString()));
  child.stderr.on('data', (d: Buffer) => (err += d.toString()));
  const [code] = (await once(child, 'exit')) as [number | null];
  const line = out.trim().split('\n').pop() ?? '';
  if (code !== 0 || !line.startsWith('{')) throw new Error(`bench import child exited ${code}: ${err.trim() || out.trim()}`);
  return JSON.parse(line) as ImportFigures;
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  if (process.argv[2] === '--child') {
    console.log(JSON.stringify(await runChild(Number(process.argv[3]))));
  } else {
    const f = await benchImport();
    console.log(`import of ${f.rows.toLocaleString('en-US')} rows (${f.megabytes} MB): ${f.rowsPerSecond.toLocaleString('en-US')} rows/s (bare parse-and-insert ${f.baselineRowsPerSecond.toLocaleString('en-US')} rows/s; SQLite's own floor for these rows ${f.floorRowsPerSecond.toLocaleString('en-US')} rows/s), peak RSS ${f.peakRssMb} MB (${f.peakAnonRssMb} MB without the database's memory-mapped pages); CPU ${f.cpuSeconds} s (bare ${f.baselineCpuSeconds} s)`);
    const missed = [f.rowsPerSecond < 50_000 ? 'below 50,000 rows/s' : null, f.peakRssMb > 250 ? 'peak RSS above 250 MB' : null].filter(Boolean);
    if (missed.length > 0) {
      console.log(`target missed: ${missed.join(', ')}`);
      process.exitCode = 1;
    }
  }
}
