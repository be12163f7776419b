/**
 * Customer import and export (issue 10; spec 002 §2 Migration wizard and Customers "Import",
 * "Export"; §5 CSV import; §8 Import messages):
 * - `POST /customers/imports?kind=customers|birthday|points` — the file as multipart (`file`, and
 *   optionally `kind`) or as the raw body with `?fileName=` (or `X-File-Name`); answers 201 with the
 *   import id, the detected headers and separator, the guessed mapping and the first 5 rows.
 * - `POST /customers/imports/:id/start` `{ mapping: { header: field | "ignore" }, tierRule }` — 202;
 *   the import runs in the background.
 * - `GET /customers/imports` (history, newest first), `GET /customers/imports/:id` (progress;
 *   `?preview=1` adds the guessed mapping and the first 5 rows again),
 *   `GET /customers/imports/:id/errors.csv` (bad rows with row number and reason).
 * - `GET /customers/export.csv?tab=&search=&id=…&id=…` — the list's customers as CSV, streamed;
 *   `id` (repeated, at most 100) narrows it to the customers selected on the list.
 * Mounted before the customer routes, whose `/customers/:id` would otherwise take these paths.
 */
import { Hono, type Context } from 'hono';
import type { FieldIssue } from '../../engine/types';
import type { AppDeps, AppEnv } from '../deps';
import { ApiError } from '../errors';
import { customerCsvChunks, parseExportQuery, requireExportGate } from '../services/customer-import/export';
import { createImport, errorCsvLines, findImport, kickImports, listImports, previewImport, startImport } from '../services/customer-import/job';
import { IMPORT_KINDS, type ColumnMapping, type ImportKind, type TierRule } from '../services/customer-import/rules';
import { readJsonBody } from './body';

/** The chunks of a web stream, for services that read `AsyncIterable<Uint8Array>`. */
async function* chunksOf(stream: ReadableStream<Uint8Array> | null): AsyncGenerator<Uint8Array> {
  if (!stream) return;
  const reader = stream.getReader();
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) return;
      yield value;
    }
  } finally {
    reader.releaseLock();
  }
}

/** A CSV download answered as it is produced; `lines` may throw only before its first chunk is awaited. */
export function csvResponse(c: Context, fileName: string, lines: AsyncGenerator<string>): Response {
  const encoder = new TextEncoder();
  const stream = new ReadableStream<Uint8Array>({
    async pull(controller) {
      const { done, value } = await lines.next();
      if (done) controller.close();
      else controller.enqueue(encoder.encode(value));
    },
    async cancel() {
      await lines.return(undefined);
    },
  });
  return c.body(stream, 200, { 'Content-Type': 'text/csv; charset=utf-8', 'Content-Disposition': `attachment; filename="${fileName}"`, 'Cache-Control': 'no-store' });
}

function kindOf(value: unknown): ImportKind {
  if (value === undefined || value === null || value === '') return 'customers';
  if (typeof value === 'string' && (IMPORT_KINDS as readonly string[]).includes(value)) return value as ImportKind;
  throw new ApiError(400, 'invalid_query', 'Value invalid', [{ path: 'kind', message: `Must be one of ${IMPORT_KINDS.join(', ')}` }]);
}

const actorOf = (c: Context<AppEnv>): string => `admin:${c.get('userId') || 'unknown'}`;

export function customerImportRoutes(deps: AppDeps): Hono<AppEnv> {
  const app = new Hono<AppEnv>();

  app.post('/customers/imports', async (c) => {
    const type = c.req.header('content-type') ?? '';
    let fileName: string;
    let kind: ImportKind;
    let body: AsyncIterable<Uint8Array>;
    if (type.startsWith('multipart/form-data')) {
      // The body limit (server/limits.ts IMPORT_BODY_LIMIT) has bounded what this reads.
      const form = await c.req.parseBody();
      const file = form.file;
      if (!(file instanceof File)) throw new ApiError(422, 'validation_failed', 'Your file is invalid', [{ path: '/file', message: 'This field is required' }]);
      fileName = file.name;
      kind = kindOf(typeof form.kind === 'string' ? form.kind : c.req.query('kind'));
      body = chunksOf(file.stream());
    } else {
      const header = c.req.header('x-file-name');
      fileName = c.req.query('fileName') ?? (header ? decodeURIComponent(header) : '');
      if (!fileName) throw new ApiError(422, 'validation_failed', 'Your file is invalid', [{ path: 'fileName', message: 'This field is required' }]);
      kind = kindOf(c.req.query('kind'));
      body = chunksOf(c.req.raw.body);
    }
    const uploaded = await createImport(deps, c.get('shopId'), { fileName, kind, body, actor: actorOf(c) });
    return c.json({ data: uploaded }, 201);
  });

  app.get('/customers/imports', async (c) => c.json({ data: await listImports(deps, c.get('shopId')) }));
  app.get('/customers/imports/:id', async (c) => {
    const shopId = c.get('shopId');
    const id = c.req.param('id');
    return c.json({ data: c.req.query('preview') === '1' ? await previewImport(deps, shopId, id) : await findImport(deps, shopId, id) });
  });
  app.get('/customers/imports/:id/errors.csv', async (c) => {
    const view = await findImport(deps, c.get('shopId'), c.req.param('id'));
    const base = view.fileName.replace(/\.csv$/i, '').replace(/[^\w.-]+/g, '_') || 'import';
    return csvResponse(c, `${base}-errors.csv`, errorCsvLines(deps, c.get('shopId'), view.id));
  });

  app.post('/customers/imports/:id/start', async (c) => {
    const body = await readJsonBody(c);
    const issues: FieldIssue[] = [];
    const mapping = body.mapping;
    if (mapping === null || typeof mapping !== 'object' || Array.isArray(mapping) || Object.values(mapping).some((v) => typeof v !== 'string')) {
      issues.push({ path: '/mapping', message: 'Must be an object of column name to field' });
    }
    const tierRule = body.tierRule ?? 'from_file';
    if (typeof tierRule !== 'string') issues.push({ path: '/tierRule', message: 'Must be text' });
    for (const k of Object.keys(body).filter((k) => k !== 'mapping' && k !== 'tierRule')) issues.push({ path: `/${k}`, message: 'Unknown field' });
    if (issues.length > 0) throw new ApiError(422, 'validation_failed', 'Your file is invalid', issues);
    const view = await startImport(deps, c.get('shopId'), c.req.param('id'), { mapping: mapping as ColumnMapping, tierRule: tierRule as TierRule });
    kickImports(deps);
    return c.json({ data: view }, 202);
  });

  app.get('/customers/export.csv', async (c) => {
    const shopId = c.get('shopId');
    const query = parseExportQuery({ tab: c.req.query('tab'), search: c.req.query('search'), ids: c.req.queries('id') }, (field) => (field === 'ids' ? 'id' : field));
    await requireExportGate(deps.db, shopId);
    const day = new Date().toISOString().slice(0, 10);
    return csvResponse(c, `customers-${query.tab}-${day}.csv`, customerCsvChunks(deps.db, shopId, query));
  });
  return app;
}
