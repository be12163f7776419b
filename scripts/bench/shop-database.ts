/**
 * A migrated SQLite file with one shop (USD, America/New_York, enterprise plan) and the 10
 * place-order programs of ./programs.ts, validated as the API would: what bench:ingest and
 * bench:lift start their servers on. Throws when a program does not validate.
 */
import { join } from 'node:path';
import { loadRegistry } from '../../engine/registry';
import { openDatabase } from '../../server/db/database';
import { insertDocument } from '../../server/store/documents';
import { ensureShop } from '../../server/store/shops';
import { PROGRAM_DATA } from './programs';

/** Creates `path` (migrations included) with shop `shop` and the bench programs; `root` is the repository (its `schemas/`). */
export async function prepareBenchShopDatabase(path: string, shop: string, root: string): Promise<void> {
  const registry = loadRegistry(join(root, 'schemas'));
  const db = await openDatabase(path);
  const now = new Date().toISOString();
  await ensureShop(db, shop, now, { currency: 'USD', iana_timezone: 'America/New_York', plan: 'enterprise_2025', settings: JSON.stringify({ shopifyPlan: 'shopify_plus' }) });
  const kind = registry.get('earning.place_order')!;
  for (const data of PROGRAM_DATA) {
    const outcome = kind.validate({ status: true, statusUseCondition: true, ...data });
    if (!outcome.ok) throw new Error(`bench program "${String(data.title)}" does not validate: ${JSON.stringify(outcome.issues)}`);
    await insertDocument(db, shop, kind.id, kind.version, outcome.data, now);
  }
  await db.destroy();
}
