/**
 * Customer exports e-mailed as CSV (spec 002 §2 "Exports are emailed as CSV", §8 "Failed to export
 * customers"; server/services/customer-export/job.ts):
 * - `POST /customers/exports` `{ recipient, tab?, search?, ids? }` — 202 with the queued export;
 *   422 `validation_failed` with `/recipient` (or `/tab`, `/search`, `/ids`); 403 `plan_gate`;
 *   409 `export_in_progress`.
 * - `GET /customers/exports` — the latest 20, newest first, with `defaultRecipient` (the shop's
 *   e-mail) and `delivery` (`smtp`, or `outbox` when the local adapter keeps the messages);
 *   `GET /customers/exports/:id`; `POST /customers/exports/:id/retry` (a failed one; 202).
 * - `GET /emails/outbox` — the messages the local adapter kept (404 `outbox_unavailable` when
 *   SMTP sends them); `GET /emails/outbox/:id/attachments/:index` — one attachment.
 * - `GET /exports/:id/customers.csv?expires=&signature=` (no session: the signed link is the
 *   credential) — `exportDownloadRoutes`, mounted outside `/api`.
 * Mounted before the customer routes, whose `/customers/:id` would otherwise take these paths.
 */
import { createReadStream } from 'node:fs';
import { Readable } from 'node:stream';
import { Hono, type Context } from 'hono';
import type { FieldIssue } from '../../engine/types';
import type { AppDeps, AppEnv } from '../deps';
import { emailOf } from '../email/adapter';
import { listOutbox, outboxAttachment } from '../email/outbox';
import { ApiError } from '../errors';
import { parseExportQuery, requireExportGate } from '../services/customer-import/export';
import { checkRecipient, createExport, exportDownload, findExport, kickExports, listExports, retryExport } from '../services/customer-export/job';
import { findShop } from '../store/shops';
import { readJsonBody } from './body';

const BODY_FIELDS = new Set(['recipient', 'tab', 'search', 'ids']);

/** The app's public origin: APP_URL when set (behind a proxy), else the request's (as server/routes/auth.ts). */
const appOrigin = (c: Context): string => process.env.APP_URL?.trim().replace(/\/$/, '') || new URL(c.req.url).origin;

/** The admin's export and outbox calls (under `/api`, session required). */
export function customerExportRoutes(deps: AppDeps): Hono<AppEnv> {
  const app = new Hono<AppEnv>();
  const delivery = () => (emailOf(deps).kind === 'local' ? 'outbox' : 'smtp');

  app.post('/customers/exports', async (c) => {
    const shopId = c.get('shopId');
    const body = await readJsonBody(c);
    const issues: FieldIssue[] = Object.keys(body)
      .filter((k) => !BODY_FIELDS.has(k))
      .map((k) => ({ path: `/${k}`, message: 'Unknown field' }));
    let recipient = '';
    try {
      recipient = checkRecipient(body.recipient);
    } catch (e) {
      if (!(e instanceof ApiError)) throw e;
      issues.push(...(e.details ?? []));
    }
    let query;
    try {
      query = parseExportQuery(body, (field) => `/${field}`, 'validation_failed');
    } catch (e) {
      if (!(e instanceof ApiError)) throw e;
      issues.push(...(e.details ?? []));
    }
    if (issues.length > 0 || !query) throw new ApiError(422, 'validation_failed', 'Failed to export customers', issues);
    await requireExportGate(deps.db, shopId);
    const view = await createExport(deps, shopId, { recipient, query, actor: `admin:${c.get('userId') || 'unknown'}`, origin: appOrigin(c) });
    kickExports(deps);
    return c.json({ data: view, delivery: delivery() }, 202);
  });

  app.get('/customers/exports', async (c) => {
    const shopId = c.get('shopId');
    const shop = await findShop(deps.db, shopId);
    return c.json({ data: await listExports(deps, shopId), defaultRecipient: shop?.email ?? '', delivery: delivery() });
  });
  app.get('/customers/exports/:id', async (c) => c.json({ data: await findExport(deps, c.get('shopId'), c.req.param('id')) }));
  app.post('/customers/exports/:id/retry', async (c) => {
    const view = await retryExport(deps, c.get('shopId'), c.req.param('id'));
    kickExports(deps);
    return c.json({ data: view }, 202);
  });

  const requireOutbox = () => {
    if (emailOf(deps).kind !== 'local') throw new ApiError(404, 'outbox_unavailable', 'E-mails are sent over SMTP; there is no local outbox');
  };
  app.get('/emails/outbox', async (c) => {
    requireOutbox();
    return c.json({ data: await listOutbox(deps.db, c.get('shopId')) });
  });
  app.get('/emails/outbox/:id/attachments/:index', async (c) => {
    requireOutbox();
    const index = c.req.param('index');
    if (!/^\d{1,3}$/.test(index)) throw new ApiError(400, 'invalid_query', 'Value invalid', [{ path: 'index', message: 'Must be an attachment number' }]);
    const file = await outboxAttachment(deps.db, c.get('shopId'), c.req.param('id'), Number(index));
    return c.body(new Uint8Array(file.content), 200, { 'Content-Type': file.contentType, 'Content-Disposition': `attachment; filename="${file.filename.replace(/[^\w.-]+/g, '_')}"`, 'Cache-Control': 'no-store' });
  });
  return app;
}

/** The signed download link of an export too large to attach (no session; see job.ts exportDownload). */
export function exportDownloadRoutes(deps: AppDeps): Hono {
  const app = new Hono();
  app.get('/:id/customers.csv', async (c) => {
    const file = await exportDownload(deps, c.req.param('id'), c.req.query('expires'), c.req.query('signature'));
    const stream = Readable.toWeb(createReadStream(file.path)) as ReadableStream<Uint8Array>;
    return c.body(stream, 200, { 'Content-Type': 'text/csv; charset=utf-8', 'Content-Disposition': `attachment; filename="${file.fileName}"`, 'Cache-Control': 'no-store', 'Referrer-Policy': 'no-referrer' });
  });
  return app;
}
