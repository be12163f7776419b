/**
 * `POST /api/shop` (spec 000 §7 "partial shop body"): the shop fields the admin itself writes, each
 * with its check. Any other field is refused (422 naming it); nothing is written unless the whole
 * body is valid.
 * - `promoShowAt`, `promoHolidaySaleShowAt`: when a promo popup was last dismissed (ISO 8601), spec
 *   000 §2 "sale and holiday promo popups" (server/services/billing-offers.ts reads them);
 * - `bannersDismiss`: banner ids to add to the shop's list (spec 000 §4 "Dismissing a banner adds
 *   its id to the shop's bannersDismiss list"). The list only grows: the ids sent are added to the
 *   stored ones in one transaction, so sending an id twice, or two tabs dismissing two banners at
 *   once, loses nothing and duplicates nothing.
 * The spec's other partial-shop fields (accessAppAt, isFirstLogin, typeBannerDismiss,
 * aiAssistantConsent…) have no screen here yet and are refused like any unknown field.
 *
 * @example
 * await saveShopFields(deps, shopId, { bannersDismiss: ['booking_popup'] });
 * // → { bannersDismiss: ['booking_popup'] }
 */
import type { AppDeps } from '../deps';
import type { FieldIssue } from '../../engine/types';
import { ApiError, notFound } from '../errors';
import { findShop, updateShopSettingsWith } from '../store/shops';
import { dismissedBanners } from './booking-popup';

/** A banner id: letters, digits, `_`, `-`, `.` or `:`, 1 to 64 characters, starting with a letter or digit. */
export const BANNER_ID = /^[A-Za-z0-9][A-Za-z0-9_.:-]{0,63}$/;
/** At most this many ids in one request. */
export const MAX_BANNERS_PER_REQUEST = 20;
/** At most this many ids kept on a shop (the list only grows, so it is bounded). */
export const MAX_BANNERS_DISMISSED = 200;

/** The fields `POST /api/shop` takes. */
export const SHOP_FIELDS = ['promoShowAt', 'promoHolidaySaleShowAt', 'bannersDismiss'] as const;
export type ShopField = (typeof SHOP_FIELDS)[number];

/** What `POST /api/shop` answers: each field of the body as stored after the change. */
export type SavedShopFields = Partial<Record<'promoShowAt' | 'promoHolidaySaleShowAt', string> & { bannersDismiss: string[] }>;

const isDate = (value: unknown): boolean => typeof value === 'string' && value !== '' && !Number.isNaN(Date.parse(value));

/** Problems with one field's value, with their JSON pointers. */
function fieldIssues(key: ShopField, value: unknown): FieldIssue[] {
  if (key !== 'bannersDismiss') return isDate(value) ? [] : [{ path: `/${key}`, message: 'Must be a date and time (ISO 8601)' }];
  if (!Array.isArray(value) || value.length === 0) return [{ path: '/bannersDismiss', message: 'Must be a list of banner ids' }];
  if (value.length > MAX_BANNERS_PER_REQUEST) return [{ path: '/bannersDismiss', message: `At most ${MAX_BANNERS_PER_REQUEST} banner ids at once` }];
  return value.flatMap((id, i) => (typeof id === 'string' && BANNER_ID.test(id) ? [] : [{ path: `/bannersDismiss/${i}`, message: 'Must be a banner id (letters, digits, _ - . :, at most 64 characters)' }]));
}

/**
 * Validates and saves a partial shop body (see the module comment).
 * @param body the parsed JSON body
 * @returns each field of the body as stored (`bannersDismiss`: the whole list after the addition)
 * @throws ApiError 404 `unknown_shop`; 422 `validation_failed` naming each unknown field or bad value
 *   (`/bannersDismiss/1`), an empty body, or a list that would pass MAX_BANNERS_DISMISSED
 */
export async function saveShopFields(deps: Pick<AppDeps, 'db' | 'now'>, shopId: string, body: Record<string, unknown>): Promise<SavedShopFields> {
  if (!(await findShop(deps.db, shopId))) throw notFound('unknown_shop', 'The shop does not exist');
  const details = Object.entries(body).flatMap(([key, value]) =>
    (SHOP_FIELDS as readonly string[]).includes(key) ? fieldIssues(key as ShopField, value) : [{ path: `/${key}`, message: `Unknown field "${key}"` }],
  );
  if (Object.keys(body).length === 0) details.push({ path: '', message: `Send at least one of ${SHOP_FIELDS.join(', ')}` });
  if (details.length > 0) throw new ApiError(422, 'validation_failed', 'Failed to change settings', details);

  const added = Array.isArray(body.bannersDismiss) ? (body.bannersDismiss as string[]) : null;
  let tooMany = false;
  const saved = await updateShopSettingsWith(
    deps.db,
    shopId,
    (current) => {
      const { bannersDismiss: _ids, ...patch } = body;
      if (!added) return patch;
      const list = [...new Set([...dismissedBanners(current), ...added])];
      tooMany = list.length > MAX_BANNERS_DISMISSED;
      // Over the cap nothing changes: the transaction writes the settings back as they were.
      return tooMany ? {} : { ...patch, bannersDismiss: list };
    },
    (deps.now?.() ?? new Date()).toISOString(),
  );
  if (tooMany) throw new ApiError(422, 'validation_failed', 'Failed to change settings', [{ path: '/bannersDismiss', message: `A shop keeps at most ${MAX_BANNERS_DISMISSED} dismissed banners` }]);
  const answer: SavedShopFields = {};
  for (const key of SHOP_FIELDS) {
    if (!(key in body)) continue;
    if (key === 'bannersDismiss') answer.bannersDismiss = dismissedBanners(saved);
    else if (typeof saved[key] === 'string') answer[key] = saved[key];
  }
  return answer;
}
