/** Shops: the tenant rows. `id` is the shop's platform domain. */
import type { Db } from '../db/database';
import type { ShopsTable } from '../db/tables';

/** Defaults for a shop seen for the first time (plan free until billing says otherwise). */
export function newShopRow(domain: string, now: string, overrides: Partial<ShopsTable> = {}): ShopsTable {
  return {
    id: domain,
    name: domain.replace(/\.myshopify\.com$/, ''),
    email: '',
    plan: 'free',
    currency: 'USD',
    iana_timezone: 'UTC',
    settings: JSON.stringify({ primaryLanguageInApp: 'en', isShowSettingLanguage: false }),
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
