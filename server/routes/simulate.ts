/**
 * Preview before saving (issue 15): `POST /programs/simulate` `{ data, id?, windowDays: 30 | 90 }`
 * answers what a draft place-order program would have awarded over the shop's stored orders of
 * the window, beside what the saved programs award (server/services/simulate.ts). 422 with field
 * paths (`/data/...`, `/windowDays`) for a bad draft or window; 404 for an unknown `id`.
 */
import { Hono } from 'hono';
import type { AppDeps, AppEnv } from '../deps';
import { simulateProgram } from '../services/simulate';
import { readJsonBody } from './body';

export function simulateRoutes(deps: AppDeps): Hono<AppEnv> {
  const app = new Hono<AppEnv>();
  app.post('/programs/simulate', async (c) => {
    const body = await readJsonBody(c);
    const data = await simulateProgram(deps, c.get('shopId'), { data: body.data, id: body.id, windowDays: body.windowDays });
    return c.json({ data });
  });
  return app;
}
