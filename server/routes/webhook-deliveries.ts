/**
 * The shop's webhook deliveries and dead letters (issue 14), behind the session token:
 * `GET /webhook-deliveries?status=queued|done|dead&limit=&source=platform|all` (newest first, at most
 * 200; the app's own queued topics such as the storefront's `loyalty/visit` pings are left out unless
 * `source=all` or the list is the dead letters, so shoppers' page views never bury the platform's
 * deliveries and nothing dead is hidden),
 * `GET /webhook-deliveries/:id`, `POST /webhook-deliveries/:id/retry` to requeue a dead one, and
 * `POST /webhook-deliveries/reconcile` `{ sinceHours? }` (1 … 720, default 72) to re-fetch the recent
 * orders through the platform adapter and queue what no delivery brought (server/services/reconcile.ts).
 */
import { Hono } from 'hono';
import type { AppDeps, AppEnv } from '../deps';
import { ApiError, notFound } from '../errors';
import { LocalOrders, RECONCILE_MAX_ORDERS, ShopifyOrders, type PlatformOrders } from '../platform/orders';
import { reconcileOrders } from '../services/reconcile';
import { toDeliveryView, type WebhookQueue } from '../webhooks/queue';
import { APP_TOPICS } from '../webhooks/topics';
import { readJsonBody } from './body';

/** The reconciliation window: default and largest, in hours. */
export const RECONCILE_DEFAULT_HOURS = 72;
export const RECONCILE_MAX_HOURS = 720;

const STATUSES = ['queued', 'done', 'dead'];
const SOURCES = ['platform', 'all'];

export function webhookDeliveryRoutes(deps: AppDeps, queue: WebhookQueue): Hono<AppEnv> {
  const app = new Hono<AppEnv>();
  const platform: PlatformOrders = deps.platformOrders ?? (deps.auth.demo ? new LocalOrders() : new ShopifyOrders(deps.auth));
  app.post('/webhook-deliveries/reconcile', async (c) => {
    const body = (await c.req.text()).trim() === '' ? {} : await readJsonBody(c);
    const hours = body.sinceHours ?? RECONCILE_DEFAULT_HOURS;
    if (typeof hours !== 'number' || !Number.isInteger(hours) || hours < 1 || hours > RECONCILE_MAX_HOURS) {
      throw new ApiError(422, 'validation_failed', 'Some fields need attention', [{ path: '/sinceHours', message: `Must be a whole number of hours from 1 to ${RECONCILE_MAX_HOURS}` }]);
    }
    const now = (deps.now ?? (() => new Date()))();
    const since = new Date(now.getTime() - hours * 3_600_000).toISOString();
    const sessionToken = /^Bearer\s+(\S+)$/i.exec(c.req.header('Authorization') ?? '')?.[1];
    const result = await reconcileOrders(deps, queue, platform, c.get('shopId'), { since, limit: RECONCILE_MAX_ORDERS, ...(sessionToken ? { sessionToken } : {}) });
    deps.logger?.info({ shop: c.get('shopId'), checked: result.checked, queued: result.queued }, 'reconciled recent orders');
    return c.json({ data: result });
  });
  app.get('/webhook-deliveries', async (c) => {
    const status = c.req.query('status');
    if (status !== undefined && !STATUSES.includes(status)) throw new ApiError(400, 'invalid_query', 'Value invalid', [{ path: 'status', message: `Must be one of ${STATUSES.join(', ')}` }]);
    const source = c.req.query('source') ?? 'platform';
    if (!SOURCES.includes(source)) throw new ApiError(400, 'invalid_query', 'Value invalid', [{ path: 'source', message: `Must be one of ${SOURCES.join(', ')}` }]);
    const limit = Math.min(200, Math.max(1, Number(c.req.query('limit') ?? 50) || 50));
    let query = deps.db.selectFrom('webhook_deliveries').selectAll().where('shop_id', '=', c.get('shopId'));
    if (status) query = query.where('status', '=', status);
    if (source === 'platform' && status !== 'dead') query = query.where('topic', 'not in', Object.keys(APP_TOPICS));
    const rows = await query.orderBy('seq', 'desc').limit(limit).execute();
    return c.json({ data: rows.map(toDeliveryView), count: rows.length });
  });
  app.get('/webhook-deliveries/:id', async (c) => {
    const row = await deps.db.selectFrom('webhook_deliveries').selectAll().where('shop_id', '=', c.get('shopId')).where('id', '=', c.req.param('id')).executeTakeFirst();
    if (!row) throw notFound('not_found', 'No such webhook delivery');
    return c.json({ data: toDeliveryView(row) });
  });
  app.post('/webhook-deliveries/:id/retry', async (c) => {
    const now = new Date().toISOString();
    const updated = await deps.db
      .updateTable('webhook_deliveries')
      .set({ status: 'queued', attempts: 0, available_at: now, locked_until: null, finished_at: null })
      .where('shop_id', '=', c.get('shopId'))
      .where('id', '=', c.req.param('id'))
      .where('status', '=', 'dead')
      .executeTakeFirst();
    if (Number(updated.numUpdatedRows) === 0) throw new ApiError(409, 'not_dead', 'Only a dead delivery can be retried');
    queue.kick();
    return c.json({ success: true, message: 'Delivery queued again' });
  });
  return app;
}
