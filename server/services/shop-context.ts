/**
 * What the engine needs to know about a shop, read from its row: timezone and currency, the plan
 * facts gates read (spec 000 §3 Shop: plan, shopifyPlan, customFeatures, customizeForShops), and
 * settings such as pending points (spec 002 §4).
 */
import type { GateShop } from '../../engine/gates';
import type { PendingSettings } from '../../engine/pending';
import type { ShopsTable } from '../db/tables';

/** Shop facts for the engine. */
export interface ShopContext {
  id: string;
  timeZone: string;
  currency: string;
  plan: string;
  gate: GateShop;
  pendingPoints: PendingSettings;
}

/** The settings JSON of a shop row, tolerant of old rows. */
export function shopSettings(row: ShopsTable): Record<string, unknown> {
  try {
    const value = JSON.parse(row.settings) as unknown;
    return value !== null && typeof value === 'object' && !Array.isArray(value) ? (value as Record<string, unknown>) : {};
  } catch {
    return {};
  }
}

const strings = (v: unknown): string[] => (Array.isArray(v) ? v.filter((x): x is string => typeof x === 'string') : []);

/** Engine-facing facts of a shop row. */
export function shopContext(row: ShopsTable): ShopContext {
  const settings = shopSettings(row);
  const pending = (settings.pendingPoints ?? {}) as { enabled?: unknown; days?: unknown };
  return {
    id: row.id,
    timeZone: row.iana_timezone,
    currency: row.currency,
    plan: row.plan,
    gate: {
      plan: row.plan,
      ...(typeof settings.shopifyPlan === 'string' ? { shopifyPlan: settings.shopifyPlan } : {}),
      customFeatures: strings(settings.customFeatures),
      customizeForShops: strings(settings.customizeForShops),
    },
    pendingPoints: { enabled: pending.enabled === true, days: typeof pending.days === 'number' ? pending.days : 0 },
  };
}
