/**
 * Field-level plan gates (spec 001 §6 "Advanced CSS is limited to a paid plan (labelled Essential)"):
 * one field of a kind that only some plans may set, where the kind itself is open to every plan.
 * Kind-level gates are the template's `x-feature` (server/services/documents.ts); the gates
 * themselves are rules/plan-gates.json (engine/gates.ts).
 */
import { checkGate } from '../../engine/gates';
import type { KindEntry } from '../../engine/registry';
import type { JsonObject } from '../../engine/types';
import type { AppDeps } from '../deps';
import { ApiError } from '../errors';
import { findShop } from '../store/shops';
import { shopContext } from './shop-context';

/** One gated field: the top-level property, the plan feature, and the label the refusal names. */
export interface FieldGate {
  field: string;
  feature: string;
  label: string;
}

/** Gated fields by kind id. A value is "used" when it is a non-blank text or `true`. */
export const FIELD_GATES: Readonly<Record<string, readonly FieldGate[]>> = {
  'storefront.widget_design': [{ field: 'advancedCss', feature: 'advanced_css', label: 'Advanced CSS' }],
};

const used = (value: unknown): boolean => (typeof value === 'string' ? value.trim() !== '' : value === true);

/**
 * Refuses a save that sets a gated field the shop's plan lacks: 403 `plan_gate` with the field's
 * path and the plan that unlocks it ("Advanced CSS is available on the Essential plan. …"). A value
 * already saved may stay (a downgraded shop can still edit the rest of the document) and clearing it
 * is always allowed. `before` is the stored data (null on create).
 * @throws ApiError 403 `plan_gate`
 */
export async function assertFieldGates(db: AppDeps['db'], shopId: string, kind: KindEntry, before: JsonObject | null, after: JsonObject): Promise<void> {
  const gates = FIELD_GATES[kind.id];
  if (!gates) return;
  const changed = gates.filter((g) => used(after[g.field]) && JSON.stringify(after[g.field]) !== JSON.stringify(before?.[g.field] ?? null));
  if (changed.length === 0) return;
  const shop = await findShop(db, shopId);
  if (!shop) return;
  for (const gate of changed) {
    const answer = await checkGate(gate.feature, shopContext(shop).gate);
    if (answer.allowed) continue;
    throw new ApiError(403, 'plan_gate', `${gate.label} is available on the ${answer.unlockPlan ?? 'a higher'} plan. ${answer.reason}`, [{ path: `/${gate.field}`, message: answer.reason }]);
  }
}
