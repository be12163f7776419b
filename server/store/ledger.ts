/**
 * Customers and the append-only points ledger. Balances are sums of ledger rows; corrections are
 * new rows (`reverses_id`), never updates (the database refuses those too).
 */
import type { Db } from '../db/database';
import type { LedgerEntriesTable } from '../db/tables';
import { balances } from '../../engine/pending';

/** A ledger entry as the API returns it (points are signed whole points). */
export interface LedgerEntry {
  id: string;
  customerId: string;
  type: string;
  points: number;
  programId: string | null;
  programKind: string | null;
  programVersion: number | null;
  sourceType: string;
  sourceId: string;
  reversesId: string | null;
  explanation: unknown;
  createdAt: string;
  /** For pending awards: when they become available. */
  availableAt: string | null;
}

/** A customer with their available points balance. */
export interface CustomerWithBalance {
  id: string;
  email: string;
  firstName: string;
  lastName: string;
  /** Available points: the sum of the customer's ledger entries, less pending awards. */
  points: number;
  /** Points awarded but waiting for the pending period to end (spec 002 §4). */
  pendingPoints: number;
  createdAt: string;
  updatedAt: string;
}

const toEntry = (row: LedgerEntriesTable): LedgerEntry => ({
  id: row.id,
  customerId: row.customer_id,
  type: row.type,
  points: row.points,
  programId: row.program_id,
  programKind: row.program_kind,
  programVersion: row.program_version,
  sourceType: row.source_type,
  sourceId: row.source_id,
  reversesId: row.reverses_id,
  explanation: JSON.parse(row.explanation) as unknown,
  createdAt: row.created_at,
  availableAt: row.available_at ?? null,
});

/** Creates or refreshes a customer seen on an order (ids exact strings). */
export async function upsertCustomer(db: Db, shopId: string, c: { id: string; email: string; firstName: string; lastName: string }, now: string): Promise<void> {
  await db
    .insertInto('customers')
    .values({ shop_id: shopId, id: c.id, email: c.email, first_name: c.firstName, last_name: c.lastName, created_at: now, updated_at: now })
    .onConflict((oc) => oc.columns(['shop_id', 'id']).doUpdateSet({ email: c.email, first_name: c.firstName, last_name: c.lastName, updated_at: now }))
    .execute();
}

/** Appends entries (all or nothing when called inside a transaction). */
export async function appendEntries(db: Db, rows: LedgerEntriesTable[]): Promise<void> {
  if (rows.length > 0) await db.insertInto('ledger_entries').values(rows).execute();
}

/** A customer and balance, or undefined. */
export async function findCustomer(db: Db, shopId: string, id: string, now: Date = new Date()): Promise<CustomerWithBalance | undefined> {
  const row = await db.selectFrom('customers').selectAll().where('shop_id', '=', shopId).where('id', '=', id).executeTakeFirst();
  if (!row) return undefined;
  const entries = await db.selectFrom('ledger_entries').select(['points', 'available_at']).where('shop_id', '=', shopId).where('customer_id', '=', id).execute();
  const balance = balances(entries.map((e) => ({ points: e.points, availableAt: e.available_at ?? null })), now);
  return {
    id: row.id,
    email: row.email,
    firstName: row.first_name,
    lastName: row.last_name,
    points: balance.available,
    pendingPoints: balance.pending,
    createdAt: row.created_at,
    updatedAt: row.updated_at,
  };
}

/** A customer's ledger entries, newest first. */
export async function listEntries(db: Db, shopId: string, customerId: string, limit = 250): Promise<LedgerEntry[]> {
  const rows = await db
    .selectFrom('ledger_entries')
    .selectAll()
    .where('shop_id', '=', shopId)
    .where('customer_id', '=', customerId)
    .orderBy('created_at', 'desc')
    .orderBy('id', 'desc')
    .limit(limit)
    .execute();
  return rows.map(toEntry);
}
