/**
 * The storefront and branding sections the widget shows (issue 13; spec 000 §2 Storefront and
 * Branding routes): every saved document of a `storefront.*` kind other than the widget design,
 * switched on, by the kind's name; and the place-order rate for the point calculator.
 */
import type { EarnRate, StorefrontSections } from '../../engine/widget-design';
import type { AppDeps } from '../deps';
import { listDocuments } from '../store/documents';

/** The widget design's kind: served as `design`, not as a section. */
const DESIGN_KIND = 'storefront.widget_design';

/** The shop's sections switched on, and its earning rate; read on each widget view (no cache: a save shows on the next page). */
export async function storefrontSections(deps: AppDeps, shopId: string): Promise<{ sections: StorefrontSections; earnRate: EarnRate | null }> {
  const kinds = deps.registry.kinds.filter((k) => k.family === 'storefront' && k.id !== DESIGN_KIND);
  const [docs, orders] = await Promise.all([kinds.length > 0 ? listDocuments(deps.db, shopId, kinds.map((k) => k.id)) : Promise.resolve([]), listDocuments(deps.db, shopId, ['earning.place_order'])]);
  const sections: StorefrontSections = {};
  for (const doc of docs) {
    if (doc.data.enabled === false) continue;
    sections[doc.kind.slice('storefront.'.length)] = doc.data;
  }
  const byOrder = orders.find((d) => d.data.status === true && (d.data.earnBy ?? 'order') === 'order' && typeof d.data.earnPoint === 'number' && typeof d.data.rateMoney === 'number');
  const earnRate = byOrder ? { points: byOrder.data.earnPoint as number, per: byOrder.data.rateMoney as number } : null;
  return { sections, earnRate };
}
