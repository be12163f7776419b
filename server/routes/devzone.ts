/**
 * The developer zone's API (spec 001 §2 Recommended Apps Manager, §3 Recommended app, §4, §5, §7):
 * - `GET /dev-zone/access` — `{ data: { staff } }`, so the admin knows whether to offer the zone.
 * - `GET /recommended-apps` — staff: every app; a merchant (the dashboard): active apps only. Sorted
 *   by ascending priority, missing priority last.
 * - `POST /recommended-apps`, `PUT /recommended-apps/:id`, `DELETE /recommended-apps/:id`,
 *   `POST /recommended-apps/update-priority` `{ orderedIds }` — staff only (403 `staff_only`).
 *
 * Who is staff (DESIGN.md "Staff-only screens need a staff role"; the spec does not show the check):
 * the session token's user (`sub`) is listed in `STAFF_USER_IDS` (comma-separated). In demo mode
 * with no list set, the demo user is staff, so the demo shows the zone. The list is one for the whole
 * app; recommended apps are not tenant data (every shop's dashboard shows the same list).
 */
import { Hono } from 'hono';
import type { AppDeps, AppEnv } from '../deps';
import type { RecommendedAppsTable } from '../db/tables';
import { ApiError, notFound } from '../errors';
import { readJsonBody } from './body';

/** The demo sign-in's user id (server/routes/auth.ts signs with the default `sub`). */
const DEMO_USER_ID = '1';

/** Whether `userId` is staff: listed in STAFF_USER_IDS, or the demo user in demo mode when no list is set. */
export function isStaff(userId: string, demo: boolean, env: NodeJS.ProcessEnv = process.env): boolean {
  const list = (env.STAFF_USER_IDS ?? '').split(',').map((s) => s.trim()).filter(Boolean);
  if (list.length > 0) return userId !== '' && list.includes(userId);
  return demo && userId === DEMO_USER_ID;
}

/** A recommended app as the API answers it (spec 001 §3). */
export interface RecommendedApp {
  id: string;
  title: string;
  description: string;
  img: string;
  appStoreUrl: string;
  integrationUrl: string | null;
  type: 'appInstall' | 'appIntegration';
  priority: number;
  isActive: boolean;
}

const toApp = (r: RecommendedAppsTable): RecommendedApp => ({
  id: r.id,
  title: r.title,
  description: r.description,
  img: r.img,
  appStoreUrl: r.app_store_url,
  integrationUrl: r.integration_url,
  type: r.type === 'appIntegration' ? 'appIntegration' : 'appInstall',
  priority: r.priority,
  isActive: r.is_active === 1,
});

const WEB_URL = /^https?:\/\/[^\s/?#]+(?:[/?#]\S*)?$/i;
const REQUIRED = 'This field is required';

/** The form's fields checked (spec 001 §5: title, description, image URL and App Store URL required; priority a number or empty). */
function appInput(body: Record<string, unknown>): Omit<RecommendedApp, 'id' | 'priority'> & { priority: number | null } {
  const issues: { path: string; message: string }[] = [];
  const text = (key: string, max: number, required: boolean): string => {
    const value = body[key];
    const s = typeof value === 'string' ? value.trim() : '';
    if (value !== undefined && value !== null && typeof value !== 'string') issues.push({ path: `/${key}`, message: 'Value invalid' });
    else if (required && s === '') issues.push({ path: `/${key}`, message: REQUIRED });
    else if (s.length > max) issues.push({ path: `/${key}`, message: `Must be at most ${max} characters` });
    return s;
  };
  const title = text('title', 255, true);
  const description = text('description', 2000, true);
  const img = text('img', 2048, true);
  const appStoreUrl = text('appStoreUrl', 2048, true);
  const integrationUrl = text('integrationUrl', 2048, false);
  if (img && !WEB_URL.test(img) && !/^\/uploads\/[\w-]+$/.test(img)) issues.push({ path: '/img', message: 'Enter a full URL starting with https://' });
  if (appStoreUrl && !WEB_URL.test(appStoreUrl)) issues.push({ path: '/appStoreUrl', message: 'Enter a full URL starting with https://' });
  if (integrationUrl && !integrationUrl.startsWith('/') && !WEB_URL.test(integrationUrl)) issues.push({ path: '/integrationUrl', message: 'Enter an internal route such as /integration/klaviyo or a full URL' });
  const type = body.type ?? 'appInstall';
  if (type !== 'appInstall' && type !== 'appIntegration') issues.push({ path: '/type', message: 'Value invalid' });
  const rawPriority = body.priority;
  let priority: number | null = null;
  if (rawPriority !== undefined && rawPriority !== null && rawPriority !== '') {
    const n = typeof rawPriority === 'number' ? rawPriority : typeof rawPriority === 'string' && /^\d{1,6}$/.test(rawPriority) ? Number(rawPriority) : NaN;
    if (!Number.isInteger(n) || n < 0 || n > 999_999) issues.push({ path: '/priority', message: 'Must be a whole number' });
    else priority = n;
  }
  const isActive = body.isActive === undefined ? true : body.isActive;
  if (typeof isActive !== 'boolean') issues.push({ path: '/isActive', message: 'Value invalid' });
  if (issues.length > 0) throw new ApiError(422, 'validation_failed', 'Some fields need attention', issues);
  return { title, description, img, appStoreUrl, integrationUrl: integrationUrl || null, type: type as RecommendedApp['type'], priority, isActive: isActive === true };
}

/** Apps by ascending priority (the manager's order and the dashboard's), then oldest first. */
async function listApps(deps: AppDeps, activeOnly: boolean): Promise<RecommendedApp[]> {
  let q = deps.db.selectFrom('recommended_apps').selectAll();
  if (activeOnly) q = q.where('is_active', '=', 1);
  return (await q.orderBy('priority').orderBy('created_at').orderBy('id').execute()).map(toApp);
}

export function devZoneRoutes(deps: AppDeps): Hono<AppEnv> {
  const app = new Hono<AppEnv>();
  const now = () => (deps.now ?? (() => new Date()))().toISOString();
  const staff = (userId: string) => isStaff(userId, deps.auth.demo);
  const requireStaff = (userId: string) => {
    if (!staff(userId)) throw new ApiError(403, 'staff_only', 'The developer zone is for staff only');
  };

  app.get('/dev-zone/access', (c) => c.json({ data: { staff: staff(c.get('userId')) } }));
  app.get('/recommended-apps', async (c) => c.json({ data: await listApps(deps, !staff(c.get('userId'))) }));

  app.post('/recommended-apps', async (c) => {
    requireStaff(c.get('userId'));
    const input = appInput(await readJsonBody(c));
    // An empty priority is assigned: after every app there is.
    const last = await deps.db.selectFrom('recommended_apps').select((eb) => eb.fn.max('priority').as('max')).executeTakeFirst();
    const priority = input.priority ?? Number(last?.max ?? 0) + 1;
    const at = now();
    const row: RecommendedAppsTable = {
      id: crypto.randomUUID(),
      title: input.title,
      description: input.description,
      img: input.img,
      app_store_url: input.appStoreUrl,
      integration_url: input.integrationUrl,
      type: input.type,
      priority,
      is_active: input.isActive ? 1 : 0,
      created_at: at,
      updated_at: at,
    };
    await deps.db.insertInto('recommended_apps').values(row).execute();
    return c.json({ data: toApp(row), success: true, message: 'App created successfully' }, 201);
  });

  app.put('/recommended-apps/:id', async (c) => {
    requireStaff(c.get('userId'));
    const input = appInput(await readJsonBody(c));
    const id = c.req.param('id');
    const current = await deps.db.selectFrom('recommended_apps').selectAll().where('id', '=', id).executeTakeFirst();
    if (!current) throw notFound('not_found', 'This app does not exist or was deleted');
    const row: RecommendedAppsTable = {
      ...current,
      title: input.title,
      description: input.description,
      img: input.img,
      app_store_url: input.appStoreUrl,
      integration_url: input.integrationUrl,
      type: input.type,
      priority: input.priority ?? current.priority,
      is_active: input.isActive ? 1 : 0,
      updated_at: now(),
    };
    await deps.db.updateTable('recommended_apps').set(row).where('id', '=', id).execute();
    return c.json({ data: toApp(row), success: true, message: 'App updated successfully' });
  });

  app.delete('/recommended-apps/:id', async (c) => {
    requireStaff(c.get('userId'));
    const result = await deps.db.deleteFrom('recommended_apps').where('id', '=', c.req.param('id')).executeTakeFirst();
    if (Number(result.numDeletedRows) === 0) throw notFound('not_found', 'This app does not exist or was deleted');
    return c.json({ success: true, message: 'App deleted successfully' });
  });

  app.post('/recommended-apps/update-priority', async (c) => {
    requireStaff(c.get('userId'));
    const { orderedIds } = await readJsonBody(c);
    if (!Array.isArray(orderedIds) || orderedIds.length > 1000 || !orderedIds.every((id): id is string => typeof id === 'string') || new Set(orderedIds).size !== orderedIds.length) {
      throw new ApiError(422, 'validation_failed', 'Some fields need attention', [{ path: '/orderedIds', message: 'Send every app id once, in the new order' }]);
    }
    const at = now();
    await deps.db.transaction().execute(async (tx) => {
      const known = new Set((await tx.selectFrom('recommended_apps').select('id').execute()).map((r) => r.id));
      const unknown = orderedIds.findIndex((id) => !known.has(id));
      if (unknown >= 0) throw new ApiError(422, 'validation_failed', 'Some fields need attention', [{ path: `/orderedIds/${unknown}`, message: 'This app does not exist or was deleted' }]);
      // Listed apps take 1..n; any app the list left out keeps its order after them.
      let priority = 0;
      for (const id of orderedIds) await tx.updateTable('recommended_apps').set({ priority: ++priority, updated_at: at }).where('id', '=', id).execute();
      const rest = await tx.selectFrom('recommended_apps').select('id').where('id', 'not in', orderedIds.length > 0 ? orderedIds : ['']).orderBy('priority').orderBy('created_at').execute();
      for (const r of rest) await tx.updateTable('recommended_apps').set({ priority: ++priority }).where('id', '=', r.id).execute();
    });
    return c.json({ data: await listApps(deps, false), success: true, message: 'Priority updated successfully' });
  });
  return app;
}
