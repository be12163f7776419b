/** Documents (programs, rewards, …): `{ kind, schemaVersion, version, data }` rows, always scoped by shop. */
import type { Db } from '../db/database';
import type { DocumentsTable } from '../db/tables';
import type { JsonObject, StoredDocument } from '../../engine/types';

/** API shape of a row. */
export function toStored(row: DocumentsTable): StoredDocument {
  return {
    id: row.id,
    kind: row.kind,
    schemaVersion: row.schema_version,
    version: row.version,
    data: JSON.parse(row.data) as JsonObject,
    createdAt: row.created_at,
    updatedAt: row.updated_at,
  };
}

/** Documents of a shop, optionally of some kinds, oldest first. */
export async function listDocuments(db: Db, shopId: string, kinds?: readonly string[]): Promise<StoredDocument[]> {
  let q = db.selectFrom('documents').selectAll().where('shop_id', '=', shopId);
  if (kinds) {
    if (kinds.length === 0) return [];
    q = q.where('kind', 'in', kinds);
  }
  const rows = await q.orderBy('created_at').orderBy('id').execute();
  return rows.map(toStored);
}

/** One document of a shop, or undefined. */
export async function findDocument(db: Db, shopId: string, id: string): Promise<StoredDocument | undefined> {
  const row = await db.selectFrom('documents').selectAll().where('shop_id', '=', shopId).where('id', '=', id).executeTakeFirst();
  return row ? toStored(row) : undefined;
}

/** Inserts a new document at version 1. */
export async function insertDocument(db: Db, shopId: string, kind: string, schemaVersion: number, data: JsonObject, now: string): Promise<StoredDocument> {
  const row: DocumentsTable = {
    id: crypto.randomUUID(),
    shop_id: shopId,
    kind,
    schema_version: schemaVersion,
    version: 1,
    data: JSON.stringify(data),
    created_at: now,
    updated_at: now,
  };
  await db.insertInto('documents').values(row).execute();
  return toStored(row);
}

/**
 * Replaces a document's data if it is still at `expectedVersion`; bumps the version.
 * @returns the updated document, or undefined when the version moved on (someone else saved).
 */
export async function updateDocument(db: Db, shopId: string, id: string, expectedVersion: number, data: JsonObject, schemaVersion: number, now: string): Promise<StoredDocument | undefined> {
  const result = await db
    .updateTable('documents')
    .set({ data: JSON.stringify(data), version: expectedVersion + 1, schema_version: schemaVersion, updated_at: now })
    .where('shop_id', '=', shopId)
    .where('id', '=', id)
    .where('version', '=', expectedVersion)
    .executeTakeFirst();
  if (Number(result.numUpdatedRows) !== 1) return undefined;
  return findDocument(db, shopId, id);
}

/** Deletes a document; returns whether it existed. */
export async function deleteDocument(db: Db, shopId: string, id: string): Promise<boolean> {
  const result = await db.deleteFrom('documents').where('shop_id', '=', shopId).where('id', '=', id).executeTakeFirst();
  return Number(result.numDeletedRows) === 1;
}
