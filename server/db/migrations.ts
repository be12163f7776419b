/**
 * Schema migrations, in order. One set serves SQLite and PostgreSQL: only portable column types
 * (text, integer) and Kysely's schema builder. Never edit a shipped migration; add a new one.
 */
import { sql, type Kysely, type Migration } from 'kysely';
import { localDate } from '../../engine/store-time';
import { isSqlite } from './dialect';

export const migrations: Record<string, Migration> = {
  '0001_initial': {
    async up(db: Kysely<unknown>) {
      await db.schema
        .createTable('shops')
        .addColumn('id', 'text', (c) => c.primaryKey())
        .addColumn('name', 'text', (c) => c.notNull())
        .addColumn('email', 'text', (c) => c.notNull())
        .addColumn('plan', 'text', (c) => c.notNull())
        .addColumn('currency', 'text', (c) => c.notNull())
        .addColumn('iana_timezone', 'text', (c) => c.notNull())
        .addColumn('settings', 'text', (c) => c.notNull())
        .addColumn('created_at', 'text', (c) => c.notNull())
        .addColumn('updated_at', 'text', (c) => c.notNull())
        .execute();
      await db.schema
        .createTable('documents')
        .addColumn('id', 'text', (c) => c.primaryKey())
        .addColumn('shop_id', 'text', (c) => c.notNull().references('shops.id'))
        .addColumn('kind', 'text', (c) => c.notNull())
        .addColumn('schema_version', 'integer', (c) => c.notNull())
        .addColumn('version', 'integer', (c) => c.notNull())
        .addColumn('data', 'text', (c) => c.notNull())
        .addColumn('created_at', 'text', (c) => c.notNull())
        .addColumn('updated_at', 'text', (c) => c.notNull())
        .execute();
      await db.schema.createIndex('documents_shop_kind').on('documents').columns(['shop_id', 'kind']).execute();
      await db.schema
        .createTable('customers')
        .addColumn('shop_id', 'text', (c) => c.notNull().references('shops.id'))
        .addColumn('id', 'text', (c) => c.notNull())
        .addColumn('email', 'text', (c) => c.notNull())
        .addColumn('first_name', 'text', (c) => c.notNull())
        .addColumn('last_name', 'text', (c) => c.notNull())
        .addColumn('created_at', 'text', (c) => c.notNull())
        .addColumn('updated_at', 'text', (c) => c.notNull())
        .addPrimaryKeyConstraint('customers_pk', ['shop_id', 'id'])
        .execute();
      await db.schema
        .createTable('ledger_entries')
        .addColumn('id', 'text', (c) => c.primaryKey())
        .addColumn('shop_id', 'text', (c) => c.notNull().references('shops.id'))
        .addColumn('customer_id', 'text', (c) => c.notNull())
        .addColumn('type', 'text', (c) => c.notNull())
        .addColumn('points', 'integer', (c) => c.notNull())
        .addColumn('program_id', 'text')
        .addColumn('program_kind', 'text')
        .addColumn('program_version', 'integer')
        .addColumn('source_type', 'text', (c) => c.notNull())
        .addColumn('source_id', 'text', (c) => c.notNull())
        .addColumn('reverses_id', 'text')
        .addColumn('explanation', 'text', (c) => c.notNull())
        .addColumn('created_at', 'text', (c) => c.notNull())
        .addUniqueConstraint('ledger_entries_once', ['shop_id', 'source_type', 'source_id', 'program_id', 'type'])
        .execute();
      await db.schema.createIndex('ledger_entries_customer').on('ledger_entries').columns(['shop_id', 'customer_id', 'created_at']).execute();
      await db.schema
        .createTable('webhook_receipts')
        .addColumn('shop_id', 'text', (c) => c.notNull().references('shops.id'))
        .addColumn('topic', 'text', (c) => c.notNull())
        .addColumn('resource_id', 'text', (c) => c.notNull())
        .addColumn('received_at', 'text', (c) => c.notNull())
        .addColumn('outcome', 'text', (c) => c.notNull())
        .addPrimaryKeyConstraint('webhook_receipts_pk', ['shop_id', 'topic', 'resource_id'])
        .execute();
    },
  },
  '0002_ledger_append_only': {
    // The ledger is append-only (DESIGN.md): the database itself refuses updates and deletes.
    async up(db: Kysely<unknown>) {
      // Asked of the adapter, not by a query that fails on PostgreSQL (a failed statement would
      // abort the migration's transaction there). PostgreSQL gets its trigger in 0009.
      if (isSqlite(db)) {
        await sql`create trigger ledger_entries_no_update before update on ledger_entries begin select raise(abort, 'ledger_entries is append-only'); end`.execute(db);
        await sql`create trigger ledger_entries_no_delete before delete on ledger_entries begin select raise(abort, 'ledger_entries is append-only'); end`.execute(db);
      }
    },
  },
  '0003_customer_profile_and_pending_points': {
    // Customer type and tier feed eligibility (spec 002 §4, §6); pending awards carry when they become available (spec 002 §4).
    async up(db: Kysely<unknown>) {
      await db.schema.alterTable('customers').addColumn('type', 'text', (c) => c.notNull().defaultTo('member')).execute();
      await db.schema.alterTable('customers').addColumn('tier_id', 'text').execute();
      await db.schema.alterTable('ledger_entries').addColumn('available_at', 'text').execute();
    },
  },
  '0004_uploads': {
    // Merchant images (rewards, reviews, icons), stored as base64 text so SQLite and PostgreSQL share one column type.
    async up(db: Kysely<unknown>) {
      await db.schema
        .createTable('uploads')
        .addColumn('id', 'text', (c) => c.primaryKey())
        .addColumn('shop_id', 'text', (c) => c.notNull().references('shops.id'))
        .addColumn('purpose', 'text', (c) => c.notNull())
        .addColumn('content_type', 'text', (c) => c.notNull())
        .addColumn('file_name', 'text', (c) => c.notNull())
        .addColumn('byte_size', 'integer', (c) => c.notNull())
        .addColumn('data_base64', 'text', (c) => c.notNull())
        .addColumn('created_at', 'text', (c) => c.notNull())
        .execute();
    },
  },
  '0005_receipts_counted_month': {
    // The monthly order allowance (spec 000 §6) counts processed orders with one indexed SQL count
    // instead of reading a month of receipts per webhook. Existing receipts are backfilled.
    async up(db: Kysely<unknown>) {
      await db.schema.alterTable('webhook_receipts').addColumn('counted_month', 'text').execute();
      await db.schema.createIndex('webhook_receipts_counted_month').on('webhook_receipts').columns(['shop_id', 'topic', 'counted_month']).execute();
      const { rows } = await sql<{ shop_id: string; resource_id: string; received_at: string; outcome: string; iana_timezone: string }>`
        select r.shop_id, r.resource_id, r.received_at, r.outcome, s.iana_timezone
        from webhook_receipts r join shops s on s.id = r.shop_id
        where r.topic = 'orders/create'`.execute(db);
      for (const row of rows) {
        const outcome = JSON.parse(row.outcome) as { orderSkipped?: unknown };
        if (outcome.orderSkipped !== null) continue;
        const month = localDate(new Date(row.received_at), row.iana_timezone).slice(0, 7);
        await sql`update webhook_receipts set counted_month = ${month} where shop_id = ${row.shop_id} and topic = 'orders/create' and resource_id = ${row.resource_id}`.execute(db);
      }
    },
  },
  '0006_parked_reversals': {
    // A refund or cancellation can arrive before its order (issue 14): it is parked under its order
    // id and applied in the order's own transaction when the order arrives.
    async up(db: Kysely<unknown>) {
      await db.schema.alterTable('webhook_receipts').addColumn('order_id', 'text').execute();
      await db.schema.alterTable('webhook_receipts').addColumn('parked', 'integer', (c) => c.notNull().defaultTo(0)).execute();
      await db.schema.createIndex('webhook_receipts_parked').on('webhook_receipts').columns(['shop_id', 'order_id', 'parked']).execute();
    },
  },
  '0007_webhook_deliveries': {
    // Webhooks off the request path (issue 14): the delivery is stored before the 200 and processed
    // from this table, per order in arrival order, with retries and dead letters.
    async up(db: Kysely<unknown>) {
      await db.schema
        .createTable('webhook_deliveries')
        .addColumn('id', 'text', (c) => c.primaryKey())
        .addColumn('shop_id', 'text', (c) => c.notNull())
        .addColumn('topic', 'text', (c) => c.notNull())
        .addColumn('webhook_id', 'text')
        .addColumn('order_key', 'text', (c) => c.notNull())
        .addColumn('seq', 'text', (c) => c.notNull())
        .addColumn('body', 'text', (c) => c.notNull())
        .addColumn('received_at', 'text', (c) => c.notNull())
        .addColumn('status', 'text', (c) => c.notNull())
        .addColumn('attempts', 'integer', (c) => c.notNull().defaultTo(0))
        .addColumn('available_at', 'text', (c) => c.notNull())
        .addColumn('locked_until', 'text')
        .addColumn('last_error', 'text')
        .addColumn('result', 'text')
        .addColumn('finished_at', 'text')
        .addUniqueConstraint('webhook_deliveries_once', ['shop_id', 'webhook_id'])
        .execute();
      await db.schema.createIndex('webhook_deliveries_ready').on('webhook_deliveries').columns(['status', 'seq']).execute();
      await db.schema.createIndex('webhook_deliveries_order').on('webhook_deliveries').columns(['shop_id', 'order_key', 'status', 'seq']).execute();
    },
  },
  '0008_scale_indexes_and_allowance_counter': {
    // No request proportional to a shop's history (issue 14): reversals find earlier reversals by
    // index, and the monthly order allowance is one counter row instead of a count over receipts.
    async up(db: Kysely<unknown>) {
      await db.schema.createIndex('ledger_entries_reverses').on('ledger_entries').columns(['shop_id', 'reverses_id']).execute();
      await db.schema
        .createTable('order_allowance_usage')
        .addColumn('shop_id', 'text', (c) => c.notNull())
        .addColumn('month', 'text', (c) => c.notNull())
        .addColumn('orders', 'integer', (c) => c.notNull())
        .addPrimaryKeyConstraint('order_allowance_usage_pk', ['shop_id', 'month'])
        .execute();
      await sql`insert into order_allowance_usage (shop_id, month, orders)
        select shop_id, counted_month, count(*) from webhook_receipts
        where topic = 'orders/create' and counted_month is not null
        group by shop_id, counted_month`.execute(db);
    },
  },
  '0009_postgres_ledger_append_only': {
    // The ledger is append-only on PostgreSQL too (0002 did it for SQLite).
    async up(db: Kysely<unknown>) {
      if (isSqlite(db)) return;
      await sql`create or replace function ledger_entries_append_only() returns trigger language plpgsql as $$
        begin raise exception 'ledger_entries is append-only'; end $$`.execute(db);
      await sql`create trigger ledger_entries_no_update before update or delete on ledger_entries
        for each row execute function ledger_entries_append_only()`.execute(db);
    },
  },
  '0010_webhook_delivery_bodies': {
    // A delivery's body (5–30 KB) moves to its own table: the queue updates a delivery's status
    // row two or three times, and a database rewrites the whole row, body included, each time.
    async up(db: Kysely<unknown>) {
      await db.schema
        .createTable('webhook_delivery_bodies')
        .addColumn('delivery_id', 'text', (c) => c.primaryKey())
        .addColumn('body', 'text', (c) => c.notNull())
        .execute();
      await sql`insert into webhook_delivery_bodies (delivery_id, body) select id, body from webhook_deliveries`.execute(db);
      await db.schema.alterTable('webhook_deliveries').dropColumn('body').execute();
    },
  },
  '0011_customer_list_and_events': {
    // The customers list (issue 10): each customer's points balance kept beside them, moved in the
    // same transaction as every ledger row, so listing and sorting by points reads one row per
    // customer; phone and birthday; and membership events (excluded, joined again, …) with who and when.
    async up(db: Kysely<unknown>) {
      await db.schema.alterTable('customers').addColumn('points_balance', 'integer', (c) => c.notNull().defaultTo(0)).execute();
      await db.schema.alterTable('customers').addColumn('phone', 'text').execute();
      await db.schema.alterTable('customers').addColumn('birthday', 'text').execute();
      await sql`update customers set points_balance = coalesce((select sum(l.points) from ledger_entries l where l.shop_id = customers.shop_id and l.customer_id = customers.id), 0)`.execute(db);
      await db.schema.createIndex('customers_by_points').on('customers').columns(['shop_id', 'points_balance', 'id']).execute();
      await db.schema.createIndex('customers_by_update').on('customers').columns(['shop_id', 'updated_at', 'id']).execute();
      await db.schema.createIndex('customers_by_email').on('customers').columns(['shop_id', 'email']).execute();
      await db.schema
        .createTable('customer_events')
        .addColumn('id', 'text', (c) => c.primaryKey())
        .addColumn('shop_id', 'text', (c) => c.notNull())
        .addColumn('customer_id', 'text', (c) => c.notNull())
        .addColumn('kind', 'text', (c) => c.notNull())
        .addColumn('detail', 'text', (c) => c.notNull())
        .addColumn('actor', 'text', (c) => c.notNull())
        .addColumn('created_at', 'text', (c) => c.notNull())
        .execute();
      await db.schema.createIndex('customer_events_customer').on('customer_events').columns(['shop_id', 'customer_id', 'created_at']).execute();
    },
  },
};
