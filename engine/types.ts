/**
 * Shapes shared by the engine, the server and the UI. Pure types: no runtime code.
 * Spec references: spec 001 §3 (Program entity), spec 000 §3 (Shop entity).
 */

/** A JSON value as stored in a document's `data`. */
export type Json = string | number | boolean | null | Json[] | { [key: string]: Json };

/** A JSON object (a document's `data`, a schema, a uiSchema). */
export type JsonObject = { [key: string]: Json };

/** Kind families: the first segment of a kind id (`earning.place_order`). */
export type KindFamily = 'earning' | 'redeem' | 'referral' | 'tier' | 'milestone' | 'membership' | 'integration' | 'settings' | 'storefront';

/**
 * Add-program menu categories (spec 001 §3 Enumerations "Add-program menu categories"), used to
 * group the add menu. Redeem kinds use the same values (online_store or shopify_pos).
 */
export type KindCategory = 'online_store' | 'social' | 'shopify_pos' | 'place_order';

/** What `GET /api/kinds` lists for each kind found under `schemas/`. */
export interface KindSummary {
  /** `<family>.<name>`, e.g. `earning.place_order`. */
  id: string;
  family: KindFamily;
  /** The spec's enum value: the earning event or reward type, e.g. `place_order`, `amount_discount`. */
  name: string;
  title: string;
  description: string;
  category: KindCategory | null;
  /** Plan feature the kind needs (see rules/plan-features), or null when every plan has it. */
  feature: string | null;
  /** Template version; a breaking template change bumps it. */
  version: number;
  /** One document per shop (program settings, referral program, exclusive deal). */
  singleton: boolean;
  /**
   * The shop's plan gate answer for `feature` (only on `GET /api/kinds`, which knows the shop):
   * null when the kind needs no feature.
   */
  gate?: { feature: string; allowed: boolean; unlockPlan: string | null; reason: string } | null;
}

/** What `GET /api/kinds/:kind` returns: the summary plus the bundled schema and uiSchema. */
export interface KindDetail extends KindSummary {
  /** Draft-07 JSON Schema with every `_shared` reference bundled under `definitions`. */
  schema: JsonObject;
  uiSchema: JsonObject;
}

/** A stored document (program, reward, …) as the API returns it. */
export interface StoredDocument<T extends JsonObject = JsonObject> {
  /** Opaque string id. */
  id: string;
  kind: string;
  /** Template version the data conforms to. */
  schemaVersion: number;
  /** Edit version, starts at 1 and grows by one on every save; PUT must send the version it read. */
  version: number;
  data: T;
  /** ISO 8601 timestamps. */
  createdAt: string;
  updatedAt: string;
}

/** One problem with one field: `path` is a JSON Pointer into the document's data (`/earnPoint`, `` for the whole). */
export interface FieldIssue {
  path: string;
  message: string;
}

/** The error body every failing API call returns. */
export interface ApiErrorBody {
  error: { code: string; message: string; details?: FieldIssue[] };
}

/** A product as the catalogue lists it (`GET /api/catalog/products`); ids are exact strings beyond 2^53. */
export interface CatalogProduct {
  id: string;
  title: string;
  vendor: string;
  productType: string;
  /** Major currency units as a decimal string. */
  price: string;
  tags: string[];
  collectionIds: string[];
  variants: { id: string; title: string }[];
}

/** A collection as the catalogue lists it (`GET /api/catalog/collections`). */
export interface CatalogCollection {
  id: string;
  title: string;
}

/** Whether a value is a JSON object (not null, not an array): the guard every walk over schemas and documents uses. */
export function isJsonObject(value: unknown): value is JsonObject {
  return value !== null && typeof value === 'object' && !Array.isArray(value);
}

/**
 * A deep copy of a JSON value (objects, arrays, text, numbers, booleans, null), keys in the same
 * order. For JSON read from files and the database it gives what `structuredClone` gives, about ten
 * times faster (no serialisation); anything that is not JSON must not be passed.
 * @example cloneJson({ a: [1, { b: 2 }] }) // a new { a: [1, { b: 2 }] }
 */
export function cloneJson<T extends Json>(value: T): T {
  if (value === null || typeof value !== 'object') return value;
  if (Array.isArray(value)) return value.map((item) => cloneJson(item)) as T;
  const out: JsonObject = {};
  for (const key of Object.keys(value)) {
    const item = value[key];
    if (item === undefined) continue;
    // `__proto__` as an own key (JSON.parse makes it one), not the prototype.
    if (key === '__proto__') Object.defineProperty(out, key, { value: cloneJson(item), enumerable: true, writable: true, configurable: true });
    else out[key] = cloneJson(item);
  }
  return out as T;
}
