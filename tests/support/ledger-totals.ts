/**
 * The ledger invariant every append keeps (server/store/ledger.ts appendEntries, the CSV import):
 * each customer's stored `points_balance` is the sum of their entries and `points_earned` the sum
 * of what they earned (positive entries other than `pending_convert`, earnedBy). Computed here in
 * SQL, apart from the code that maintains the columns.
 */
import { sql } from 'kysely';
import { expect } from 'vitest';
import type { Db } from '../../server/db/database';

/** Every customer of `shopId` whose stored totals differ from their ledger's, with both; [] when all agree. */
export async function ledgerTotalsDisagreeing(db: Db, shopId: string): Promise<{ id: string; balance: number; earned: number; ledgerBalance: number; ledgerEarned: number }[]> {
  const rows = await db
    .selectFrom('customers as c')
    .select([
      'c.id',
      'c.points_balance',
      'c.points_earned',
      sql<number>`coalesce((select sum(l.points) from ledger_entries l where l.shop_id = c.shop_id and l.customer_id = c.id), 0)`.as('ledger_balance'),
      sql<number>`coalesce((select sum(l.points) from ledger_entries l where l.shop_id = c.shop_id and l.customer_id = c.id and l.points > 0 and l.type <> 'pending_convert'), 0)`.as('ledger_earned'),
    ])
    .where('c.shop_id', '=', shopId)
    .execute();
  return rows
    .map((r) => ({ id: r.id, balance: Number(r.points_balance), earned: Number(r.points_earned), ledgerBalance: Number(r.ledger_balance), ledgerEarned: Number(r.ledger_earned) }))
    .filter((r) => r.balance !== r.ledgerBalance || r.earned !== r.ledgerEarned);
}

/** Asserts the invariant for every customer of `shopId` (and that the shop has at least `atLeast` customers, so it is not vacuous). */
export async function expectLedgerTotalsAgree(db: Db, shopId: string, atLeast = 1): Promise<void> {
  const { n } = await db.selectFrom('customers').select((eb) => eb.fn.countAll<number>().as('n')).where('shop_id', '=', shopId).executeTakeFirstOrThrow();
  expect(Number(n)).toBeGreaterThanOrEqual(atLeast);
  expect(await ledgerTotalsDisagreeing(db, shopId)).toEqual([]);
}
