/** `GET /shops` (spec 000 §7): the active shop and the platform's shop info. */
import { Hono } from 'hono';
import type { AppDeps, AppEnv } from '../deps';
import { notFound } from '../errors';
import { findShop } from '../store/shops';

export function shopRoutes(deps: AppDeps): Hono<AppEnv> {
  const app = new Hono<AppEnv>();
  app.get('/shops', async (c) => {
    const row = await findShop(deps.db, c.get('shopId'));
    if (!row) throw notFound('unknown_shop', 'The shop does not exist');
    const settings = JSON.parse(row.settings) as Record<string, unknown>;
    return c.json({
      shop: { id: row.id, name: row.name, email: row.email, domain: row.id, shopifyDomain: row.id, plan: row.plan, installedAt: row.created_at, settings },
      shopInfo: { currency: row.currency, ianaTimezone: row.iana_timezone, planName: row.plan, shopOwner: row.name },
    });
  });
  return app;
}
