/**
 * Demo data for first start in demo mode (README "Demo mode"): the demo shop, one active
 * place-order program with the spec's defaults, and a write-review program that waits for approval
 * with two reviews waiting (so Customers → Review approvals shows the flow), created only when the
 * shop has no documents.
 */
import type { Registry } from '../engine/registry';
import { DEMO } from './config';
import type { Db } from './db/database';
import { ensureShop } from './store/shops';
import { insertDocument, listDocuments } from './store/documents';
import { recordReview } from './services/reviews';

/** Seeds the demo shop once; later starts leave the merchant's changes alone. */
export async function seedDemoShop(db: Db, registry: Registry, now: Date): Promise<void> {
  const iso = now.toISOString();
  await ensureShop(db, DEMO.shopDomain, iso, {
    name: 'Demo Shop',
    email: 'owner@demo-shop.example',
    currency: 'USD',
    iana_timezone: 'America/New_York',
    plan: 'advanced_2025',
    // The demo shows the app itself; the setup wizard is at /set-up (a new shop starts there).
    setup_done_at: iso,
    settings: JSON.stringify({ primaryLanguageInApp: 'en', isShowSettingLanguage: true, shopifyPlan: 'basic', pendingPoints: { enabled: false, days: 14 } }),
  });
  if ((await listDocuments(db, DEMO.shopDomain)).length > 0) return;
  const placeOrder = registry.get('earning.place_order');
  if (!placeOrder) return;
  const outcome = placeOrder.validate({ title: 'Place an order' });
  if (outcome.ok) await insertDocument(db, DEMO.shopDomain, placeOrder.id, placeOrder.version, outcome.data, iso);
  const writeReview = registry.get('earning.write_review');
  const reviewProgram = writeReview?.validate({ title: 'Product reviews', status: true, earnPoint: 50, mediaBonusPoints: 20, reviewStatus: 'pending' });
  if (!writeReview || !reviewProgram?.ok) return;
  await insertDocument(db, DEMO.shopDomain, writeReview.id, writeReview.version, reviewProgram.data, iso);
  const deps = { db, now: () => now };
  for (const [n, first, last, rating, content, media, product] of [
    [1, 'Mia', 'Jensen', 5, 'Soft, warm and the colour is exactly as pictured. Second one ordered already.', true, 'Merino scarf'],
    [2, 'Noah', 'Okafor', 4, 'Good fit; the sleeves run a little long for me.', false, 'Linen shirt'],
  ] as const) {
    await recordReview(deps, DEMO.shopDomain, {
      source: 'review_app',
      externalId: `demo-review-${n}`,
      customer: { id: `${9100000000000000000n + BigInt(n)}`, email: `${first.toLowerCase()}@example.com`, firstName: first, lastName: last },
      rating,
      title: '',
      content,
      hasMedia: media,
      productTitle: product,
    });
  }
}
