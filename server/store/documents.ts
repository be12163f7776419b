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

/**
 * Keeps a saved document's data as its version row (document_versions, migration 0023; issue 15
 * versions). Called by every save below, on the same connection or transaction as the save.
 */
async function recordVersion(db: Db, doc: StoredDocument, shopId: string, actor: string, now: string): Promise<void> {
  await db
    .insertInto('document_versions')
    .values({ shop_id: shopId, document_id: doc.id, version: doc.version, kind: doc.kind, schema_version: doc.schemaVersion, data: JSON.stringify(doc.data), actor, created_at: now })
    .execute();
}

/** Inserts a new document at version 1 (and its version row; `actor` is who saved it, `system` by default). */
export async function insertDocument(db: Db, shopId: string, kind: string, schemaVersion: number, data: JsonObject, now: string, actor = 'system'): Promise<StoredDocument> {
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
  const doc = toStored(row);
  await recordVersion(db, doc, shopId, actor, now);
  return doc;
}

/**
 * Replaces a document's data if it is still at `expectedVersion`; bumps the version and keeps the
 * new version's row (`actor` is who saved it, `system` by default). Call it in a transaction.
 * @returns the updated document, or undefined when the version moved on (someone else saved).
 */
export async function updateDocument(db: Db, shopId: string, id: string, expectedVersion: number, data: JsonObject, schemaVersion: number, now: string, actor = 'system'): Promise<StoredDocument | undefined> {
  const result = await db
    .updateTable('documents')
    .set({ data: JSON.stringify(data), version: expectedVersion + 1, schema_version: schemaVersion, updated_at: now })
    .where('shop_id', '=', shopId)
    .where('id', '=', id)
    .where('version', '=', expectedVersion)
    .executeTakeFirst();
  if (Number(result.numUpdatedRows) !== 1) return undefined;
  const doc = await findDocument(db, shopId, id);
  if (doc) await recordVersion(db, doc, shopId, actor, now);
  return doc;
}

/** Deletes a document; returns whether it existed. */
export async function deleteDocument(db: Db, shopId: string, id: string): Promise<boolean> {
  const result = await db.deleteFrom('documents').where('shop_id', '=', shopId).where('id', '=', id).executeTakeFirst();
  return Number(result.numDeletedRows) === 1;
}
