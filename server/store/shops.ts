/** Shops: the tenant rows. `id` is the shop's platform domain. */
import type { Db } from '../db/database';
import type { ShopsTable } from '../db/tables';

/**
 * Settings every shop has unless it changed them (spec 000 §3 Shop.settings): the in-app language
 * and whether page headers show the language switcher.
 */
export const SHOP_SETTING_DEFAULTS: Readonly<Record<string, unknown>> = {
  primaryLanguageInApp: 'en',
  isShowSettingLanguage: true,
  // Point expiry (spec 002 §1, §9; no template holds it, so it is a shop setting): off until the
  // merchant turns it on; points expire 12 months after they were earned; reminders 7 and 3 days
  // before (server/services/expiry.ts, engine/expiry.ts).
  pointExpiry: { enabled: false, afterValue: 12, afterUnit: 'month', reminderDaysBefore: [7, 3] },
};

/** The shop's settings: its stored JSON over SHOP_SETTING_DEFAULTS. */
export function shopSettings(row: Pick<ShopsTable, 'settings'>): Record<string, unknown> {
  return { ...SHOP_SETTING_DEFAULTS, ...(JSON.parse(row.settings) as Record<string, unknown>) };
}

/**
 * Merges `patch` into the shop's settings in one transaction (no lost update between the read and
 * the write) and answers the settings as stored.
 * @throws Error when the shop does not exist (callers check first)
 */
export async function updateShopSettings(db: Db, domain: string, patch: Record<string, unknown>, now: string): Promise<Record<string, unknown>> {
  return updateShopSettingsWith(db, domain, () => patch, now);
}

/**
 * Like updateShopSettings, with the patch computed from the settings as they are inside the
 * transaction, for changes that depend on the stored value (adding to a list such as
 * `bannersDismiss` without losing a concurrent addition).
 * @throws Error when the shop does not exist (callers check first)
 */
export async function updateShopSettingsWith(db: Db, domain: string, patchOf: (current: Record<string, unknown>) => Record<string, unknown>, now: string): Promise<Record<string, unknown>> {
  return db.transaction().execute(async (trx) => {
    // The row is locked before it is read: a write that changes nothing takes PostgreSQL's row lock
    // until the commit, so two changes at once (a settings save and a banner dismissal) are applied
    // one after the other rather than the second overwriting the first with what it read. SQLite's
    // transactions already begin IMMEDIATE, one writer at a time.
    await trx.updateTable('shops').set((eb) => ({ updated_at: eb.ref('updated_at') })).where('id', '=', domain).execute();
    const row = await trx.selectFrom('shops').select('settings').where('id', '=', domain).executeTakeFirst();
    if (!row) throw new Error(`updateShopSettings: no shop ${domain}`);
    const current = shopSettings(row);
    const settings = { ...current, ...patchOf(current) };
    await trx.updateTable('shops').set({ settings: JSON.stringify(settings), updated_at: now }).where('id', '=', domain).execute();
    return settings;
  });
}

/** Defaults for a shop seen for the first time (plan free until billing says otherwise). */
export function newShopRow(domain: string, now: string, overrides: Partial<ShopsTable> = {}): ShopsTable {
  return {
    id: domain,
    name: domain.replace(/\.myshopify\.com$/, ''),
    email: '',
    plan: 'free',
    currency: 'USD',
    iana_timezone: 'UTC',
    settings: JSON.stringify(SHOP_SETTING_DEFAULTS),
    created_at: now,
    updated_at: now,
    ...overrides,
  };
}

/** Creates the shop row if it does not exist yet (idempotent). */
export async function ensureShop(db: Db, domain: string, now: string, overrides: Partial<ShopsTable> = {}): Promise<void> {
  await db.insertInto('shops').values(newShopRow(domain, now, overrides)).onConflict((oc) => oc.column('id').doNothing()).execute();
}

/** The shop row, or undefined. */
export function findShop(db: Db, domain: string): Promise<ShopsTable | undefined> {
  return db.selectFrom('shops').selectAll().where('id', '=', domain).executeTakeFirst();
}

/** How long a shop found installed is admitted without looking again (ms). */
export const INSTALLED_CACHE_MS = 60_000;

/**
 * Admission of a shop at a door that must stay cheap (the webhook route, the storefront's visit
 * ping, every admin API call): a shop found installed is admitted for INSTALLED_CACHE_MS without
 * another read. Only the admission is cached; whatever processes the request reads the shop
 * itself. A shop row is never deleted (`shop/redact` leaves a tombstone), so an admission never
 * outlives its row. createApp makes one per app and hands it to each door.
 */
export class InstalledShops {
  /** Shop domain → until when (epoch ms) it is admitted without a read. */
  private readonly seen = new Map<string, number>();

  constructor(private readonly db: Db) {}

  /** Whether `shopId` has a shop row (the app is installed there). */
  async has(shopId: string): Promise<boolean> {
    if ((this.seen.get(shopId) ?? 0) > Date.now()) return true;
    if (!(await findShop(this.db, shopId))) return false;
    this.remember(shopId);
    return true;
  }

  /**
   * Makes sure the shop row exists (the session middleware: a verified session token for a shop
   * the app has not seen creates its row). A known shop costs nothing; an unknown one is read,
   * and inserted (ensureShop) only when missing, so an admin read never takes the write lock.
   */
  async ensure(shopId: string, now: string): Promise<void> {
    if (await this.has(shopId)) return;
    await ensureShop(this.db, shopId, now);
    this.remember(shopId);
  }

  private remember(shopId: string): void {
    if (this.seen.size >= 10_000) this.seen.clear();
    this.seen.set(shopId, Date.now() + INSTALLED_CACHE_MS);
  }
}
