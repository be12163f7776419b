/**
 * Document versions, readable diffs and rollback (issue 15 "Versions, diffs and rollback").
 *
 * Every save of a document keeps its data as a `document_versions` row in the save's transaction
 * (server/store/documents.ts). This service lists them, diffs two of them in words — each change
 * names the field by its label in the admin's language (the registry's localized schema titles),
 * nested and array fields as "Conditions › item 2 › Value", values as the form shows them (enum
 * titles, Yes/No) — and rolls back: the old data is saved as a new version through
 * `replaceDocument`, so validation (422), limits and plan gates (409/403) and the optimistic
 * version check (409 `version_conflict`) refuse a rollback exactly as they refuse a save.
 */
import type { InAppLanguage } from '../../engine/languages';
import { isInAppLanguage } from '../../engine/languages';
import { redactWriteOnly } from '../../engine/write-only';
import { isJsonObject, type Json, type JsonObject, type StoredDocument } from '../../engine/types';
import type { AppDeps } from '../deps';
import type { Db } from '../db/database';
import { ApiError, notFound } from '../errors';
import { findDocument } from '../store/documents';
import { findShop } from '../store/shops';
import { kindOrThrow, publicDocument, replaceDocument } from './documents';

/** One saved version as the API lists it (no data). */
export interface VersionSummary {
  version: number;
  kind: string;
  schemaVersion: number;
  /** Who saved it: the session's user id, or `system`. */
  actor: string;
  /** ISO instant. */
  createdAt: string;
  /** True for the document's current version. */
  current: boolean;
}

/** One saved version with its data (write-only secrets masked). */
export interface VersionDetail extends Omit<VersionSummary, 'current'> {
  documentId: string;
  data: JsonObject;
}

/** One change between two versions, in words. */
export interface VersionChange {
  /** JSON Pointer of the changed field in the document data. */
  path: string;
  change: 'changed' | 'added' | 'removed';
  /** The field's label path in the admin's language, parts joined with " › " ("Conditions › item 2 › Value"). */
  label: string;
  /** The values as words ("Round down", "Yes", "(empty)"); `from` is empty for an added field, `to` for a removed one. */
  from: string;
  to: string;
  /** The whole sentence: "Points earned: 10 → 15". */
  text: string;
}

/** A diff between two versions of one document. */
export interface VersionDiff {
  documentId: string;
  kind: string;
  from: number;
  to: number;
  language: InAppLanguage;
  changes: VersionChange[];
}

/** The few words a diff needs besides the schema's labels, per in-app language. */
const WORDS: Record<InAppLanguage, { yes: string; no: string; empty: string; item: string; added: string; removed: string; hidden: string }> = {
  en: { yes: 'Yes', no: 'No', empty: '(empty)', item: 'item {n}', added: 'added', removed: 'removed', hidden: '(hidden)' },
  'en-US': { yes: 'Yes', no: 'No', empty: '(empty)', item: 'item {n}', added: 'added', removed: 'removed', hidden: '(hidden)' },
  fr: { yes: 'Oui', no: 'Non', empty: '(vide)', item: 'élément {n}', added: 'ajouté', removed: 'supprimé', hidden: '(masqué)' },
  es: { yes: 'Sí', no: 'No', empty: '(vacío)', item: 'elemento {n}', added: 'añadido', removed: 'eliminado', hidden: '(oculto)' },
  de: { yes: 'Ja', no: 'Nein', empty: '(leer)', item: 'Eintrag {n}', added: 'hinzugefügt', removed: 'entfernt', hidden: '(verborgen)' },
  it: { yes: 'Sì', no: 'No', empty: '(vuoto)', item: 'elemento {n}', added: 'aggiunto', removed: 'rimosso', hidden: '(nascosto)' },
  ja: { yes: 'はい', no: 'いいえ', empty: '（空）', item: '項目 {n}', added: '追加', removed: '削除', hidden: '（非表示）' },
  id: { yes: 'Ya', no: 'Tidak', empty: '(kosong)', item: 'item {n}', added: 'ditambahkan', removed: 'dihapus', hidden: '(tersembunyi)' },
};

/** The document of `id` in the shop, or ApiError 404 `not_found`. */
async function documentOrThrow(db: Db, shopId: string, id: string): Promise<StoredDocument> {
  const doc = await findDocument(db, shopId, id);
  if (!doc) throw notFound('not_found', 'This document does not exist or was deleted');
  return doc;
}

/**
 * The document's versions, newest first. Throws ApiError 404 `not_found` when the document does
 * not exist in the shop.
 */
export async function listVersions(deps: AppDeps, shopId: string, documentId: string): Promise<{ document: StoredDocument; versions: VersionSummary[] }> {
  const doc = await documentOrThrow(deps.db, shopId, documentId);
  const rows = await deps.db
    .selectFrom('document_versions')
    .select(['version', 'kind', 'schema_version', 'actor', 'created_at'])
    .where('shop_id', '=', shopId)
    .where('document_id', '=', documentId)
    .orderBy('version', 'desc')
    .execute();
  return {
    document: publicDocument(deps, doc),
    versions: rows.map((r) => ({ version: Number(r.version), kind: r.kind, schemaVersion: Number(r.schema_version), actor: r.actor, createdAt: r.created_at, current: Number(r.version) === doc.version })),
  };
}

/** The raw stored version (secrets unmasked), or ApiError 404 `version_not_found`. */
async function storedVersion(db: Db, shopId: string, documentId: string, version: number): Promise<VersionDetail> {
  const row = await db.selectFrom('document_versions').selectAll().where('shop_id', '=', shopId).where('document_id', '=', documentId).where('version', '=', version).executeTakeFirst();
  if (!row) throw notFound('version_not_found', `Version ${version} of this document was not kept`);
  return { documentId, version: Number(row.version), kind: row.kind, schemaVersion: Number(row.schema_version), actor: row.actor, createdAt: row.created_at, data: JSON.parse(row.data) as JsonObject };
}

/** One version with its data, write-only values masked. 404 `not_found` / `version_not_found`. */
export async function getVersion(deps: AppDeps, shopId: string, documentId: string, version: number): Promise<VersionDetail> {
  await documentOrThrow(deps.db, shopId, documentId);
  const v = await storedVersion(deps.db, shopId, documentId, version);
  const paths = deps.registry.get(v.kind)?.writeOnly ?? [];
  return paths.length === 0 ? v : { ...v, data: redactWriteOnly(v.data, paths) };
}

/** The admin's language: `requested` when given, else the shop's in-app language, else English. */
export async function adminLanguage(db: Db, shopId: string, requested: InAppLanguage | null): Promise<InAppLanguage> {
  if (requested) return requested;
  const shop = await findShop(db, shopId);
  try {
    const settings = JSON.parse(shop?.settings ?? '{}') as { primaryLanguageInApp?: unknown };
    if (isInAppLanguage(settings.primaryLanguageInApp)) return settings.primaryLanguageInApp;
  } catch {
    // a shop without readable settings reads English
  }
  return 'en';
}

/**
 * The changes from version `from` to version `to` of a document, in words, in `language`.
 * Throws 404 `not_found` / `version_not_found`.
 */
export async function diffVersions(deps: AppDeps, shopId: string, documentId: string, from: number, to: number, language: InAppLanguage): Promise<VersionDiff> {
  await documentOrThrow(deps.db, shopId, documentId);
  const a = await storedVersion(deps.db, shopId, documentId, from);
  const b = await storedVersion(deps.db, shopId, documentId, to);
  const schema = deps.registry.localized(b.kind, language)?.schema ?? {};
  const writeOnly = deps.registry.get(b.kind)?.writeOnly ?? [];
  return { documentId, kind: b.kind, from, to, language, changes: diffData(a.data, b.data, schema, language, writeOnly) };
}

/**
 * The changes between two documents' data, in words (pure; exported for tests and previews).
 * @param schema the kind's bundled schema with labels in `language` (Registry.localized)
 * @param writeOnly write-only property paths: their values are shown as "(hidden)"
 */
export function diffData(before: JsonObject, after: JsonObject, schema: JsonObject, language: InAppLanguage, writeOnly: readonly (readonly string[])[] = []): VersionChange[] {
  const words = WORDS[language];
  const root = schema;
  const changes: VersionChange[] = [];
  const hidden = (keys: readonly string[]) => writeOnly.some((p) => p.length <= keys.length && p.every((k, i) => k === keys[i]));

  const walk = (a: Json | undefined, b: Json | undefined, node: JsonObject, keys: string[], labels: string[]): void => {
    if (deepEqual(a, b)) return;
    const resolved = resolve(node, root);
    if (isJsonObject(a) && isJsonObject(b)) {
      for (const key of unionKeys(a, b)) {
        const child = propertySchema(resolved, key, root);
        walk(a[key], b[key], child, [...keys, key], [...labels, titleOf(child, key)]);
      }
      return;
    }
    if (Array.isArray(a) && Array.isArray(b) && (a.some(isJsonObject) || b.some(isJsonObject))) {
      const items = itemSchema(resolved, root);
      for (let i = 0; i < Math.max(a.length, b.length); i++) {
        walk(a[i], b[i], items, [...keys, String(i)], [...labels, words.item.replace('{n}', String(i + 1))]);
      }
      return;
    }
    const secret = hidden(keys);
    const label = labels.join(' › ');
    const fromText = a === undefined ? '' : secret ? words.hidden : valueText(a, resolved, root, words);
    const toText = b === undefined ? '' : secret ? words.hidden : valueText(b, resolved, root, words);
    const change: VersionChange['change'] = a === undefined ? 'added' : b === undefined ? 'removed' : 'changed';
    const text = change === 'added' ? `${label}: ${toText} (${words.added})` : change === 'removed' ? `${label}: ${fromText} (${words.removed})` : `${label}: ${fromText} → ${toText}`;
    changes.push({ path: keys.map((k) => `/${k.replace(/~/g, '~0').replace(/\//g, '~1')}`).join(''), change, label, from: fromText, to: toText, text });
  };
  walk(before, after, root, [], []);
  return changes;
}

function unionKeys(a: JsonObject, b: JsonObject): string[] {
  const keys = [...Object.keys(a)];
  for (const k of Object.keys(b)) if (!(k in a)) keys.push(k);
  return keys;
}

function deepEqual(a: Json | undefined, b: Json | undefined): boolean {
  return JSON.stringify(a) === JSON.stringify(b);
}

/** Follows local `$ref`s (`#/definitions/…`) to the schema they name, keeping the referring node's title. */
function resolve(node: JsonObject, root: JsonObject, depth = 0): JsonObject {
  const ref = node.$ref;
  if (typeof ref !== 'string' || !ref.startsWith('#/') || depth > 16) return node;
  let target: Json | undefined = root;
  for (const part of ref.slice(2).split('/')) target = isJsonObject(target) ? target[part.replace(/~1/g, '/').replace(/~0/g, '~')] : undefined;
  if (!isJsonObject(target)) return node;
  const merged: JsonObject = { ...resolve(target, root, depth + 1) };
  if (typeof node.title === 'string') merged.title = node.title;
  return merged;
}

/** The schema of property `key` of an object schema, looking through allOf/anyOf/oneOf and if/then/else; {} when unknown. */
function propertySchema(node: JsonObject, key: string, root: JsonObject): JsonObject {
  const props = node.properties;
  if (isJsonObject(props) && isJsonObject(props[key])) return props[key];
  for (const group of ['allOf', 'anyOf', 'oneOf']) {
    const list = node[group];
    if (!Array.isArray(list)) continue;
    for (const part of list) {
      if (!isJsonObject(part)) continue;
      const found = propertySchema(resolve(part, root), key, root);
      if (Object.keys(found).length > 0) return found;
    }
  }
  for (const branch of ['then', 'else']) {
    const part = node[branch];
    if (isJsonObject(part)) {
      const found = propertySchema(resolve(part, root), key, root);
      if (Object.keys(found).length > 0) return found;
    }
  }
  return {};
}

function itemSchema(node: JsonObject, root: JsonObject): JsonObject {
  return isJsonObject(node.items) ? resolve(node.items, root) : {};
}

/** A field's label: its schema title, else its key in words ("earnPoint" → "Earn point"). */
function titleOf(node: JsonObject, key: string): string {
  if (typeof node.title === 'string' && node.title.trim() !== '') return node.title;
  const words = key.replace(/([a-z0-9])([A-Z])/g, '$1 $2').replace(/[_-]+/g, ' ').toLowerCase();
  return words.charAt(0).toUpperCase() + words.slice(1);
}

/** A value as the form shows it: enum choices by their titles, booleans as Yes/No, lists joined with ", ". */
function valueText(value: Json, node: JsonObject, root: JsonObject, words: (typeof WORDS)[InAppLanguage]): string {
  if (value === null || value === '') return words.empty;
  if (typeof value === 'boolean') return value ? words.yes : words.no;
  if (Array.isArray(value)) {
    if (value.length === 0) return words.empty;
    const items = itemSchema(node, root);
    return value.map((v) => valueText(v, items, root, words)).join(', ');
  }
  if (isJsonObject(value)) {
    const parts = Object.entries(value).map(([k, v]) => {
      const child = propertySchema(node, k, root);
      return `${titleOf(child, k)}: ${valueText(v, resolve(child, root), root, words)}`;
    });
    return parts.length === 0 ? words.empty : parts.join('; ');
  }
  for (const group of ['oneOf', 'anyOf']) {
    const list = node[group];
    if (!Array.isArray(list)) continue;
    for (const choice of list) if (isJsonObject(choice) && choice.const === value && typeof choice.title === 'string') return choice.title;
  }
  return String(value);
}

/**
 * Rolls a document back to `version`: saves that version's data as a new version through the same
 * validation, limits, plan gate and optimistic check as a normal save (replaceDocument), recorded
 * with `actor`. `expectedVersion` is the current version the admin saw (defaults to the current
 * one). Throws 404 `not_found` / `version_not_found`, 422 `validation_failed` when the old data
 * no longer passes today's template, 409 (`version_conflict`, `limit.*`) and 403 `plan_gate` as a
 * save would.
 */
export async function rollbackDocument(deps: AppDeps, shopId: string, documentId: string, version: unknown, expectedVersion: unknown, actor: string): Promise<StoredDocument> {
  if (typeof version !== 'number' || !Number.isInteger(version) || version < 1) {
    throw new ApiError(422, 'validation_failed', 'Some fields need attention', [{ path: '/version', message: 'Choose a version to roll back to' }]);
  }
  if (expectedVersion !== undefined && (typeof expectedVersion !== 'number' || !Number.isInteger(expectedVersion))) {
    throw new ApiError(422, 'validation_failed', 'Some fields need attention', [{ path: '/expectedVersion', message: 'Must be a whole number' }]);
  }
  const doc = await documentOrThrow(deps.db, shopId, documentId);
  const old = await storedVersion(deps.db, shopId, documentId, version);
  if (version === doc.version) throw new ApiError(409, 'already_current', `Version ${version} is already the current version`);
  const kind = kindOrThrow(deps, doc.kind);
  return replaceDocument(deps, shopId, kind, documentId, expectedVersion ?? doc.version, old.data, actor);
}
