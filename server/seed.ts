/**
 * Demo data for first start in demo mode (README "Demo mode"): the demo shop and one active
 * place-order program with the spec's defaults, created only when the shop has no documents.
 */
import type { Registry } from '../engine/registry';
import { DEMO } from './config';
import type { Db } from './db/database';
import { ensureShop } from './store/shops';
import { insertDocument, listDocuments } from './store/documents';

/** Seeds the demo shop once; later starts leave the merchant's changes alone. */
export async function seedDemoShop(db: Db, registry: Registry, now: Date): Promise<void> {
  const iso = now.toISOString();
  await ensureShop(db, DEMO.shopDomain, iso, {
    name: 'Demo Shop',
    email: 'owner@demo-shop.example',
    currency: 'USD',
    iana_timezone: 'America/New_York',
    plan: 'advanced_2025',
    settings: JSON.stringify({ primaryLanguageInApp: 'en', isShowSettingLanguage: true, shopifyPlan: 'basic', pendingPoints: { enabled: false, days: 14 } }),
  });
  if ((await listDocuments(db, DEMO.shopDomain)).length > 0) return;
  const placeOrder = registry.get('earning.place_order');
  if (!placeOrder) return;
  const outcome = placeOrder.validate({ title: 'Place an order' });
  if (outcome.ok) await insertDocument(db, DEMO.shopDomain, placeOrder.id, placeOrder.version, outcome.data, iso);
}
