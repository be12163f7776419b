/**
 * The Settings screen's sections (spec 002 §2 Settings sections, §7 "save settings", "generate the
 * secret key"):
 * - `GET /settings` — every section with defaults filled in: `{ data: ShopSettings, version }`.
 * - `GET /settings/:section`, `PUT /settings/:section` (`general`, `email`, `prelaunch`, `order`,
 *   `colors`, `developers`) — one section; a PUT sends the whole section object and answers the
 *   saved section. 422 `validation_failed` with field paths (`/order/exchangeRate`), 404 for an
 *   unknown section, 409 `confirmation_required` for sandbox → live without `confirm: true`.
 * - `GET /settings/developers/credentials`, `POST /settings/developers/secret-key` — the app id
 *   and the secret key's hint; a new secret key is answered once.
 * Pending points keep their own route (server/routes/pending-points.ts), mounted before this one.
 */
import { Hono } from 'hono';
import type { AppDeps, AppEnv } from '../deps';
import { appCredentials, generateSecretKey, saveSettingsSection, sectionOrThrow, settingsDocument, shopSettings } from '../services/settings';
import { readJsonBody } from './body';

export function settingsRoutes(deps: AppDeps): Hono<AppEnv> {
  const app = new Hono<AppEnv>();
  const now = () => (deps.now ?? (() => new Date()))().toISOString();

  app.get('/settings/developers/credentials', async (c) => c.json({ data: await appCredentials(deps.db, c.get('shopId')) }));
  app.post('/settings/developers/secret-key', async (c) => c.json({ data: await generateSecretKey(deps.db, c.get('shopId'), now()), message: 'Secret key generated' }, 201));

  app.get('/settings', async (c) => {
    const shopId = c.get('shopId');
    const [data, doc] = await Promise.all([shopSettings(deps.db, shopId), settingsDocument(deps.db, shopId)]);
    return c.json({ data, version: doc?.version ?? 0 });
  });
  app.get('/settings/:section', async (c) => {
    const section = sectionOrThrow(c.req.param('section'));
    return c.json({ data: (await shopSettings(deps.db, c.get('shopId')))[section] });
  });
  app.put('/settings/:section', async (c) => {
    const section = sectionOrThrow(c.req.param('section'));
    const saved = await saveSettingsSection(deps, c.get('shopId'), section, await readJsonBody(c), `admin:${c.get('userId') || 'unknown'}`);
    return c.json({ data: saved[section], message: 'Settings saved' });
  });
  return app;
}
