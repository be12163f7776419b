/**
 * The first-time setup (issue 12; spec 000 §2 "If the shop's setup is not done, a setup page
 * replaces the app"; spec 002 §2 "a first-time setup wizard (earning, redeeming, widget theme
 * steps)"). The shop's flag is `shops.setup_done_at` (migration 0028): null while not done. The
 * wizard's steps write ordinary documents through the documents API; this service only reports
 * what each step has produced so far and keeps the flag.
 */
import type { AppDeps } from '../deps';
import { notFound } from '../errors';
import { listDocuments } from '../store/documents';
import { findShop } from '../store/shops';

/** The kind the widget-theme step saves (H5's storefront widget design, one per shop). */
export const WIDGET_DESIGN_KIND = 'storefront.widget_design';

/** `GET /api/setup`: the flag and what each wizard step has produced. */
export interface SetupState {
  /** False while the setup page replaces the app. */
  setupDone: boolean;
  /** When it was finished or skipped (ISO 8601), or null. */
  setupDoneAt: string | null;
  steps: {
    /** The shop has at least one earning program switched on. */
    earning: boolean;
    /** The shop has at least one redeem (reward) program switched on. */
    redeeming: boolean;
    /** The shop has saved a widget design. */
    widgetTheme: boolean;
  };
}

/**
 * The shop's setup state.
 * @throws ApiError 404 `unknown_shop`
 */
export async function setupState(deps: Pick<AppDeps, 'db' | 'registry'>, shopId: string): Promise<SetupState> {
  const shop = await findShop(deps.db, shopId);
  if (!shop) throw notFound('unknown_shop', 'The shop does not exist');
  const byFamily = (family: string) => deps.registry.kinds.filter((k) => k.family === family).map((k) => k.id);
  const earningKinds = byFamily('earning');
  const redeemKinds = byFamily('redeem');
  const docs = await listDocuments(deps.db, shopId, [...earningKinds, ...redeemKinds, WIDGET_DESIGN_KIND]);
  const on = (kinds: string[]) => docs.some((d) => kinds.includes(d.kind) && (d.data as { status?: unknown }).status === true);
  return {
    setupDone: Boolean(shop.setup_done_at),
    setupDoneAt: shop.setup_done_at ?? null,
    steps: { earning: on(earningKinds), redeeming: on(redeemKinds), widgetTheme: docs.some((d) => d.kind === WIDGET_DESIGN_KIND) },
  };
}

/**
 * Marks the shop's setup done (finished or skipped: the app shows its screens) or not done (the
 * merchant runs the wizard again; the setup page replaces the app until it is done).
 * @throws ApiError 404 `unknown_shop`
 */
export async function setSetupDone(deps: Pick<AppDeps, 'db' | 'registry' | 'now'>, shopId: string, done: boolean): Promise<SetupState> {
  const at = (deps.now?.() ?? new Date()).toISOString();
  const result = await deps.db
    .updateTable('shops')
    .set({ setup_done_at: done ? at : null, updated_at: at })
    .where('id', '=', shopId)
    .executeTakeFirst();
  if (Number(result.numUpdatedRows) === 0) throw notFound('unknown_shop', 'The shop does not exist');
  return setupState(deps, shopId);
}
