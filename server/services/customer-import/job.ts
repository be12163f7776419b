/**
 * The customer import job (issue 10; spec 002 §2 Migration wizard, §4 "upload, map, tier rule,
 * ready, migrating (background), completed", §5 CSV import, §8 Import messages).
 *
 * An upload is streamed to a file on disk (never whole in memory) while its records are counted;
 * the merchant maps its columns and picks the tier rule; then an ImportRunner reads the file with
 * csv-parse and writes it in batches. Each batch is ONE transaction: the progress cursor
 * (`customer_imports.processed_rows`, moved first and only from the value this runner read, so two
 * runners can never both commit a batch), the customers (one multi-row upsert), one `earn_point`
 * ledger entry per row with points (source `import`, id `<importId>:<row>`, unique per shop), the
 * birthday-change events and the bad rows. A server killed mid-import resumes at start-up from the
 * committed cursor, once the dead runner's claim (`locked_until`) has lapsed.
 */
import { once } from 'node:events';
import { createWriteStream, mkdirSync } from 'node:fs';
import { rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { CsvError } from 'csv-parse';
import { CompiledQuery, type Insertable, type Kysely, type Selectable } from 'kysely';
import type { Db } from '../../db/database';
import type { CustomerImportsTable, CustomersTable, LedgerEntriesTable } from '../../db/tables';
import { ApiError, notFound } from '../../errors';
import type { Logger } from '../../logging';
import { isSqlite } from '../../db/dialect';
import { onLedgerAppend, tierContext } from '../tiers';
import { SweepingRunner } from '../sweeping-runner';
import { csvLine, detectDelimiter, firstRecords, readRecords, RecordCounter, type Delimiter } from './csv';
import { guessMapping, mappingIssues, RowChecker, TIER_RULES, type BadRow, type CheckedRow, type ColumnMapping, type ImportKind, type ImportRow, type TierMatch, type TierRule } from './rules';

/** Spec 002 §5 and §9: a CSV import is at most 25 MB (bytes). */
export const IMPORT_MAX_BYTES = 25 * 1024 * 1024;
/**
 * Rows per transaction: each batch moves the progress cursor in its own transaction, so a killed
 * import resumes exactly there. 5,000 rather than 1,000: every commit writes the index pages the
 * batch touched, and fewer, larger batches write each page fewer times.
 */
export const IMPORT_BATCH_ROWS = 5000;

/**
 * SQLite settings of the import thread's own connection (server/services/customer-import/
 * worker.ts; the benchmark's bare baseline uses the same): no memory map (mapped pages of the
 * indexes an import grows would count in the process's RSS), a 32 MB page cache (the batch's index
 * pages stay in memory until the commit instead of spilling), temporary b-trees in memory.
 */
export const IMPORT_SQLITE_PRAGMAS = ['mmap_size = 0', 'cache_size = -32768', 'temp_store = memory'] as const;

/** Spec 002 §8 Import messages. */
export const IMPORT_MESSAGES = {
  notCsv: 'Your file is not csv',
  tooLarge: 'Your file is over 25MB',
  invalid: 'Your file is invalid',
  failed: 'Fail to import file',
} as const;

/** The statuses of spec 002 §4's flow that live on the server (the "tier rule" and "ready" steps are the wizard's). */
export type ImportStatus = 'uploaded' | 'mapped' | 'migrating' | 'completed' | 'failed';

/** What the database layer of the job needs. */
export interface ImportDeps {
  db: Db;
  now?: () => Date;
  logger?: Logger;
}

const nowOf = (deps: ImportDeps): Date => (deps.now ?? (() => new Date()))();

/**
 * Where uploads are kept: `IMPORT_DIR`, else `imports/` beside the SQLite file (`DATABASE_PATH`,
 * `./data/loyalty.sqlite` by default), else (PostgreSQL, in-memory tests) a folder under the
 * system's temporary folder. Created when missing.
 */
export function importDirectory(env: NodeJS.ProcessEnv = process.env): string {
  const dir = env.IMPORT_DIR
    ? resolve(env.IMPORT_DIR)
    : !env.DATABASE_URL && env.DATABASE_PATH !== ':memory:' && !env.VITEST
      ? join(dirname(resolve(env.DATABASE_PATH || './data/loyalty.sqlite')), 'imports')
      : join(tmpdir(), 'loyalty-imports');
  mkdirSync(dir, { recursive: true });
  return dir;
}

/** An import as the API answers it. Counts are rows; points are whole points. */
export interface ImportView {
  id: string;
  fileName: string;
  kind: ImportKind;
  status: ImportStatus;
  /** Bytes. */
  byteSize: number;
  headers: string[];
  delimiter: Delimiter;
  mapping: ColumnMapping | null;
  tierRule: TierRule | null;
  totalRows: number;
  processedRows: number;
  importedRows: number;
  failedRows: number;
  pointsAwarded: number;
  error: string | null;
  createdAt: string;
  startedAt: string | null;
  finishedAt: string | null;
}

/** The upload's answer: the import plus what the mapping step shows. */
export interface UploadedImport extends ImportView {
  guessedMapping: ColumnMapping;
  /** The first data rows (at most 5), cells as in the file. */
  preview: string[][];
}

/** The API shape of a row. */
export function toImportView(row: Selectable<CustomerImportsTable>): ImportView {
  return {
    id: row.id,
    fileName: row.file_name,
    kind: row.kind as ImportKind,
    status: row.status as ImportStatus,
    byteSize: row.byte_size,
    headers: JSON.parse(row.headers) as string[],
    delimiter: row.delimiter as Delimiter,
    mapping: row.mapping ? (JSON.parse(row.mapping) as ColumnMapping) : null,
    tierRule: row.tier_rule as TierRule | null,
    totalRows: row.total_rows,
    processedRows: row.processed_rows,
    importedRows: row.imported_rows,
    failedRows: row.failed_rows,
    pointsAwarded: row.points_awarded,
    error: row.error,
    createdAt: row.created_at,
    startedAt: row.started_at,
    finishedAt: row.finished_at,
  };
}

/** Header names made unique (a repeated `Note` becomes `Note (2)`) and trimmed, so a mapping names one column. */
function uniqueHeaders(record: readonly string[]): string[] {
  const seen = new Map<string, number>();
  return record.map((raw, i) => {
    const name = raw.trim() || `Column ${i + 1}`;
    const n = (seen.get(name) ?? 0) + 1;
    seen.set(name, n);
    return n === 1 ? name : `${name} (${n})`;
  });
}

/**
 * Stores an upload and answers its headers, the guessed mapping and a preview (spec 002 §2 steps
 * "upload file" and "map data columns"). The body is streamed to disk and counted as it arrives.
 * @throws ApiError 422 `not_csv` "Your file is not csv" for a name not ending in `.csv`; 413
 *   `file_too_large` "Your file is over 25MB"; 422 `invalid_file` "Your file is invalid" for an
 *   empty or binary file, broken CSV or no header, and (birthday and points imports) with the
 *   missing headers as details ("Email header is missing", …)
 */
export async function createImport(
  deps: ImportDeps,
  shopId: string,
  input: { fileName: string; kind: ImportKind; body: AsyncIterable<Uint8Array>; actor: string; directory?: string },
): Promise<UploadedImport> {
  const fileName = input.fileName.trim().slice(0, 255);
  if (!/\.csv$/i.test(fileName)) throw new ApiError(422, 'not_csv', IMPORT_MESSAGES.notCsv, [{ path: '/file', message: IMPORT_MESSAGES.notCsv }]);
  const id = crypto.randomUUID();
  const path = join(input.directory ?? importDirectory(), `${id}.csv`);
  const counter = new RecordCounter();
  let bytes = 0;
  const out = createWriteStream(path);
  const invalid = async (message: string): Promise<never> => {
    await rm(path, { force: true });
    throw new ApiError(422, 'invalid_file', IMPORT_MESSAGES.invalid, [{ path: '/file', message }]);
  };
  try {
    for await (const chunk of input.body) {
      bytes += chunk.length;
      if (bytes > IMPORT_MAX_BYTES) throw new ApiError(413, 'file_too_large', IMPORT_MESSAGES.tooLarge, [{ path: '/file', message: IMPORT_MESSAGES.tooLarge }]);
      counter.push(chunk);
      if (!out.write(chunk)) await once(out, 'drain');
    }
    counter.end();
    out.end();
    await once(out, 'finish');
  } catch (e) {
    out.destroy();
    await rm(path, { force: true });
    throw e;
  }
  if (bytes === 0) return invalid('The file is empty');
  const head = counter.headBuffer();
  if (head.includes(0)) return invalid('The file is not text');
  const delimiter = detectDelimiter(head.toString('utf8'));
  let records: string[][];
  try {
    records = await firstRecords(path, delimiter, 6);
  } catch (e) {
    if (e instanceof CsvError) return invalid(`Row ${(e as CsvError & { lines?: number }).lines ?? '?'}: ${e.message}`);
    throw e;
  }
  const headerRecord = records[0];
  if (!headerRecord || headerRecord.every((h) => h.trim() === '')) return invalid('The file has no header row');
  const headers = uniqueHeaders(headerRecord);
  const guessed = guessMapping(headers);
  if (input.kind !== 'customers') {
    const missing = mappingIssues(headers, guessed, input.kind).filter((i) => i.message.endsWith('header is missing'));
    if (missing.length > 0) {
      await rm(path, { force: true });
      throw new ApiError(422, 'missing_header', IMPORT_MESSAGES.invalid, missing.map((m) => ({ path: '/headers', message: m.message })));
    }
  }
  const row: Insertable<CustomerImportsTable> = {
    id,
    shop_id: shopId,
    file_name: fileName,
    file_path: path,
    byte_size: bytes,
    kind: input.kind,
    delimiter,
    headers: JSON.stringify(headers),
    mapping: null,
    tier_rule: null,
    status: 'uploaded',
    total_rows: Math.max(0, counter.records - 1),
    error: null,
    locked_until: null,
    actor: input.actor,
    created_at: nowOf(deps).toISOString(),
    started_at: null,
    finished_at: null,
  };
  await deps.db.insertInto('customer_imports').values(row).execute();
  const stored = await deps.db.selectFrom('customer_imports').selectAll().where('id', '=', id).executeTakeFirstOrThrow();
  return { ...toImportView(stored), guessedMapping: guessed, preview: records.slice(1) };
}

/** One import of the shop, or a 404. */
export async function findImport(deps: ImportDeps, shopId: string, id: string): Promise<ImportView> {
  const row = await deps.db.selectFrom('customer_imports').selectAll().where('shop_id', '=', shopId).where('id', '=', id).executeTakeFirst();
  if (!row) throw notFound('not_found', 'This import does not exist');
  return toImportView(row);
}

/**
 * An import with the mapping step's data read again from its file (the guessed mapping and the
 * first 5 rows), for a wizard reopened after a reload. Throws 404 for an unknown import.
 */
export async function previewImport(deps: ImportDeps, shopId: string, id: string): Promise<UploadedImport> {
  const view = await findImport(deps, shopId, id);
  const row = await deps.db.selectFrom('customer_imports').select('file_path').where('id', '=', id).executeTakeFirstOrThrow();
  let preview: string[][] = [];
  try {
    preview = (await firstRecords(row.file_path, view.delimiter, 6)).slice(1);
  } catch {
    // the file is gone (another instance's disk) or unreadable: the mapping step shows no samples
  }
  return { ...view, guessedMapping: guessMapping(view.headers), preview };
}

/** The shop's imports, newest first (spec 002 §2 "Plus import history"); at most `limit`. */
export async function listImports(deps: ImportDeps, shopId: string, limit = 50): Promise<ImportView[]> {
  const rows = await deps.db.selectFrom('customer_imports').selectAll().where('shop_id', '=', shopId).orderBy('created_at', 'desc').orderBy('id', 'desc').limit(limit).execute();
  return rows.map(toImportView);
}

/**
 * Saves the mapping and tier rule of an uploaded import and queues it (status `mapped`); the runner
 * takes it up at once.
 * @throws ApiError 404 for an unknown import; 422 `invalid_mapping` "Your file is invalid" with one
 *   issue per problem (no identifier column, a column or field named twice, a missing header);
 *   422 `validation_failed` for an unknown tier rule; 409 `import_started` when it already started
 */
export async function startImport(deps: ImportDeps, shopId: string, id: string, input: { mapping: ColumnMapping; tierRule: TierRule }): Promise<ImportView> {
  const current = await findImport(deps, shopId, id);
  if (!(TIER_RULES as readonly string[]).includes(input.tierRule)) {
    throw new ApiError(422, 'validation_failed', IMPORT_MESSAGES.invalid, [{ path: '/tierRule', message: `Must be one of ${TIER_RULES.join(', ')}` }]);
  }
  const issues = mappingIssues(current.headers, input.mapping, current.kind);
  if (issues.length > 0) throw new ApiError(422, 'invalid_mapping', IMPORT_MESSAGES.invalid, issues);
  const result = await deps.db
    .updateTable('customer_imports')
    .set({ mapping: JSON.stringify(input.mapping), tier_rule: input.tierRule, status: 'mapped' })
    .where('shop_id', '=', shopId)
    .where('id', '=', id)
    .where('status', '=', 'uploaded')
    .executeTakeFirst();
  if (Number(result.numUpdatedRows) !== 1) throw new ApiError(409, 'import_started', 'This import has already started');
  return findImport(deps, shopId, id);
}

/**
 * The bad rows of an import as CSV lines: `Row,Reason` and the file's own columns, in row order,
 * read 1,000 at a time (never the whole list in memory). Cells are escaped against formulas.
 */
export async function* errorCsvLines(deps: ImportDeps, shopId: string, id: string): AsyncGenerator<string> {
  const view = await findImport(deps, shopId, id);
  yield csvLine(['Row', 'Reason', ...view.headers]);
  let after = 0;
  for (;;) {
    const rows = await deps.db
      .selectFrom('customer_import_errors')
      .select(['row_number', 'reason', 'cells'])
      .where('import_id', '=', id)
      .where('shop_id', '=', shopId)
      .where('row_number', '>', after)
      .orderBy('row_number')
      .limit(1000)
      .execute();
    if (rows.length === 0) return;
    yield rows.map((r) => csvLine([r.row_number, r.reason, ...(JSON.parse(r.cells) as string[])])).join('');
    after = rows.at(-1)!.row_number;
  }
}

let lastMs = 0;
let sequence = 0;
/** Random bytes drawn 64 KiB at a time: one getRandomValues call per id cost more than the id's insert. */
const randomPool = new Uint8Array(65_536);
let randomAt = randomPool.length;
const HEX = Array.from({ length: 256 }, (_, b) => b.toString(16).padStart(2, '0'));

/**
 * A UUID version 7 (RFC 9562): milliseconds first, then a counter and random bits, so the ids of
 * one import sort in the order they were made. Ledger rows keyed by them go to the end of the
 * primary-key index instead of random pages of it (a random UUID per row cost a page read each on
 * a large ledger). The random bits come from crypto.getRandomValues, drawn in blocks.
 */
export function orderedId(now = Date.now()): string {
  if (now <= lastMs) sequence++;
  else {
    lastMs = now;
    sequence = 0;
  }
  const ms = Math.max(now, lastMs).toString(16).padStart(12, '0');
  if (randomAt + 8 > randomPool.length) {
    crypto.getRandomValues(randomPool);
    randomAt = 0;
  }
  const r = randomPool;
  const at = randomAt;
  randomAt += 8;
  const seq = (sequence & 0xfff).toString(16).padStart(3, '0');
  const variant = ((r[at]! & 0x3f) | 0x80).toString(16);
  const tail = HEX[r[at + 1]!]! + HEX[r[at + 2]!]! + HEX[r[at + 3]!]! + HEX[r[at + 4]!]! + HEX[r[at + 5]!]! + HEX[r[at + 6]!]! + HEX[r[at + 7]!]!;
  return `${ms.slice(0, 8)}-${ms.slice(8)}-7${seq}-${variant}${tail.slice(0, 2)}-${tail.slice(2, 14)}`;
}

/** Thrown inside a batch when another runner moved the cursor first: this runner stops, the batch rolls back. */
class LostClaim extends Error {}

const ENTRY_METHOD_WORDS: Record<string, string> = { points_earned: 'points earned', amount_spent: 'amount spent', number_of_orders: 'number of orders' };

/**
 * The shop's tiers for the tier column (lower-case name → id, and id → id). A tier entered by
 * another method than the VIP program's (spec 002 §5: "The tier import column must match the tier
 * method") maps to its refusal instead; exclusive (manual-only) tiers have no entry method to match.
 */
async function tierLookup(db: Db, shopId: string): Promise<Map<string, TierMatch>> {
  const ctx = await tierContext(db, shopId);
  const method = ctx.settings.entryMethod;
  const map = new Map<string, TierMatch>();
  for (const t of ctx.tiers) {
    const match: TierMatch = t.exclusive || t.entryMethod === method ? t.id : { refused: `Tier ${t.name} does not match the tier method (${ENTRY_METHOD_WORDS[method] ?? method})` };
    map.set(t.id, match);
    if (t.name.trim()) map.set(t.name.trim().toLowerCase(), match);
  }
  return map;
}

/** What one run of an import ended with. */
export type RunOutcome = 'completed' | 'failed' | 'not_claimed' | 'stopped';

/** Options of the runner. */
export interface ImportRunnerOptions {
  /** Seconds a runner's claim on an import lasts without progress (IMPORT_LOCK_SECONDS, 30). */
  lockSeconds?: number;
  /** Rows per transaction (IMPORT_BATCH_ROWS). */
  batchRows?: number;
  /** Called after each committed batch (the CLI prints progress). */
  onProgress?: (view: ImportView) => void;
}

const CHUNK = 1000;
const chunks = <T>(items: readonly T[], size = CHUNK): T[][] => {
  const out: T[][] = [];
  for (let i = 0; i < items.length; i += size) out.push(items.slice(i, i + size));
  return out;
};

type CustomerRecord = Omit<CustomersTable, 'points_balance' | 'points_earned' | 'type' | 'segment_reverted' | 'rfm_group' | 'left_reason'> & { type: string };

/**
 * Runs imports in the background of a server (or the CLI). `kick()` takes up every import that is
 * queued or whose runner died; `startPolling()` keeps doing so every `lockSeconds`; `whenIdle()`
 * resolves when nothing runs.
 */
export class ImportRunner extends SweepingRunner {
  private readonly running = new Map<string, Promise<RunOutcome>>();
  private readonly lockMs: number;
  private readonly batchRows: number;

  constructor(
    private readonly deps: ImportDeps,
    private readonly options: ImportRunnerOptions = {},
  ) {
    const lockMs = Math.max(1, options.lockSeconds ?? (Number(process.env.IMPORT_LOCK_SECONDS) || 30)) * 1000;
    super(lockMs, 'customer import', () => deps.logger);
    this.lockMs = lockMs;
    this.batchRows = Math.max(1, options.batchRows ?? IMPORT_BATCH_ROWS);
  }

  /** Resolves once no import runs in this process. */
  override async whenIdle(): Promise<void> {
    while (this.sweeping || this.running.size > 0) {
      await this.sweeping;
      await Promise.all(this.running.values());
    }
  }

  /** Takes up queued imports and those whose runner's claim lapsed (at start-up: unfinished ones); `stop()` ends each after the batch in hand, the rest resumes on the next start. */
  protected async takeUpWaiting(): Promise<void> {
    const now = nowOf(this.deps).toISOString();
    const waiting = await this.deps.db
      .selectFrom('customer_imports')
      .select('id')
      .where('status', 'in', ['mapped', 'migrating'])
      .where((eb) => eb.or([eb('locked_until', 'is', null), eb('locked_until', '<', now)]))
      .orderBy('created_at')
      .execute();
    for (const { id } of waiting) if (!this.running.has(id)) void this.run(id);
  }

  /** Runs one import to its end (or until another runner owns it). */
  run(id: string): Promise<RunOutcome> {
    const existing = this.running.get(id);
    if (existing) return existing;
    const job = this.runOnce(id).finally(() => this.running.delete(id));
    this.running.set(id, job);
    return job;
  }

  private lease(): string {
    return new Date(nowOf(this.deps).getTime() + this.lockMs).toISOString();
  }

  private async runOnce(id: string): Promise<RunOutcome> {
    const { db } = this.deps;
    const now = nowOf(this.deps).toISOString();
    const claimed = await db
      .updateTable('customer_imports')
      .set((eb) => ({ status: 'migrating', locked_until: this.lease(), started_at: eb.fn.coalesce('started_at', eb.val(now)) }))
      .where('id', '=', id)
      .where('status', 'in', ['mapped', 'migrating'])
      .where((eb) => eb.or([eb('locked_until', 'is', null), eb('locked_until', '<', now)]))
      .executeTakeFirst();
    if (Number(claimed.numUpdatedRows) !== 1) return 'not_claimed';
    const job = await db.selectFrom('customer_imports').selectAll().where('id', '=', id).executeTakeFirstOrThrow();
    try {
      const outcome = await this.process(job);
      // A finished import needs its file no more (its bad rows are in the database).
      if (outcome === 'completed') await rm(job.file_path, { force: true });
      return outcome;
    } catch (e) {
      if (e instanceof LostClaim) return 'not_claimed';
      if (String((e as { code?: unknown }).code ?? '').startsWith('SQLITE_BUSY')) {
        // Another writer held the database too long: the batch rolled back; the next sweep retries.
        this.deps.logger?.warn({ err: e, importId: id }, 'customer import paused: database busy');
        await db.updateTable('customer_imports').set({ locked_until: null }).where('id', '=', id).execute();
        return 'stopped';
      }
      const invalid = e instanceof CsvError;
      if (!invalid) this.deps.logger?.error({ err: e, importId: id }, 'customer import failed');
      const message = invalid ? `${IMPORT_MESSAGES.invalid}: ${e.message}` : IMPORT_MESSAGES.failed;
      await db.updateTable('customer_imports').set({ status: 'failed', error: message, locked_until: null, finished_at: nowOf(this.deps).toISOString() }).where('id', '=', id).where('status', '=', 'migrating').execute();
      await rm(job.file_path, { force: true });
      return 'failed';
    }
  }

  private async process(job: Selectable<CustomerImportsTable>): Promise<RunOutcome> {
    const headers = JSON.parse(job.headers) as string[];
    const mapping = JSON.parse(job.mapping ?? '{}') as ColumnMapping;
    const readsTier = job.tier_rule === 'from_file' && Object.values(mapping).includes('tier');
    const checker = new RowChecker(headers, mapping, job.kind as ImportKind, readsTier ? await tierLookup(this.deps.db, job.shop_id) : null);
    const tally = { cursor: job.processed_rows, imported: job.imported_rows, failed: job.failed_rows, points: job.points_awarded };
    let dataRows = 0;
    let header = true;
    let batch: CheckedRow[] = [];
    for await (const record of readRecords(job.file_path, job.delimiter as Delimiter)) {
      if (header) {
        header = false;
        continue;
      }
      dataRows++;
      // Rows a committed batch already wrote are still checked: the checker remembers their e-mails.
      const checked = checker.check(record as string[], dataRows + 1);
      if (dataRows <= tally.cursor) continue;
      batch.push(checked);
      if (batch.length >= this.batchRows) {
        await this.commit(job, batch, tally);
        batch = [];
        if (this.stopping) {
          // A graceful stop lets the next start (or another instance) take it up at once.
          await this.deps.db.updateTable('customer_imports').set({ locked_until: null }).where('id', '=', job.id).where('processed_rows', '=', tally.cursor).execute();
          return 'stopped';
        }
        // Let requests in (better-sqlite3 is synchronous).
        await new Promise((r) => setImmediate(r));
      }
    }
    if (batch.length > 0) await this.commit(job, batch, tally);
    await this.deps.db
      .updateTable('customer_imports')
      .set({ status: 'completed', total_rows: tally.cursor, locked_until: null, finished_at: nowOf(this.deps).toISOString() })
      .where('id', '=', job.id)
      .where('status', '=', 'migrating')
      .execute();
    this.options.onProgress?.(toImportView(await this.deps.db.selectFrom('customer_imports').selectAll().where('id', '=', job.id).executeTakeFirstOrThrow()));
    return 'completed';
  }

  /** Writes one batch and moves the cursor, in one transaction. */
  private async commit(job: Selectable<CustomerImportsTable>, batch: CheckedRow[], tally: { cursor: number; imported: number; failed: number; points: number }): Promise<void> {
    const now = nowOf(this.deps).toISOString();
    const good: ImportRow[] = [];
    const bad: BadRow[] = [];
    for (const c of batch) {
      if (c.ok) good.push(c.value);
      else bad.push(c.bad);
    }
    const points = good.reduce((sum, r) => sum + (r.points ?? 0), 0);
    const next = { cursor: tally.cursor + batch.length, imported: tally.imported + good.length, failed: tally.failed + bad.length, points: tally.points + points };
    await this.deps.db.transaction().execute(async (tx) => {
      // The cursor moves first: it takes the write lock before anything is read, and only from the
      // value this runner last committed (a second runner's batch rolls back here).
      const moved = await tx
        .updateTable('customer_imports')
        .set({ processed_rows: next.cursor, imported_rows: next.imported, failed_rows: next.failed, points_awarded: next.points, locked_until: this.lease() })
        .where('id', '=', job.id)
        .where('status', '=', 'migrating')
        .where('processed_rows', '=', tally.cursor)
        .executeTakeFirst();
      if (Number(moved.numUpdatedRows) !== 1) throw new LostClaim();
      await writeRows(tx, job, good, now);
      for (const part of chunks(bad)) {
        await tx
          .insertInto('customer_import_errors')
          .values(part.map((b) => ({ import_id: job.id, row_number: b.row, shop_id: job.shop_id, reason: b.reason, cells: JSON.stringify(b.cells) })))
          .execute();
      }
    });
    Object.assign(tally, next);
    if (this.options.onProgress) this.options.onProgress(toImportView(await this.deps.db.selectFrom('customer_imports').selectAll().where('id', '=', job.id).executeTakeFirstOrThrow()));
  }
}

/** Rows per multi-row INSERT statement (a kept prepared statement per distinct row count). */
const ROWS_PER_STATEMENT = 100;
const statementTexts = new Map<string, string>();

/**
 * Runs `<head> (<row>), (<row>), … <tail>` for `rows`, ROWS_PER_STATEMENT rows a statement, each
 * row's values bound in order: `row` is one row's value list, `?` for each bound value (literals
 * allowed). Raw compiled statements on both databases (`$n` placeholders for PostgreSQL): Kysely's
 * builder spent more time building a multi-row insert than SQLite spent running it.
 */
async function insertRows(tx: Db, head: string, row: string, rows: readonly unknown[][], tail = ''): Promise<void> {
  const sqlite = isSqlite(tx as unknown as Kysely<unknown>);
  for (let i = 0; i < rows.length; i += ROWS_PER_STATEMENT) {
    const part = rows.slice(i, i + ROWS_PER_STATEMENT);
    const key = `${sqlite ? 's' : 'p'}${part.length}\u0000${head}\u0000${row}\u0000${tail}`;
    let text = statementTexts.get(key);
    if (text === undefined) {
      let n = 0;
      text = `${head} ${part.map(() => (sqlite ? `(${row})` : `(${row.replace(/\?/g, () => `$${++n}`)})`)).join(', ')} ${tail}`;
      statementTexts.set(key, text);
    }
    const params: unknown[] = [];
    for (const values of part) for (const v of values) params.push(v);
    await tx.executeQuery(CompiledQuery.raw(text, params));
  }
}

/**
 * Upserts a batch's customers and appends their points, inside the caller's transaction. Customers
 * are found by Customer ID, else by e-mail (exactly as written), else by phone, with one query per
 * identifier for the whole batch; a customer the shop does not have yet gets the Customer ID, or
 * `email:<address>` / `phone:<number>` as id. Only the fields the file has overwrite stored ones.
 *
 * The ledger rows are appended as server/store/ledger.ts `appendEntries` does, in one pass: each
 * customer's stored balance moves by the batch's points in the customer's own upsert (a new customer
 * is written with it; an existing one gets `points_balance + excluded.points_balance`), so no
 * second UPDATE rewrites the row and its points indexes; then the VIP tier hook (`onLedgerAppend`)
 * sees the rows as for any append.
 */
async function writeRows(tx: Db, job: Selectable<CustomerImportsTable>, rows: readonly ImportRow[], now: string): Promise<void> {
  if (rows.length === 0) return;
  const shopId = job.shop_id;
  const ids = [...new Set(rows.flatMap((r) => (r.customerId !== undefined ? [r.customerId] : [])))];
  const emails = [...new Set(rows.flatMap((r) => (r.customerId === undefined && r.email !== undefined ? [r.email] : [])))];
  const phones = [...new Set(rows.flatMap((r) => (r.customerId === undefined && r.email === undefined && r.phone !== undefined ? [r.phone] : [])))];
  const columns = ['id', 'email', 'first_name', 'last_name', 'type', 'tier_id', 'phone', 'birthday', 'created_at', 'updated_at', 'shop_id'] as const;
  const byId = new Map<string, CustomerRecord>();
  const byEmail = new Map<string, CustomerRecord>();
  const byPhone = new Map<string, CustomerRecord>();
  for (const part of chunks(ids)) for (const c of await tx.selectFrom('customers').select(columns).where('shop_id', '=', shopId).where('id', 'in', part).execute()) byId.set(c.id, c);
  for (const part of chunks(emails)) for (const c of await tx.selectFrom('customers').select(columns).where('shop_id', '=', shopId).where('email', 'in', part).orderBy('created_at').execute()) if (!byEmail.has(c.email)) byEmail.set(c.email, c);
  for (const part of chunks(phones)) for (const c of await tx.selectFrom('customers').select(columns).where('shop_id', '=', shopId).where('phone', 'in', part).orderBy('created_at').execute()) if (c.phone !== null && !byPhone.has(c.phone)) byPhone.set(c.phone, c);

  const changed = new Map<string, CustomerRecord>();
  const moved = new Map<string, number>();
  const entries: LedgerEntriesTable[] = [];
  const entryValues: unknown[][] = [];
  const events: unknown[][] = [];
  for (const r of rows) {
    const found = r.customerId !== undefined ? byId.get(r.customerId) : r.email !== undefined ? byEmail.get(r.email) : byPhone.get(r.phone!);
    const id = found?.id ?? r.customerId ?? (r.email !== undefined ? `email:${r.email}` : `phone:${r.phone!}`);
    const base: CustomerRecord = changed.get(id) ?? found ?? { shop_id: shopId, id, email: '', first_name: '', last_name: '', type: 'member', tier_id: null, phone: null, birthday: null, created_at: now, updated_at: now };
    const next: CustomerRecord = { ...base, updated_at: now };
    if (r.email !== undefined) next.email = r.email;
    if (r.firstName !== undefined) next.first_name = r.firstName;
    if (r.lastName !== undefined) next.last_name = r.lastName;
    if (r.phone !== undefined) next.phone = r.phone;
    if (r.type !== undefined) next.type = r.type;
    if (r.tierId !== undefined) next.tier_id = r.tierId;
    if (r.birthday !== undefined && r.birthday !== base.birthday) {
      next.birthday = r.birthday;
      events.push([orderedId(), shopId, id, JSON.stringify({ from: base.birthday, to: r.birthday, importId: job.id, row: r.row }), now]);
    }
    changed.set(id, next);
    if (r.email !== undefined && r.customerId === undefined) byEmail.set(r.email, next);
    if (r.points !== undefined && r.points > 0) {
      const entry: LedgerEntriesTable = {
        id: orderedId(),
        shop_id: shopId,
        customer_id: id,
        type: 'earn_point',
        points: r.points,
        program_id: null,
        program_kind: null,
        program_version: null,
        source_type: 'import',
        source_id: `${job.id}:${r.row}`,
        reverses_id: null,
        explanation: JSON.stringify({ import: { id: job.id, fileName: job.file_name, kind: job.kind, row: r.row }, points: r.points, ...(r.createdAt ? { createDate: r.createdAt } : {}) }),
        created_at: r.createdAt ?? now,
        available_at: null,
      };
      entries.push(entry);
      entryValues.push([entry.id, shopId, id, entry.points, entry.source_id, entry.explanation, entry.created_at]);
      moved.set(id, (moved.get(id) ?? 0) + r.points);
    }
  }
  await insertRows(
    tx,
    'insert into customers (shop_id, id, email, first_name, last_name, type, tier_id, phone, birthday, points_balance, points_earned, created_at, updated_at) values',
    '?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?',
    // Every imported entry is a positive earn_point: it moves the balance and the lifetime points alike (earnedBy).
    [...changed.values()].map((c) => [c.shop_id, c.id, c.email, c.first_name, c.last_name, c.type, c.tier_id, c.phone, c.birthday, moved.get(c.id) ?? 0, moved.get(c.id) ?? 0, c.created_at, c.updated_at]),
    'on conflict (shop_id, id) do update set email = excluded.email, first_name = excluded.first_name, last_name = excluded.last_name, type = excluded.type, tier_id = excluded.tier_id, phone = excluded.phone, birthday = excluded.birthday, points_balance = customers.points_balance + excluded.points_balance, points_earned = customers.points_earned + excluded.points_earned, updated_at = excluded.updated_at',
  );
  await insertRows(tx, 'insert into ledger_entries (id, shop_id, customer_id, type, points, source_type, source_id, explanation, created_at) values', "?, ?, ?, 'earn_point', ?, 'import', ?, ?, ?", entryValues);
  await onLedgerAppend(tx, entries);
  await insertRows(tx, 'insert into customer_events (id, shop_id, customer_id, kind, detail, actor, created_at) values', "?, ?, ?, 'birthday_changed', ?, 'import', ?", events);
}

const runners = new WeakMap<Db, ImportRunner>();
const kickers = new WeakMap<Db, () => void>();

/** Routes imports queued on `db` to another runner (main.ts: the import thread) instead of one in this thread. */
export function setImportKicker(db: Db, kick: () => void): void {
  kickers.set(db, kick);
}

/** Tells whoever runs this database's imports that one is queued: the import thread, or a runner here. */
export function kickImports(deps: ImportDeps): void {
  const kick = kickers.get(deps.db);
  if (kick) kick();
  else importRunnerFor(deps).kick();
}

/** The one runner of a database connection in this thread (tests and the CLI; the server uses its import thread). */
export function importRunnerFor(deps: ImportDeps): ImportRunner {
  let runner = runners.get(deps.db);
  if (!runner) {
    runner = new ImportRunner(deps);
    runners.set(deps.db, runner);
  }
  return runner;
}
