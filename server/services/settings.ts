/**
 * Shop settings (spec 002 §2 Settings sections, §3 "Exchange rate", "Revoke settings", "Other
 * settings", §4 sandbox → live): one `settings.shop` document per shop (schemas/settings/shop),
 * one top-level object per section. `shopSettings` is what the rest of the server reads — typed and
 * complete, the schema's defaults standing in for anything never saved — and `saveSettingsSection`
 * is the one write path (schema validation with field paths, the sandbox → live confirmation).
 */
import { createHash, randomBytes } from 'node:crypto';
import type { OrderEvaluation, ProgramDecision } from '../../engine/earning';
import type { Json, JsonObject, StoredDocument } from '../../engine/types';
import type { Db } from '../db/database';
import type { AppDeps } from '../deps';
import { ApiError } from '../errors';
import { checkGate } from '../../engine/gates';
import { listDocuments } from '../store/documents';
import { findShop } from '../store/shops';
import { shopContext } from './shop-context';
import { createDocument, kindOrThrow, replaceDocument, type AfterWrite } from './documents';
import type { RfmGroup } from '../platform/customer-segments';
import { applySegmentRule, excludedGroupsOf } from './segments';

/** The settings document's kind id. */
export const SETTINGS_KIND = 'settings.shop';

/** The sections `GET/PUT /api/settings/:section` serve, as the document's top-level keys. */
export const SETTINGS_SECTIONS = ['general', 'email', 'prelaunch', 'order', 'colors', 'developers', 'segments'] as const;
export type SettingsSection = (typeof SETTINGS_SECTIONS)[number];

/** The revoke window's unit (spec 002 §3 Revoke settings "timeframe unit"). */
export type RevokeTimeframe = 'day' | 'week' | 'month' | 'year';

/** A shop's settings, every field present. */
export interface ShopSettings {
  general: {
    /** Off: the widget is hidden and nothing is earned or redeemed. */
    appStatus: boolean;
    /** The custom point label (spec 002 §3 "point labels (singular, plural, position)"). */
    pointLabel: { singular: string; plural: string; position: 'after' | 'before' };
    dateFormat: 'MM/DD/YYYY' | 'DD/MM/YYYY' | 'YYYY/MM/DD';
    /** IANA time zone; '' = the store's own (shops.iana_timezone). */
    timezone: string;
    tierCalculation: 'points_earned' | 'amount_spent' | 'number_of_orders';
    customerAccountUrls: { login?: string; register?: string };
  };
  email: { senderName: string; replyTo: string; weeklyReport: boolean };
  /** Sandbox: only customers on `testCustomers` (e-mails, any case, or platform customer ids) earn points. */
  prelaunch: { mode: 'sandbox' | 'live'; testCustomers: string[] };
  order: {
    /** Points per one major unit of the store's currency; > 0. */
    exchangeRate: number;
    customerEligibility: 'all_members' | 'everyone' | 'vip_members';
    cartBehaviour: 'apply_to_cart' | 'show_code';
    /** Coupon self-revoke: within `timeLimitSeconds` of redeeming, at most `limit` times per `timeframe`. */
    couponRevoke: { enabled: boolean; timeLimitSeconds: number; limit: number; timeframe: RevokeTimeframe };
  };
  colors: { brand: string; brandText: string; loyaltyPageBackground: string; loyaltyPageText: string };
  developers: { deeplinks: boolean };
  /** Customer segments (spec 002 §2 RFM groups): members in these groups leave the program (server/services/segments.ts). */
  segments: { excludedRfmGroups: RfmGroup[] };
}

/** The schema's defaults (schemas/settings/shop/schema.json); tests/api/settings.test.ts checks they agree. */
export const DEFAULT_SETTINGS: ShopSettings = {
  general: {
    appStatus: true,
    pointLabel: { singular: 'point', plural: 'points', position: 'after' },
    dateFormat: 'MM/DD/YYYY',
    timezone: '',
    tierCalculation: 'points_earned',
    customerAccountUrls: {},
  },
  email: { senderName: '', replyTo: '', weeklyReport: true },
  prelaunch: { mode: 'live', testCustomers: [] },
  order: {
    exchangeRate: 1,
    customerEligibility: 'all_members',
    cartBehaviour: 'apply_to_cart',
    couponRevoke: { enabled: false, timeLimitSeconds: 86_400, limit: 1, timeframe: 'month' },
  },
  colors: { brand: '#5c6ac4', brandText: '#ffffff', loyaltyPageBackground: '#ffffff', loyaltyPageText: '#202223' },
  developers: { deeplinks: true },
  segments: { excludedRfmGroups: [] },
};

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** `base` with every key `over` holds replaced; nested objects merged the same way, arrays replaced. */
function merge<T>(base: T, over: unknown): T {
  if (!isObject(base) || !isObject(over)) return (over === undefined ? base : over) as T;
  const out: Record<string, unknown> = { ...base };
  for (const [key, value] of Object.entries(over)) out[key] = merge((base as Record<string, unknown>)[key], value);
  return out as T;
}

/** The shop's settings document, if it was ever saved. */
export async function settingsDocument(db: Db, shopId: string): Promise<StoredDocument | undefined> {
  return (await listDocuments(db, shopId, [SETTINGS_KIND]))[0];
}

/**
 * The shop's settings with defaults for anything never saved (spec 002 §2, §3). Read by the engine
 * path (`sandboxFilter` in ingestOrder), redemption (`order.couponRevoke`) and the storefront
 * (`general.pointLabel`).
 * @param shopId the tenant (shop domain)
 * @example (await shopSettings(db, shop)).order.couponRevoke // { enabled: false, timeLimitSeconds: 86400, limit: 1, timeframe: 'month' }
 */
export async function shopSettings(db: Db, shopId: string): Promise<ShopSettings> {
  const doc = await settingsDocument(db, shopId);
  return merge(DEFAULT_SETTINGS, doc?.data ?? {});
}

/** The section name, or ApiError 404 `unknown_settings_section`. */
export function sectionOrThrow(name: string): SettingsSection {
  const found = SETTINGS_SECTIONS.find((s) => s === name);
  if (!found) throw new ApiError(404, 'unknown_settings_section', `There is no settings section "${name}"`);
  return found;
}

/**
 * Saves one section (the whole section object; omitted fields take their defaults) and answers
 * the shop's settings. Validation runs over the whole document, so issues carry full paths such as
 * `/order/exchangeRate`.
 * - Sandbox → live (spec 002 §4) needs `confirm: true` in the body: without it ApiError 409
 *   `confirmation_required`.
 * - The segments section applies the segment rule (server/services/segments.ts) in the same
 *   transaction: members of newly excluded RFM groups leave, segment-left customers of groups no
 *   longer excluded return, each with an event naming `actor`.
 * - A custom point label is an Essential feature (spec 002 §6, rules/plan-gates.json
 *   `custom_point_label`): changing the label away from "point"/"points" on a lower plan is a 403
 *   `plan_gate` at `/general/pointLabel`; a label already saved may stay.
 * @throws ApiError 422 `validation_failed` with field paths; 409 `version_conflict` when another
 *   save raced this one twice in a row.
 */
export async function saveSettingsSection(deps: AppDeps, shopId: string, section: SettingsSection, body: Record<string, unknown>, actor = 'system'): Promise<ShopSettings> {
  const kind = kindOrThrow(deps, SETTINGS_KIND);
  const { confirm, ...values } = body;
  for (let attempt = 0; ; attempt++) {
    const doc = await settingsDocument(deps.db, shopId);
    const current = merge(DEFAULT_SETTINGS, doc?.data ?? {});
    if (section === 'prelaunch' && current.prelaunch.mode === 'sandbox' && values.mode === 'live' && confirm !== true) {
      throw new ApiError(409, 'confirmation_required', 'Going live lets every customer earn points. Confirm to switch to live mode.', [{ path: '/prelaunch/mode', message: 'Confirm to switch to live mode' }]);
    }
    if (section === 'general') await assertPointLabelAllowed(deps.db, shopId, current, values);
    const data: JsonObject = { ...((doc?.data ?? {}) as JsonObject), [section]: values as Json };
    // The segments section moves customers in and out of the program in the save's transaction.
    const afterWrite: AfterWrite | undefined =
      section === 'segments' ? async (tx, stored) => void (await applySegmentRule(tx, shopId, excludedGroupsOf(stored.data as { segments?: { excludedRfmGroups?: unknown[] } }), (deps.now ?? (() => new Date()))().toISOString(), actor)) : undefined;
    try {
      if (!doc) await createDocument(deps, shopId, kind, data, actor, afterWrite);
      else await replaceDocument(deps, shopId, kind, doc.id, doc.version, data, actor, afterWrite);
      return shopSettings(deps.db, shopId);
    } catch (error) {
      // Two sections saved at once: the later one re-reads and applies its own section again.
      const retry = error instanceof ApiError && (error.code === 'version_conflict' || error.code === 'singleton_exists') && attempt === 0;
      if (!retry) throw error;
    }
  }
}

/** 403 `plan_gate` when the shop's plan lacks custom point labels and the save changes the label to a custom one. */
async function assertPointLabelAllowed(db: Db, shopId: string, current: ShopSettings, values: Record<string, unknown>): Promise<void> {
  const wanted = merge(DEFAULT_SETTINGS.general.pointLabel, values.pointLabel);
  const same = (a: ShopSettings['general']['pointLabel'], b: ShopSettings['general']['pointLabel']) => a.singular === b.singular && a.plural === b.plural;
  if (same(wanted, DEFAULT_SETTINGS.general.pointLabel) || same(wanted, current.general.pointLabel)) return;
  const shop = await findShop(db, shopId);
  if (!shop) return;
  const answer = await checkGate('custom_point_label', shopContext(shop).gate);
  if (answer.allowed) return;
  throw new ApiError(403, 'plan_gate', `Custom point labels are available on the ${answer.unlockPlan ?? 'a higher'} plan. ${answer.reason}`, [{ path: '/general/pointLabel', message: answer.reason }]);
}

/** Whether a customer may earn in this shop's pre-launch mode: everyone when live; in sandbox only the test list (e-mail, any case, or customer id). */
export function onTestList(settings: ShopSettings, customer: { id: string; email: string } | null): boolean {
  if (settings.prelaunch.mode === 'live') return true;
  if (!customer) return false;
  const email = customer.email.trim().toLowerCase();
  return settings.prelaunch.testCustomers.some((entry) => entry === customer.id || (email !== '' && entry.trim().toLowerCase() === email));
}

/**
 * Sandbox mode (spec 002 §1, §4: "only test-list customers earn points"): in a sandbox shop an
 * order of a customer who is not on the test list earns nothing — every award becomes a
 * `customer_not_eligible` denial that says why, so the order's evaluation explains it. Live shops
 * and test-list customers pass unchanged.
 * @returns the evaluation to record (points in whole points)
 */
export function sandboxFilter(evaluation: OrderEvaluation, settings: ShopSettings, customer: { id: string; email: string } | null): OrderEvaluation {
  if (onTestList(settings, customer)) return evaluation;
  const decisions = evaluation.decisions.map(
    (d): ProgramDecision =>
      d.outcome === 'award'
        ? { ...d, outcome: 'deny', points: 0, reason: 'customer_not_eligible', lineAllocations: [], message: `${d.programTitle}: sandbox mode — only customers on the test list earn points.` }
        : d,
  );
  return { ...evaluation, decisions, totalPoints: 0 };
}

/** The app credentials the Developers section shows (spec 002 §3 App credentials); the secret itself is never stored. */
export interface AppCredentials {
  appId: string;
  /** Last 4 characters of the current secret key, or null before one was generated. */
  secretHint: string | null;
  createdAt: string | null;
}

/** The shop's app id (stable, derived from nothing secret) and the hint of its current secret key. */
export async function appCredentials(db: Db, shopId: string): Promise<AppCredentials> {
  const row = await db.selectFrom('app_credentials').selectAll().where('shop_id', '=', shopId).executeTakeFirst();
  return row ? { appId: row.app_id, secretHint: row.secret_hint, createdAt: row.created_at } : { appId: '', secretHint: null, createdAt: null };
}

/**
 * Generates a new secret key (spec 002 §7 "generate the secret key"), replacing the old one: 32
 * random bytes as 64 hex characters, answered once; only its SHA-256 and last 4 characters are kept.
 * @returns the credentials and the `secretKey` to show now
 */
export async function generateSecretKey(db: Db, shopId: string, nowIso: string): Promise<AppCredentials & { secretKey: string }> {
  const secretKey = randomBytes(32).toString('hex');
  const existing = await appCredentials(db, shopId);
  const appId = existing.appId || `app_${randomBytes(8).toString('hex')}`;
  const row = { shop_id: shopId, app_id: appId, secret_sha256: createHash('sha256').update(secretKey).digest('hex'), secret_hint: secretKey.slice(-4), created_at: nowIso };
  await db
    .insertInto('app_credentials')
    .values(row)
    .onConflict((oc) => oc.column('shop_id').doUpdateSet({ secret_sha256: row.secret_sha256, secret_hint: row.secret_hint, created_at: row.created_at }))
    .execute();
  return { appId, secretHint: row.secret_hint, createdAt: nowIso, secretKey };
}
