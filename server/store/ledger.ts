/**
 * Customers and the append-only points ledger. Balances are sums of ledger rows; corrections are
 * new rows (`reverses_id`), never updates (the database refuses those too).
 */
import { sql } from 'kysely';
import { CompiledOnce } from '../db/compiled';
import type { Db } from '../db/database';
import type { LedgerEntriesTable } from '../db/tables';
import { onLedgerAppend } from '../services/tiers';

const UPSERT_CUSTOMER = new CompiledOnce<'shop' | 'id' | 'email' | 'first' | 'last' | 'now'>((db, p) =>
  db
    .insertInto('customers')
    .values({ shop_id: p.shop, id: p.id, email: p.email, first_name: p.first, last_name: p.last, created_at: p.now, updated_at: p.now })
    .onConflict((oc) => oc.columns(['shop_id', 'id']).doUpdateSet({ email: p.email, first_name: p.first, last_name: p.last, updated_at: p.now })),
);

const PENDING_OF_ONE = new CompiledOnce<'shop' | 'customer' | 'now', { pending: number | null }>((db, p) =>
  db.selectFrom('ledger_entries').select((eb) => eb.fn.sum<number>('points').as('pending')).where('shop_id', '=', p.shop).where('customer_id', '=', p.customer).where('available_at', '>', p.now),
);

/**
 * Pending points of some customers at `now` (ISO time): the sum of their entries not available yet
 * (`available_at` after `now`; spec 002 §4 pending points, engine/pending.ts `balances`), by customer
 * id; customers with none are absent. A customer's available balance is the stored balance less
 * this. One compiled statement for a single customer (the redemption and profile paths), one
 * grouped query for a page of them.
 */
export async function pendingPoints(db: Db, shopId: string, customerIds: readonly string[], now: string): Promise<Map<string, number>> {
  if (customerIds.length === 0) return new Map();
  if (customerIds.length === 1) {
    const [row] = await PENDING_OF_ONE.rows(db, 'one', { shop: shopId, customer: customerIds[0]!, now });
    return row?.pending == null ? new Map() : new Map([[customerIds[0]!, Number(row.pending)]]);
  }
  const rows = await db
    .selectFrom('ledger_entries')
    .select(['customer_id', (eb) => eb.fn.sum<number>('points').as('pending')])
    .where('shop_id', '=', shopId)
    .where('customer_id', 'in', customerIds)
    .where('available_at', '>', now)
    .groupBy('customer_id')
    .execute();
  return new Map(rows.map((r) => [r.customer_id, Number(r.pending)]));
}

/** Creates or refreshes a customer seen on an order (ids exact strings). */
export async function upsertCustomer(db: Db, shopId: string, c: { id: string; email: string; firstName: string; lastName: string }, now: string): Promise<void> {
  await UPSERT_CUSTOMER.run(db, 'one', { shop: shopId, id: c.id, email: c.email, first: c.firstName, last: c.lastName, now });
}

/** The ledger's columns, in the order the compiled inserts bind them. */
const LEDGER_COLUMNS = ['id', 'shop_id', 'customer_id', 'type', 'points', 'program_id', 'program_kind', 'program_version', 'source_type', 'source_id', 'reverses_id', 'explanation', 'created_at', 'available_at'] as const;
/** Inserts of up to this many entries run compiled once per row count (an order's awards); larger ones (imports) are built each time. */
const COMPILED_INSERT_ROWS = 16;
const INSERT_ENTRIES = new CompiledOnce<string>((db, p, key) =>
  db.insertInto('ledger_entries').values(Array.from({ length: Number(key) }, (_, i) => Object.fromEntries(LEDGER_COLUMNS.map((c) => [c, p[`${c}${i}`]])) as unknown as LedgerEntriesTable)),
);
/**
 * The lifetime points an entry adds (`customers.points_earned`, the storefront's and the profile's
 * "lifetime points"): its points when positive, except a `pending_convert` (the release of a pending
 * award, which was counted when awarded); 0 otherwise. Whole points.
 */
export function earnedBy(entry: { type: string; points: number }): number {
  return entry.points > 0 && entry.type !== 'pending_convert' ? entry.points : 0;
}

const MOVE_BALANCE = new CompiledOnce<'shop' | 'id' | 'points' | 'earned'>((db, p) =>
  db
    .updateTable('customers')
    .set((eb) => ({ points_balance: eb('points_balance', '+', p.points), points_earned: eb('points_earned', '+', p.earned) }))
    .where('shop_id', '=', p.shop)
    .where('id', '=', p.id),
);

/**
 * Appends entries and moves each customer's stored balance (`customers.points_balance`) by the
 * entries' points and lifetime points (`points_earned`) by what they earned (earnedBy), then hands the rows to the VIP tier hook (`onLedgerAppend`: tier stats and
 * promotion). Call it inside a transaction so all of it happens or none.
 */
export async function appendEntries(db: Db, rows: LedgerEntriesTable[]): Promise<void> {
  if (rows.length === 0) return;
  if (rows.length <= COMPILED_INSERT_ROWS) {
    const values: Record<string, unknown> = {};
    rows.forEach((r, i) => {
      for (const c of LEDGER_COLUMNS) values[`${c}${i}`] = r[c] ?? null;
    });
    await INSERT_ENTRIES.run(db, String(rows.length), values);
  } else {
    await db.insertInto('ledger_entries').values(rows).execute();
  }
  const moved = new Map<string, { shopId: string; points: number; earned: number }>();
  for (const r of rows) {
    const key = `${r.shop_id}\u0000${r.customer_id}`;
    const m = moved.get(key) ?? { shopId: r.shop_id, points: 0, earned: 0 };
    m.points += r.points;
    m.earned += earnedBy(r);
    moved.set(key, m);
  }
  const changes = [...moved].filter(([, m]) => m.points !== 0 || m.earned !== 0).map(([key, m]) => ({ shopId: m.shopId, customerId: key.slice(key.indexOf('\u0000') + 1), points: m.points, earned: m.earned }));
  if (changes.length === 1) {
    const only = changes[0]!;
    await MOVE_BALANCE.run(db, 'one', { shop: only.shopId, id: only.customerId, points: only.points, earned: only.earned });
  } else {
    // Many customers at once (a CSV import's batch): one statement per shop and 100 customers
    // instead of one per customer. (SQLite runs UPDATE … FROM (VALUES …) with the customers as the
    // outer loop, a scan of the shop: slower than this CASE over 100 ids.)
    for (let i = 0; i < changes.length; i += 100) {
      const part = changes.slice(i, i + 100);
      for (const shopId of new Set(part.map((c) => c.shopId))) {
        const mine = part.filter((c) => c.shopId === shopId);
        const delta = (of: 'points' | 'earned') => sql<number>`case id ${sql.join(mine.map((c) => sql`when ${c.customerId} then cast(${c[of]} as integer)`), sql` `)} else 0 end`;
        await sql`update customers set points_balance = points_balance + ${delta('points')}, points_earned = points_earned + ${delta('earned')} where shop_id = ${shopId} and id in (${sql.join(mine.map((c) => c.customerId))})`.execute(db);
      }
    }
  }
  // VIP tiers (server/services/tiers.ts): the rows' tier points move the customers' tier stats and,
  // with the VIP program launched, may promote them — in this same transaction, so a tier never
  // disagrees with the ledger. Rows that move no tier points (spending, expiry, entry rewards)
  // cost nothing here.
  await onLedgerAppend(db, rows);
}
