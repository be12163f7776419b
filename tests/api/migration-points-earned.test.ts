/**
 * Migration 0035_customer_points_earned: lifetime points move onto the customer row and are filled
 * from the ledger already there, with the definition appends keep (server/store/ledger.ts earnedBy):
 * positive entries other than `pending_convert`.
 */
import SQLite from 'better-sqlite3';
import { Kysely, Migrator, SqliteDialect } from 'kysely';
import { describe, expect, it } from 'vitest';
import { migrations } from '../../server/db/migrations';
import type { Database } from '../../server/db/tables';

describe('migration 0035_customer_points_earned', () => {
  it("fills each customer's lifetime points from their ledger", async () => {
    const db = new Kysely<Database>({ dialect: new SqliteDialect({ database: new SQLite(':memory:') }) });
    const upTo = (last: string) =>
      new Migrator({ db, provider: { getMigrations: async () => Object.fromEntries(Object.entries(migrations).filter(([name]) => name <= last)) }, allowUnorderedMigrations: true });
    expect((await upTo('0034_ledger_entries_customer_program').migrateToLatest()).error).toBeUndefined();
    const at = '2026-05-01T00:00:00.000Z';
    await db.insertInto('shops').values({ id: 's.myshopify.com', name: 'S', email: 's@example.com', plan: 'free', currency: 'USD', iana_timezone: 'UTC', settings: '{}', created_at: at, updated_at: at }).execute();
    for (const id of ['1', '2', '3']) await db.insertInto('customers').values({ shop_id: 's.myshopify.com', id, email: `${id}@example.com`, first_name: '', last_name: '', created_at: at, updated_at: at }).execute();
    const entry = (id: string, customer: string, type: string, points: number) => ({ id, shop_id: 's.myshopify.com', customer_id: customer, type, points, source_type: 'test', source_id: id, explanation: '{}', created_at: at });
    await db
      .insertInto('ledger_entries')
      .values([
        entry('a', '1', 'earn_point', 40),
        entry('b', '1', 'spend_point', -30),
        entry('c', '1', 'pending_earn_point', 15),
        entry('d', '1', 'pending_deduct', -15),
        entry('e', '1', 'pending_convert', 15),
        entry('f', '1', 'refund_point', 30),
        entry('g', '2', 'minus_point', -5),
      ])
      .execute();

    expect((await upTo('9999').migrateToLatest()).error).toBeUndefined();
    const rows = await db.selectFrom('customers').select(['id', 'points_earned']).orderBy('id').execute();
    // 40 + 15 (the pending award, counted once: its release is not) + 30; nothing for a deduction only; 0 without entries.
    expect(rows.map((r) => [r.id, Number(r.points_earned)])).toEqual([
      ['1', 85],
      ['2', 0],
      ['3', 0],
    ]);
    await db.destroy();
  });
});
