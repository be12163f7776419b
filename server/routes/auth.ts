/**
 * Sign-in support outside /api: `GET /auth/config` tells the login page whether demo mode is on,
 * and `POST /auth/demo-login` (demo mode only) returns a session token for the demo shop.
 */
import { Hono } from 'hono';
import { signSessionToken } from '../auth';
import { DEMO } from '../config';
import type { AppDeps } from '../deps';
import { ApiError } from '../errors';

export function authRoutes(deps: AppDeps): Hono {
  const app = new Hono();
  app.get('/config', (c) => c.json({ demo: deps.auth.demo, shopDomain: deps.auth.demo ? DEMO.shopDomain : null }));
  app.post('/demo-login', async (c) => {
    if (!deps.auth.demo) throw new ApiError(404, 'demo_disabled', 'Demo sign-in is only available in demo mode');
    const token = await signSessionToken(deps.auth, DEMO.shopDomain);
    return c.json({ token, shopDomain: DEMO.shopDomain });
  });
  return app;
}
