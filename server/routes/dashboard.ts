/**
 * `GET /dashboard?range=` (spec 002 §2 Dashboard; `range` one of engine/report-ranges.ts
 * REPORT_RANGES, `last_30_days` by default) and `GET /dashboard/search?q=` (quick search by
 * customer e-mail, order id or coupon code; answers `{ data: hits }`).
 */
import { Hono } from 'hono';
import type { AppDeps, AppEnv } from '../deps';
import { ApiError } from '../errors';
import { REPORT_RANGES, type ReportRange } from '../../engine/report-ranges';
import { dashboard, quickSearch } from '../services/dashboard';

export function dashboardRoutes(deps: AppDeps): Hono<AppEnv> {
  const app = new Hono<AppEnv>();
  app.get('/dashboard', async (c) => {
    const range = c.req.query('range') || 'last_30_days';
    if (!(REPORT_RANGES as readonly string[]).includes(range)) throw new ApiError(400, 'invalid_query', 'Value invalid', [{ path: 'range', message: `Must be one of ${REPORT_RANGES.join(', ')}` }]);
    return c.json({ data: await dashboard(deps, c.get('shopId'), range as ReportRange) });
  });
  app.get('/dashboard/search', async (c) => {
    const q = c.req.query('q') ?? '';
    if (q.length > 254) throw new ApiError(400, 'invalid_query', 'Value invalid', [{ path: 'q', message: 'Must be at most 254 characters' }]);
    return c.json({ data: await quickSearch(deps, c.get('shopId'), q) });
  });
  return app;
}
