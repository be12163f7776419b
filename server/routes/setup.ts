/**
 * The first-time setup's calls (issue 12; spec 000 §2; spec 002 §2 ST7), mounted under `/api`:
 * - `GET /setup`: `{ data: SetupState }`, the shop's flag and what each step has produced
 * - `PUT /setup` `{ setupDone: boolean }`: finish or skip the setup (true), or run it again (false);
 *   422 `validation_failed` at `/setupDone` for anything but a boolean
 * The steps themselves save ordinary documents (`/api/kinds/:kind/docs`).
 */
import { Hono } from 'hono';
import type { AppDeps, AppEnv } from '../deps';
import { ApiError } from '../errors';
import { setSetupDone, setupState } from '../services/setup';
import { readJsonBody } from './body';

export function setupRoutes(deps: AppDeps): Hono<AppEnv> {
  const app = new Hono<AppEnv>();
  app.get('/setup', async (c) => c.json({ data: await setupState(deps, c.get('shopId')) }));
  app.put('/setup', async (c) => {
    const body = await readJsonBody(c);
    const unknown = Object.keys(body).filter((key) => key !== 'setupDone');
    const details = unknown.map((key) => ({ path: `/${key}`, message: `Unknown field "${key}"` }));
    if (typeof body.setupDone !== 'boolean') details.unshift({ path: '/setupDone', message: 'Must be true or false' });
    if (details.length > 0) throw new ApiError(422, 'validation_failed', 'Failed to save settings', details);
    return c.json({ data: await setSetupDone(deps, c.get('shopId'), body.setupDone as boolean) });
  });
  return app;
}
