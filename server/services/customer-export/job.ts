/**
 * Customer exports e-mailed as CSV (spec 002 §2 Customers "Export", "Exports are emailed as CSV";
 * §8 "Failed to export customers"; COVERAGE CU9).
 *
 * `createExport` records a job (status `queued`) for the list's tab, search or selection and the
 * recipient, and answers at once; an ExportRunner then writes the CSV to a file with the streamed
 * download's own writer (../customer-import/export.ts `customerCsvChunks`: same columns, same
 * formula escaping) and sends it through the e-mail adapter (server/email/adapter.ts): attached
 * when it is at most EXPORT_ATTACHMENT_MAX_BYTES, else as a signed download link that works for
 * EXPORT_LINK_TTL_SECONDS (./link.ts). The job ends `sent`, or `failed` with the reason; a failed
 * job keeps its file and can be retried.
 *
 * Restarts: a runner claims a job by moving `attempts` and `locked_until` (a lease renewed as it
 * goes), and every later write of the job is conditional on that attempt, so a runner that lost its
 * claim changes nothing. A server killed mid-job leaves the claim to lapse; the next start's runner
 * takes the job up again, reuses the file when it was written completely (its size is recorded)
 * and otherwise writes it again. The e-mail's Message-ID is fixed when the job is created: if the
 * server died after the message left but before `sent` was recorded, the resent message is the
 * same message (the local outbox keeps one; mail clients show one).
 */
import { once } from 'node:events';
import { createWriteStream, mkdirSync } from 'node:fs';
import { readFile, rm, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import type { Selectable } from 'kysely';
import type { Db } from '../../db/database';
import type { CustomerExportsTable } from '../../db/tables';
import { emailOf, type EmailAdapter } from '../../email/adapter';
import { ApiError, notFound } from '../../errors';
import type { Logger } from '../../logging';
import { customerCsvChunks, type ExportQuery } from '../customer-import/export';
import { shopSettings } from '../../store/shops';
import { SweepingRunner } from '../sweeping-runner';
import { checkExportLink, EXPORT_LINK_TTL_SECONDS, signedExportLink } from './link';
import { exportMail, mailLanguage } from './messages';

/** A CSV of at most 10 MB (bytes) is attached; a larger one is sent as a download link (most mail servers refuse messages over 10–25 MB once encoded). */
export const EXPORT_ATTACHMENT_MAX_BYTES = 10 * 1024 * 1024;
/** Exports a shop may have queued or running at once; one more is a 409. */
export const EXPORT_MAX_ACTIVE = 3;
/** Seconds a runner's claim lasts without progress (EXPORT_LOCK_SECONDS): a killed server's job is taken up again after it. */
export const EXPORT_LOCK_SECONDS = 120;

/** Spec 002 §8 Customers message, and the recipient's. */
export const EXPORT_MESSAGES = {
  failed: 'Failed to export customers',
  recipient: 'Enter a valid e-mail address',
} as const;

/** The job's statuses. */
export type ExportStatus = 'queued' | 'running' | 'sent' | 'failed';

/** What the export job needs of the app's deps. */
export interface ExportDeps {
  db: Db;
  /** The app's secret signs download links. */
  auth: { apiSecret: string };
  /** The e-mail adapter; the local outbox of `db` when absent. */
  email?: EmailAdapter;
  now?: () => Date;
  logger?: Logger;
}

const nowOf = (deps: { now?: () => Date }): Date => (deps.now ?? (() => new Date()))();

/**
 * Where export files are written: `EXPORT_DIR`, else `exports/` beside the SQLite file, else (PostgreSQL, tests) a
 * folder under the system's temporary folder. Created when missing.
 */
export function exportDirectory(env: NodeJS.ProcessEnv = process.env): string {
  const dir = env.EXPORT_DIR
    ? resolve(env.EXPORT_DIR)
    : !env.DATABASE_URL && env.DATABASE_PATH !== ':memory:' && !env.VITEST
      ? join(dirname(resolve(env.DATABASE_PATH || './data/loyalty.sqlite')), 'exports')
      : join(tmpdir(), 'loyalty-exports');
  mkdirSync(dir, { recursive: true });
  return dir;
}

/** An export as the API answers it. Sizes in bytes, counts in customers, times ISO. */
export interface ExportView {
  id: string;
  recipient: string;
  query: ExportQuery;
  status: ExportStatus;
  /** Why it failed (the adapter's or the writer's reason), or null. */
  error: string | null;
  rowCount: number | null;
  byteSize: number | null;
  /** How it was sent: the file attached, or a download link. */
  delivery: 'attachment' | 'link' | null;
  linkExpiresAt: string | null;
  attempts: number;
  createdAt: string;
  startedAt: string | null;
  finishedAt: string | null;
}

/** The API shape of a row. */
export function toExportView(row: Selectable<CustomerExportsTable>): ExportView {
  return {
    id: row.id,
    recipient: row.recipient,
    query: JSON.parse(row.query) as ExportQuery,
    status: row.status as ExportStatus,
    error: row.error,
    rowCount: row.row_count,
    byteSize: row.byte_size,
    delivery: row.delivery as ExportView['delivery'],
    linkExpiresAt: row.link_expires_at,
    attempts: row.attempts,
    createdAt: row.created_at,
    startedAt: row.started_at,
    finishedAt: row.finished_at,
  };
}

/**
 * The recipient, trimmed, when it is one plausible e-mail address: at most 254 characters, one `@`
 * with at most 64 characters before it, a domain with a dot inside, no spaces or angle brackets
 * (no regular expression, so nothing to backtrack).
 * @throws ApiError 422 `validation_failed` "Failed to export customers" with `{ path, message: "Enter a valid e-mail address" }`
 */
export function checkRecipient(value: unknown, path = '/recipient'): string {
  const text = typeof value === 'string' ? value.trim() : '';
  const at = text.indexOf('@');
  const domain = text.slice(at + 1);
  const ok =
    text.length > 0 &&
    text.length <= 254 &&
    at > 0 &&
    at <= 64 &&
    at === text.lastIndexOf('@') &&
    domain.includes('.') &&
    !domain.startsWith('.') &&
    !domain.endsWith('.') &&
    !domain.includes('..') &&
    ![...text].some((ch) => ch <= ' ' || ch === '<' || ch === '>' || ch === ',' || ch === ';' || ch === '"' || ch === '\u007f');
  if (!ok) throw new ApiError(422, 'validation_failed', EXPORT_MESSAGES.failed, [{ path, message: EXPORT_MESSAGES.recipient }]);
  return text;
}

/**
 * Records an export job (status `queued`) and answers it; the caller kicks the runner.
 * @param input.origin the app's public origin (the base of a download link)
 * @throws ApiError 409 `export_in_progress` when the shop already has EXPORT_MAX_ACTIVE exports queued or running
 */
export async function createExport(deps: ExportDeps, shopId: string, input: { recipient: string; query: ExportQuery; actor: string; origin: string }): Promise<ExportView> {
  const active = await deps.db.selectFrom('customer_exports').select((eb) => eb.fn.countAll<string | number>().as('n')).where('shop_id', '=', shopId).where('status', 'in', ['queued', 'running']).executeTakeFirstOrThrow();
  if (Number(active.n) >= EXPORT_MAX_ACTIVE) throw new ApiError(409, 'export_in_progress', `${EXPORT_MESSAGES.failed}: ${EXPORT_MAX_ACTIVE} exports are still being prepared. Please try again when one has been sent.`);
  const id = crypto.randomUUID();
  await deps.db
    .insertInto('customer_exports')
    .values({
      id,
      shop_id: shopId,
      recipient: input.recipient,
      query: JSON.stringify(input.query),
      app_origin: input.origin,
      status: 'queued',
      error: null,
      file_path: null,
      row_count: null,
      byte_size: null,
      delivery: null,
      link_expires_at: null,
      message_id: `<customer-export.${id}@loyalty.local>`,
      locked_until: null,
      actor: input.actor,
      created_at: nowOf(deps).toISOString(),
      started_at: null,
      finished_at: null,
    })
    .execute();
  return findExport(deps, shopId, id);
}

/** One export of the shop, or a 404. */
export async function findExport(deps: ExportDeps, shopId: string, id: string): Promise<ExportView> {
  const row = await deps.db.selectFrom('customer_exports').selectAll().where('shop_id', '=', shopId).where('id', '=', id).executeTakeFirst();
  if (!row) throw notFound('not_found', 'This export does not exist');
  return toExportView(row);
}

/** The shop's exports, newest first, at most `limit`. */
export async function listExports(deps: ExportDeps, shopId: string, limit = 20): Promise<ExportView[]> {
  const rows = await deps.db.selectFrom('customer_exports').selectAll().where('shop_id', '=', shopId).orderBy('created_at', 'desc').orderBy('id', 'desc').limit(limit).execute();
  return rows.map(toExportView);
}

/**
 * Queues a failed export again (same recipient, filters and Message-ID; a completely written file
 * is sent as it is).
 * @throws ApiError 404 for an unknown export; 409 `export_not_failed` unless it failed
 */
export async function retryExport(deps: ExportDeps, shopId: string, id: string): Promise<ExportView> {
  await findExport(deps, shopId, id);
  const result = await deps.db.updateTable('customer_exports').set({ status: 'queued', error: null, finished_at: null }).where('shop_id', '=', shopId).where('id', '=', id).where('status', '=', 'failed').executeTakeFirst();
  if (Number(result.numUpdatedRows) !== 1) throw new ApiError(409, 'export_not_failed', 'Only a failed export can be retried');
  return findExport(deps, shopId, id);
}

/**
 * The file behind a download link, when the link is signed for this export, has not expired and
 * the file is still kept.
 * @throws ApiError 403 `invalid_link` for a wrong signature; 410 `link_expired` past its expiry or when the file is gone
 */
export async function exportDownload(deps: ExportDeps, id: string, expires: string | undefined, signature: string | undefined): Promise<{ path: string; fileName: string }> {
  const verdict = checkExportLink(deps.auth.apiSecret, id, expires, signature, nowOf(deps));
  if (verdict === 'invalid') throw new ApiError(403, 'invalid_link', 'This download link is not valid');
  const gone = new ApiError(410, 'link_expired', 'This download link has expired. Please export the customers again.');
  if (verdict === 'expired') throw gone;
  const row = await deps.db.selectFrom('customer_exports').selectAll().where('id', '=', id).executeTakeFirst();
  if (!row?.file_path || row.status !== 'sent' || row.delivery !== 'link') throw gone;
  try {
    await stat(row.file_path);
  } catch {
    throw gone;
  }
  return { path: row.file_path, fileName: exportFileName(toExportView(row)) };
}

/** The CSV's file name: `customers-<tab>-<day of the export>.csv`. */
export const exportFileName = (view: ExportView): string => `customers-${view.query.tab}${view.query.ids ? '-selected' : ''}-${view.createdAt.slice(0, 10)}.csv`;

/** Thrown when another runner claimed the job after this one: this one stops and writes nothing more. */
class LostClaim extends Error {}

/** What one run of a job ended with. */
export type ExportOutcome = 'sent' | 'failed' | 'not_claimed';

/**
 * Runs export jobs in the background of a server (or of a test). `kick()` takes up, one after the
 * other, every job that is queued or whose runner died, and removes files no longer needed;
 * `startPolling()` keeps doing so every lockSeconds; `whenIdle()` resolves when nothing runs.
 */
export class ExportRunner extends SweepingRunner {
  private readonly lockMs: number;
  private readonly directory: string;
  private readonly attachmentMaxBytes: number;

  /**
   * @param options.lockSeconds how long a claim lasts without progress (EXPORT_LOCK_SECONDS)
   * @param options.directory where files are written (exportDirectory())
   * @param options.attachmentMaxBytes the largest file attached (EXPORT_ATTACHMENT_MAX_BYTES; tests lower it)
   */
  constructor(
    private readonly deps: ExportDeps,
    options: { lockSeconds?: number; directory?: string; attachmentMaxBytes?: number } = {},
  ) {
    const lockMs = (options.lockSeconds ?? EXPORT_LOCK_SECONDS) * 1000;
    super(lockMs, 'customer export', () => deps.logger);
    this.lockMs = lockMs;
    this.directory = options.directory ?? exportDirectory();
    this.attachmentMaxBytes = options.attachmentMaxBytes ?? EXPORT_ATTACHMENT_MAX_BYTES;
  }

  private lease(): string {
    return new Date(nowOf(this.deps).getTime() + this.lockMs).toISOString();
  }

  protected async takeUpWaiting(): Promise<void> {
    const now = nowOf(this.deps).toISOString();
    const waiting = await this.deps.db
      .selectFrom('customer_exports')
      .select('id')
      .where('status', 'in', ['queued', 'running'])
      .where((eb) => eb.or([eb('locked_until', 'is', null), eb('locked_until', '<', now)]))
      .orderBy('created_at')
      .execute();
    for (const { id } of waiting) {
      if (this.stopping) return;
      await this.run(id);
    }
    await this.removeStaleFiles();
  }

  /** Runs one job to its end, unless another runner holds it. */
  async run(id: string): Promise<ExportOutcome> {
    const { db } = this.deps;
    const now = nowOf(this.deps).toISOString();
    const claimed = await db
      .updateTable('customer_exports')
      .set((eb) => ({ status: 'running', locked_until: this.lease(), attempts: eb('attempts', '+', 1), started_at: eb.fn.coalesce('started_at', eb.val(now)) }))
      .where('id', '=', id)
      .where('status', 'in', ['queued', 'running'])
      .where((eb) => eb.or([eb('locked_until', 'is', null), eb('locked_until', '<', now)]))
      .executeTakeFirst();
    if (Number(claimed.numUpdatedRows) !== 1) return 'not_claimed';
    const job = await db.selectFrom('customer_exports').selectAll().where('id', '=', id).executeTakeFirstOrThrow();
    try {
      const file = await this.writeFile(job);
      await this.send(job, file);
      return 'sent';
    } catch (e) {
      if (e instanceof LostClaim) return 'not_claimed';
      const reason = (e instanceof Error && e.message ? e.message : String(e)).slice(0, 500);
      this.deps.logger?.warn({ err: e, exportId: id }, 'customer export failed');
      // The file (when written) stays: a retry sends it as it is.
      await db.updateTable('customer_exports').set({ status: 'failed', error: reason, locked_until: null, finished_at: nowOf(this.deps).toISOString() }).where('id', '=', id).where('status', '=', 'running').where('attempts', '=', job.attempts).execute();
      return 'failed';
    }
  }

  /** Moves the lease and writes `changes`, only while this runner's claim (its attempt) holds. */
  private async update(job: Selectable<CustomerExportsTable>, changes: Partial<Omit<Selectable<CustomerExportsTable>, 'id' | 'attempts'>>): Promise<void> {
    const result = await this.deps.db
      .updateTable('customer_exports')
      .set({ locked_until: this.lease(), ...changes })
      .where('id', '=', job.id)
      .where('status', '=', 'running')
      .where('attempts', '=', job.attempts)
      .executeTakeFirst();
    if (Number(result.numUpdatedRows) !== 1) throw new LostClaim();
  }

  /** The job's CSV on disk: the one an earlier run wrote completely, else written now. */
  private async writeFile(job: Selectable<CustomerExportsTable>): Promise<{ path: string; bytes: number; rows: number }> {
    if (job.file_path && job.byte_size !== null && job.row_count !== null) {
      const size = await stat(job.file_path).then((s) => s.size).catch(() => -1);
      if (size === job.byte_size) return { path: job.file_path, bytes: size, rows: job.row_count };
    }
    const path = join(this.directory, `${job.id}.csv`);
    const query = JSON.parse(job.query) as ExportQuery;
    let rows = 0;
    let bytes = 0;
    const out = createWriteStream(path);
    try {
      for await (const chunk of customerCsvChunks(this.deps.db, job.shop_id, query, (n) => (rows += n))) {
        const buffer = Buffer.from(chunk, 'utf8');
        bytes += buffer.length;
        if (!out.write(buffer)) await once(out, 'drain');
        await this.update(job, {});
        // Let requests in between pages (better-sqlite3 is synchronous).
        await new Promise((r) => setImmediate(r));
      }
      out.end();
      await once(out, 'finish');
    } catch (e) {
      out.destroy();
      throw e;
    }
    await this.update(job, { file_path: path, byte_size: bytes, row_count: rows });
    return { path, bytes, rows };
  }

  private async send(job: Selectable<CustomerExportsTable>, file: { path: string; bytes: number; rows: number }): Promise<void> {
    const view = toExportView(job);
    const fileName = exportFileName(view);
    const attach = file.bytes <= this.attachmentMaxBytes;
    const expiresAt = new Date(nowOf(this.deps).getTime() + EXPORT_LINK_TTL_SECONDS * 1000);
    const shop = await this.deps.db.selectFrom('shops').select('settings').where('id', '=', job.shop_id).executeTakeFirst();
    const language = mailLanguage(shop ? shopSettings(shop).primaryLanguageInApp : undefined);
    const mail = exportMail(
      { rows: file.rows, query: view.query, fileName, ...(attach ? {} : { link: { bytes: file.bytes, url: signedExportLink(job.app_origin, this.deps.auth.apiSecret, job.id, expiresAt), expiresAt } }) },
      language,
    );
    // A slow server must not outlast the claim: the lease is moved just before sending.
    await this.update(job, {});
    await emailOf(this.deps).send({
      shopId: job.shop_id,
      messageId: job.message_id,
      to: job.recipient,
      subject: mail.subject,
      text: mail.text,
      ...(attach ? { attachments: [{ filename: fileName, contentType: 'text/csv; charset=utf-8', content: await readFile(file.path) }] } : {}),
    });
    await this.update(job, { status: 'sent', delivery: attach ? 'attachment' : 'link', link_expires_at: attach ? null : expiresAt.toISOString(), error: null, locked_until: null, finished_at: nowOf(this.deps).toISOString(), ...(attach ? { file_path: null } : {}) });
    // An attached file is needed no more; a linked one is kept until its link expires.
    if (attach) await rm(file.path, { force: true });
  }

  /** Deletes the files of expired links, and of failed exports older than a link's lifetime. */
  private async removeStaleFiles(): Promise<void> {
    const now = nowOf(this.deps);
    const failedBefore = new Date(now.getTime() - EXPORT_LINK_TTL_SECONDS * 1000).toISOString();
    const stale = await this.deps.db
      .selectFrom('customer_exports')
      .select(['id', 'file_path'])
      .where('file_path', 'is not', null)
      .where((eb) => eb.or([eb.and([eb('status', '=', 'sent'), eb('link_expires_at', '<', now.toISOString())]), eb.and([eb('status', '=', 'failed'), eb('finished_at', '<', failedBefore)])]))
      .limit(100)
      .execute();
    for (const row of stale) {
      await rm(row.file_path!, { force: true });
      await this.deps.db.updateTable('customer_exports').set({ file_path: null }).where('id', '=', row.id).where('file_path', '=', row.file_path).execute();
    }
  }
}

const runners = new WeakMap<Db, ExportRunner>();

/** The one runner of a database connection in this process, made with the first deps that ask. */
export function exportRunnerFor(deps: ExportDeps): ExportRunner {
  let runner = runners.get(deps.db);
  if (!runner) {
    runner = new ExportRunner(deps, { lockSeconds: Number(process.env.EXPORT_LOCK_SECONDS ?? EXPORT_LOCK_SECONDS) || EXPORT_LOCK_SECONDS });
    runners.set(deps.db, runner);
  }
  return runner;
}

const kickers = new WeakMap<Db, () => void>();

/** Routes queued exports of `db` to `kick` instead of this process's runner (tests that drive the runner themselves). */
export function setExportKicker(db: Db, kick: () => void): void {
  kickers.set(db, kick);
}

/** Tells whoever runs this database's exports that one is queued. */
export function kickExports(deps: ExportDeps): void {
  const kick = kickers.get(deps.db);
  if (kick) kick();
  else exportRunnerFor(deps).kick();
}
