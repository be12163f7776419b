/**
 * The shop's webhook deliveries and dead letters (issue 14), behind the session token:
 * `GET /webhook-deliveries?status=queued|done|dead&limit=` (newest first, at most 200),
 * `GET /webhook-deliveries/:id`, and `POST /webhook-deliveries/:id/retry` to requeue a dead one.
 */
import { Hono } from 'hono';
import type { AppDeps, AppEnv } from '../deps';
import { ApiError, notFound } from '../errors';
import { toDeliveryView, type WebhookQueue } from '../webhooks/queue';

const STATUSES = ['queued', 'done', 'dead'];

export function webhookDeliveryRoutes(deps: AppDeps, queue: WebhookQueue): Hono<AppEnv> {
  const app = new Hono<AppEnv>();
  app.get('/webhook-deliveries', async (c) => {
    const status = c.req.query('status');
    if (status !== undefined && !STATUSES.includes(status)) throw new ApiError(400, 'invalid_query', 'Value invalid', [{ path: 'status', message: `Must be one of ${STATUSES.join(', ')}` }]);
    const limit = Math.min(200, Math.max(1, Number(c.req.query('limit') ?? 50) || 50));
    let query = deps.db.selectFrom('webhook_deliveries').selectAll().where('shop_id', '=', c.get('shopId'));
    if (status) query = query.where('status', '=', status);
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
