/**
 * Versions of any document (issue 15 "Versions, diffs and rollback"):
 * - `GET /documents/:id/versions` — `{ data: VersionSummary[], document }`, newest first;
 * - `GET /documents/:id/versions/:version` — one version with its data (secrets masked);
 * - `GET /documents/:id/diff?from=&to=&language=` — the changes in words, labels in the admin's
 *   language (`language`, else the shop's in-app language);
 * - `POST /documents/:id/rollback` `{ version, expectedVersion? }` — saves that version's data as
 *   a new version through the normal save (422/409/403 as a save).
 */
import { Hono } from 'hono';
import type { AppDeps, AppEnv } from '../deps';
import { ApiError } from '../errors';
import { publicDocument } from '../services/documents';
import { adminLanguage, diffVersions, getVersion, listVersions, rollbackDocument } from '../services/versions';
import { languageParam, readJsonBody } from './body';

/** A positive whole-number query or path value, or ApiError 400 `invalid_query` naming it. */
function versionNumber(name: string, value: string | undefined): number {
  const n = Number(value);
  if (value === undefined || !/^\d{1,9}$/.test(value) || n < 1) throw new ApiError(400, 'invalid_query', 'Value invalid', [{ path: name, message: 'Must be a version number (1 or more)' }]);
  return n;
}

export function versionRoutes(deps: AppDeps): Hono<AppEnv> {
  const app = new Hono<AppEnv>();

  app.get('/documents/:id/versions', async (c) => {
    const { document, versions } = await listVersions(deps, c.get('shopId'), c.req.param('id'));
    return c.json({ data: versions, document, count: versions.length });
  });

  app.get('/documents/:id/versions/:version', async (c) => {
    const data = await getVersion(deps, c.get('shopId'), c.req.param('id'), versionNumber('version', c.req.param('version')));
    return c.json({ data });
  });

  app.get('/documents/:id/diff', async (c) => {
    const from = versionNumber('from', c.req.query('from'));
    const to = versionNumber('to', c.req.query('to'));
    const language = await adminLanguage(deps.db, c.get('shopId'), c.req.query('language') ? languageParam(c) : null);
    const data = await diffVersions(deps, c.get('shopId'), c.req.param('id'), from, to, language);
    return c.json({ data });
  });

  app.post('/documents/:id/rollback', async (c) => {
    const body = await readJsonBody(c);
    const doc = await rollbackDocument(deps, c.get('shopId'), c.req.param('id'), body.version, body.expectedVersion, c.get('userId') || 'system');
    return c.json({ data: publicDocument(deps, doc) });
  });

  return app;
}
