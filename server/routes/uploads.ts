/**
 * Image uploads (spec 001 §5, spec 002 §5): `POST /api/uploads` (multipart: `file`, `purpose`)
 * checks the file's real type and size against the purpose's rule and answers `{ data: { id, url } }`;
 * `GET /uploads/:id` serves it publicly (storefront widgets show these images) with headers that
 * stop an SVG from running script.
 */
import { Hono } from 'hono';
import { imageProblem, IMAGE_RULES, sniffImageType } from '../../engine/images';
import type { AppDeps, AppEnv } from '../deps';
import { ApiError, notFound } from '../errors';

const CONTENT_TYPES: Record<string, string> = { png: 'image/png', jpg: 'image/jpeg', gif: 'image/gif', webp: 'image/webp', svg: 'image/svg+xml' };
/** Largest body accepted before looking at it: the largest rule (10 MB) plus form overhead. */
export const MAX_UPLOAD_BYTES = 10 * 1024 * 1024 + 64 * 1024;

export function uploadApiRoutes(deps: AppDeps): Hono<AppEnv> {
  const app = new Hono<AppEnv>();
  app.post('/uploads', async (c) => {
    if (Number(c.req.header('Content-Length') ?? 0) > MAX_UPLOAD_BYTES) throw new ApiError(413, 'image_size', 'Image must be smaller than 10MB');
    const form = await c.req.parseBody().catch(() => {
      throw new ApiError(400, 'invalid_upload', 'Send the image as multipart/form-data with a file and a purpose');
    });
    const file = form.file;
    const purpose = typeof form.purpose === 'string' ? form.purpose : '';
    if (!IMAGE_RULES.has(purpose)) throw new ApiError(422, 'validation_failed', 'Some fields need attention', [{ path: '/purpose', message: 'Value invalid' }]);
    if (!(file instanceof File)) throw new ApiError(422, 'validation_failed', 'Some fields need attention', [{ path: '/file', message: 'This field is required' }]);
    const bytes = new Uint8Array(await file.arrayBuffer());
    const problem = imageProblem(bytes, purpose);
    if (problem) throw new ApiError(422, problem.code, problem.message, [{ path: '/file', message: problem.message }]);
    const type = sniffImageType(bytes) ?? 'png';
    const id = crypto.randomUUID();
    await deps.db
      .insertInto('uploads')
      .values({
        id,
        shop_id: c.get('shopId'),
        purpose,
        content_type: CONTENT_TYPES[type] ?? 'application/octet-stream',
        file_name: file.name.slice(0, 255),
        byte_size: bytes.byteLength,
        data_base64: Buffer.from(bytes).toString('base64'),
        created_at: (deps.now ?? (() => new Date()))().toISOString(),
      })
      .execute();
    return c.json({ data: { id, url: `/uploads/${id}`, byteSize: bytes.byteLength, contentType: CONTENT_TYPES[type] } }, 201);
  });
  return app;
}

export function uploadFileRoutes(deps: AppDeps): Hono {
  const app = new Hono();
  app.get('/:id', async (c) => {
    const row = await deps.db.selectFrom('uploads').select(['content_type', 'data_base64']).where('id', '=', c.req.param('id')).executeTakeFirst();
    if (!row) throw notFound('not_found', 'No such image');
    return c.body(Buffer.from(row.data_base64, 'base64'), 200, {
      'Content-Type': row.content_type,
      'X-Content-Type-Options': 'nosniff',
      'Content-Security-Policy': "default-src 'none'; style-src 'unsafe-inline'",
      'Cache-Control': 'public, max-age=3600',
    });
  });
  return app;
}
