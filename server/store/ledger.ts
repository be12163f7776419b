/**
 * Customers and the append-only points ledger. Balances are sums of ledger rows; corrections are
 * new rows (`reverses_id`), never updates (the database refuses those too).
 */
import type { Db } from '../db/database';
import type { LedgerEntriesTable } from '../db/tables';

/** Creates or refreshes a customer seen on an order (ids exact strings). */
export async function upsertCustomer(db: Db, shopId: string, c: { id: string; email: string; firstName: string; lastName: string }, now: string): Promise<void> {
  await db
    .insertInto('customers')
    .values({ shop_id: shopId, id: c.id, email: c.email, first_name: c.firstName, last_name: c.lastName, created_at: now, updated_at: now })
    .onConflict((oc) => oc.columns(['shop_id', 'id']).doUpdateSet({ email: c.email, first_name: c.firstName, last_name: c.lastName, updated_at: now }))
    .execute();
}

/**
 * Appends entries and moves each customer's stored balance (`customers.points_balance`) by the
 * entries' points. Call it inside a transaction so both happen or neither.
 */
export async function appendEntries(db: Db, rows: LedgerEntriesTable[]): Promise<void> {
  if (rows.length === 0) return;
  await db.insertInto('ledger_entries').values(rows).execute();
  const moved = new Map<string, { shopId: string; points: number }>();
  for (const r of rows) {
    const key = `${r.shop_id}\u0000${r.customer_id}`;
    const m = moved.get(key) ?? { shopId: r.shop_id, points: 0 };
    m.points += r.points;
    moved.set(key, m);
  }
  for (const [key, m] of moved) {
    if (m.points === 0) continue;
    const customerId = key.slice(key.indexOf('\u0000') + 1);
    await db
      .updateTable('customers')
      .set((eb) => ({ points_balance: eb('points_balance', '+', m.points) }))
      .where('shop_id', '=', m.shopId)
      .where('id', '=', customerId)
      .execute();
  }
}
