/**
 * `GET /settings/pending-points` and `PUT /settings/pending-points` (spec 002 §4 pending points;
 * the Settings → Points card): the switch, the waiting period in days, and the points waiting now.
 * Turning it off while points wait needs `convertPending: true` and converts them, irreversibly.
 */
import { Hono } from 'hono';
import type { AppDeps, AppEnv } from '../deps';
import { pendingPointsChangeOf, pendingPointsState, savePendingPoints } from '../services/pending-points';
import { readJsonBody } from './body';

export function pendingPointsRoutes(deps: AppDeps): Hono<AppEnv> {
  const app = new Hono<AppEnv>();
  app.get('/settings/pending-points', async (c) => c.json({ data: await pendingPointsState(deps, c.get('shopId')) }));
  app.put('/settings/pending-points', async (c) => {
    const change = pendingPointsChangeOf(await readJsonBody(c));
    const data = await savePendingPoints(deps, c.get('shopId'), change, `admin:${c.get('userId') || 'unknown'}`);
    return c.json({ data, message: 'Settings saved' });
  });
  return app;
}
