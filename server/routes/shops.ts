/**
 * `GET /shops` (spec 000 §7): the active shop and the platform's shop info, and whether the floating
 * booking popup shows (`bookingPopup`, spec 000 §4; server/services/booking-popup.ts).
 * `POST /shop` (spec 000 §7 "partial shop body"): promo popups' dismissal times and dismissed
 * banners (server/services/shop-fields.ts).
 * `POST /lp/settings` (spec 000 §4 Language switch): saves the in-app language.
 */
import { Hono } from 'hono';
import { IN_APP_LANGUAGES, isInAppLanguage } from '../../engine/i18n';
import type { AppDeps, AppEnv } from '../deps';
import { ApiError, notFound } from '../errors';
import { bookingPopupForShop } from '../services/booking-popup';
import { saveShopFields } from '../services/shop-fields';
import { findShop, shopSettings, updateShopSettings } from '../store/shops';
import { readJsonBody } from './body';

/** Settings a merchant may change through `POST /lp/settings`, with their check. */
const WRITABLE_SETTINGS: Readonly<Record<string, { valid: (value: unknown) => boolean; message: string }>> = {
  primaryLanguageInApp: { valid: isInAppLanguage, message: `Must be one of ${IN_APP_LANGUAGES.join(', ')}` },
};

export function shopRoutes(deps: AppDeps): Hono<AppEnv> {
  const app = new Hono<AppEnv>();
  /**
   * Answers `{ shop, shopInfo, bookingPopup }`; `bookingPopup` is `{ show, hiddenBecause }`
   * (BookingPopupDecision), decided here so the admin only draws it.
   */
  app.get('/shops', async (c) => {
    const row = await findShop(deps.db, c.get('shopId'));
    if (!row) throw notFound('unknown_shop', 'The shop does not exist');
    const settings = shopSettings(row);
    return c.json({
      shop: { id: row.id, name: row.name, email: row.email, domain: row.id, shopifyDomain: row.id, plan: row.plan, installedAt: row.created_at, setupDone: Boolean(row.setup_done_at), settings },
      shopInfo: { currency: row.currency, ianaTimezone: row.iana_timezone, planName: row.plan, shopOwner: row.name },
      bookingPopup: bookingPopupForShop(row, settings, deps.now?.() ?? new Date()),
    });
  });

  /**
   * Body: any of `{ promoShowAt, promoHolidaySaleShowAt, bannersDismiss }` (ISO 8601 times; banner
   * ids to add). Answers `{ data }`, each field sent as stored (`bannersDismiss`: the whole list).
   * 422 `validation_failed` names each unknown field or bad value; nothing is written then.
   */
  app.post('/shop', async (c) => c.json({ data: await saveShopFields(deps, c.get('shopId'), await readJsonBody(c)) }));

  /**
   * Body `{ primaryLanguageInApp }` (one of the in-app languages). Answers `{ settings }`, every
   * setting of the shop after the change. 422 `validation_failed` names each bad field; nothing is
   * written then.
   */
  app.post('/lp/settings', async (c) => {
    const shopId = c.get('shopId');
    if (!(await findShop(deps.db, shopId))) throw notFound('unknown_shop', 'The shop does not exist');
    const body = await readJsonBody(c);
    const details = Object.entries(body).flatMap(([key, value]) => {
      // Own keys only: `toString` or `__proto__` in a body must not find Object.prototype's members.
      const rule = Object.hasOwn(WRITABLE_SETTINGS, key) ? WRITABLE_SETTINGS[key] : undefined;
      if (!rule) return [{ path: `/${key}`, message: `Unknown field "${key}"` }];
      return rule.valid(value) ? [] : [{ path: `/${key}`, message: rule.message }];
    });
    if (Object.keys(body).length === 0) details.push({ path: '/primaryLanguageInApp', message: 'This field is required' });
    if (details.length > 0) throw new ApiError(422, 'validation_failed', 'Failed to save language', details);
    const settings = await updateShopSettings(deps.db, shopId, body, (deps.now?.() ?? new Date()).toISOString());
    return c.json({ settings });
  });
  return app;
}
