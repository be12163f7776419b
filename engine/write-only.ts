/**
 * Secrets in documents (the review app's secret key, spec 001 §3 write-a-review step 1): a property marked with
 * JSON Schema's `writeOnly: true` is accepted on write but never answered in plain text. The API
 * answers WRITE_ONLY_MASK in its place; a save that sends the mask back keeps the stored value, any
 * other value replaces it. Only paths through nested objects (`properties`) are followed; a
 * `writeOnly` inside a list item is not supported (schemas:check does not need it today).
 */
import { isJsonObject, type Json, type JsonObject } from './types';

/** What the API answers instead of a stored secret: eight bullets (U+2022). */
export const WRITE_ONLY_MASK = '••••••••';


/** Resolves a local `#/definitions/x` reference of a bundled schema. */
function resolve(node: JsonObject, root: JsonObject): JsonObject {
  const ref = node.$ref;
  if (typeof ref !== 'string' || !ref.startsWith('#/definitions/')) return node;
  const target = (root.definitions as JsonObject | undefined)?.[ref.slice('#/definitions/'.length)];
  return isJsonObject(target) ? { ...target, ...node } : node;
}

/**
 * Property paths (lists of property names) of every `writeOnly: true` property reachable through
 * nested `properties` of a bundled schema, e.g. `[['secretKey']]`.
 */
export function writeOnlyPaths(schema: JsonObject): string[][] {
  const out: string[][] = [];
  const visit = (node: JsonObject, path: string[], depth: number): void => {
    const resolved = resolve(node, schema);
    if (resolved.writeOnly === true && path.length > 0) out.push(path);
    if (depth > 16 || !isJsonObject(resolved.properties)) return;
    for (const [name, child] of Object.entries(resolved.properties)) if (isJsonObject(child)) visit(child, [...path, name], depth + 1);
  };
  visit(schema, [], 0);
  return out;
}

function parentOf(data: JsonObject, path: readonly string[]): JsonObject | undefined {
  let node: Json | undefined = data;
  for (const name of path.slice(0, -1)) node = isJsonObject(node) ? node[name] : undefined;
  return isJsonObject(node) ? node : undefined;
}

/**
 * A copy of `data` with each write-only string value replaced by what `change` answers for it
 * (undefined = kept as it is), or null when `change` kept every one.
 */
export function mapWriteOnly(data: JsonObject, paths: readonly (readonly string[])[], change: (value: string) => string | undefined): JsonObject | null {
  if (paths.length === 0) return null;
  const copy = structuredClone(data);
  let changed = false;
  for (const path of paths) {
    const parent = parentOf(copy, path);
    const name = path[path.length - 1] as string;
    const value = parent?.[name];
    if (!parent || typeof value !== 'string') continue;
    const next = change(value);
    if (next === undefined || next === value) continue;
    parent[name] = next;
    changed = true;
  }
  return changed ? copy : null;
}

/** A copy of `data` with each non-empty write-only string replaced by WRITE_ONLY_MASK. */
export function redactWriteOnly(data: JsonObject, paths: readonly (readonly string[])[]): JsonObject {
  if (paths.length === 0) return data;
  const copy = structuredClone(data);
  for (const path of paths) {
    const parent = parentOf(copy, path);
    const name = path[path.length - 1] as string;
    if (parent && typeof parent[name] === 'string' && parent[name] !== '') parent[name] = WRITE_ONLY_MASK;
  }
  return copy;
}

/**
 * `incoming` with every write-only value that is still WRITE_ONLY_MASK replaced by the stored
 * value (the merchant did not change the secret). A mask with nothing stored behind it stays as
 * sent; callers refuse it with `maskWithoutSecret`.
 */
export function keepWriteOnly(incoming: JsonObject, stored: JsonObject | undefined, paths: readonly (readonly string[])[]): JsonObject {
  if (paths.length === 0) return incoming;
  const copy = structuredClone(incoming);
  for (const path of paths) {
    const parent = parentOf(copy, path);
    const name = path[path.length - 1] as string;
    const before = stored ? parentOf(stored, path)?.[name] : undefined;
    if (parent && parent[name] === WRITE_ONLY_MASK && typeof before === 'string') parent[name] = before;
  }
  return copy;
}

/** JSON Pointers of write-only values that are still the mask (nothing stored to keep). */
export function maskWithoutSecret(data: JsonObject, paths: readonly (readonly string[])[]): string[] {
  return paths.filter((path) => parentOf(data, path)?.[path[path.length - 1] as string] === WRITE_ONLY_MASK).map((path) => `/${path.join('/')}`);
}
