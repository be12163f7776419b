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
  '0012_customer_imports': {
    // Customer CSV import (issue 10, spec 002 §2 Migration wizard, §4, §5): one row per import job
    // with its status and the row cursor committed with each batch, so a restarted server resumes
    // where the last committed batch ended; the bad rows with their reasons; a unique source id per
    // imported ledger entry (the 0001 constraint lets NULL program ids repeat), so no batch can award
    // twice; and an index to find customers by phone.
    async up(db: Kysely<unknown>) {
      await db.schema
        .createTable('customer_imports')
        .addColumn('id', 'text', (c) => c.primaryKey())
        .addColumn('shop_id', 'text', (c) => c.notNull())
        .addColumn('file_name', 'text', (c) => c.notNull())
        .addColumn('file_path', 'text', (c) => c.notNull())
        .addColumn('byte_size', 'integer', (c) => c.notNull())
        .addColumn('kind', 'text', (c) => c.notNull())
        .addColumn('delimiter', 'text', (c) => c.notNull())
        .addColumn('headers', 'text', (c) => c.notNull())
        .addColumn('mapping', 'text')
        .addColumn('tier_rule', 'text')
        .addColumn('status', 'text', (c) => c.notNull())
        .addColumn('total_rows', 'integer', (c) => c.notNull())
        .addColumn('processed_rows', 'integer', (c) => c.notNull().defaultTo(0))
        .addColumn('imported_rows', 'integer', (c) => c.notNull().defaultTo(0))
        .addColumn('failed_rows', 'integer', (c) => c.notNull().defaultTo(0))
        .addColumn('points_awarded', 'integer', (c) => c.notNull().defaultTo(0))
        .addColumn('error', 'text')
        .addColumn('locked_until', 'text')
        .addColumn('actor', 'text', (c) => c.notNull())
        .addColumn('created_at', 'text', (c) => c.notNull())
        .addColumn('started_at', 'text')
        .addColumn('finished_at', 'text')
        .execute();
      await db.schema.createIndex('customer_imports_shop').on('customer_imports').columns(['shop_id', 'created_at']).execute();
      await db.schema.createIndex('customer_imports_status').on('customer_imports').columns(['status']).execute();
      await db.schema
        .createTable('customer_import_errors')
        .addColumn('import_id', 'text', (c) => c.notNull())
        .addColumn('row_number', 'integer', (c) => c.notNull())
        .addColumn('shop_id', 'text', (c) => c.notNull())
        .addColumn('reason', 'text', (c) => c.notNull())
        .addColumn('cells', 'text', (c) => c.notNull())
        .addPrimaryKeyConstraint('customer_import_errors_pk', ['import_id', 'row_number'])
        .execute();
      await sql`create unique index ledger_entries_import_once on ledger_entries (shop_id, source_id) where source_type = 'import'`.execute(db);
      await db.schema.createIndex('customers_by_phone').on('customers').columns(['shop_id', 'phone']).execute();
    },
  },
  '0013_tier_placement_and_expiry': {
    // VIP tiers that place customers and point expiry (issue 10; spec 002 §3 Tier, §4, §9): the
    // program's launch state, per-customer tier stats in store-local month buckets (so any
    // assessment period is a handful of indexed rows, never a scan of the ledger), the demotion
    // clock and manual assignment, the daily expiry runs (one per customer per store-local day)
    // and the expiry reminders due; and the ledger by (shop, time) for the daily expiry scan.
    async up(db: Kysely<unknown>) {
      await db.schema
        .createTable('tier_program')
        .addColumn('shop_id', 'text', (c) => c.primaryKey())
        .addColumn('status', 'text', (c) => c.notNull())
        .addColumn('launched_at', 'text')
        .addColumn('start_date', 'text')
        .addColumn('change_notes', 'text', (c) => c.notNull())
        .addColumn('grant_entry_rewards', 'integer', (c) => c.notNull())
        .addColumn('actor', 'text', (c) => c.notNull())
        .addColumn('updated_at', 'text', (c) => c.notNull())
        .execute();
      await db.schema
        .createTable('customer_tier_stats')
        .addColumn('shop_id', 'text', (c) => c.notNull())
        .addColumn('customer_id', 'text', (c) => c.notNull())
        .addColumn('month', 'text', (c) => c.notNull())
        .addColumn('tier_points', 'integer', (c) => c.notNull())
        .addColumn('amount_spent_minor', 'integer', (c) => c.notNull())
        .addColumn('orders', 'integer', (c) => c.notNull())
        .addPrimaryKeyConstraint('customer_tier_stats_pk', ['shop_id', 'customer_id', 'month'])
        .execute();
      await db.schema
        .createTable('customer_tier_state')
        .addColumn('shop_id', 'text', (c) => c.notNull())
        .addColumn('customer_id', 'text', (c) => c.notNull())
        .addColumn('counted_from', 'text')
        .addColumn('last_activity_at', 'text')
        .addColumn('manual', 'integer', (c) => c.notNull().defaultTo(0))
        .addPrimaryKeyConstraint('customer_tier_state_pk', ['shop_id', 'customer_id'])
        .execute();
      await db.schema.createIndex('customer_tier_state_activity').on('customer_tier_state').columns(['shop_id', 'last_activity_at']).execute();
      await db.schema
        .createTable('point_expiry_runs')
        .addColumn('shop_id', 'text', (c) => c.notNull())
        .addColumn('customer_id', 'text', (c) => c.notNull())
        .addColumn('run_date', 'text', (c) => c.notNull())
        .addColumn('points', 'integer', (c) => c.notNull())
        .addColumn('created_at', 'text', (c) => c.notNull())
        .addPrimaryKeyConstraint('point_expiry_runs_pk', ['shop_id', 'customer_id', 'run_date'])
        .execute();
      await db.schema
        .createTable('point_expiry_shop_runs')
        .addColumn('shop_id', 'text', (c) => c.notNull())
        .addColumn('run_date', 'text', (c) => c.notNull())
        .addColumn('finished_at', 'text', (c) => c.notNull())
        .addPrimaryKeyConstraint('point_expiry_shop_runs_pk', ['shop_id', 'run_date'])
        .execute();
      await db.schema
        .createTable('point_expiry_reminders')
        .addColumn('id', 'text', (c) => c.primaryKey())
        .addColumn('shop_id', 'text', (c) => c.notNull())
        .addColumn('customer_id', 'text', (c) => c.notNull())
        .addColumn('expires_on', 'text', (c) => c.notNull())
        .addColumn('days_before', 'integer', (c) => c.notNull())
        .addColumn('points', 'integer', (c) => c.notNull())
        .addColumn('due_on', 'text', (c) => c.notNull())
        .addColumn('created_at', 'text', (c) => c.notNull())
        .addColumn('sent_at', 'text')
        .addUniqueConstraint('point_expiry_reminders_once', ['shop_id', 'customer_id', 'expires_on', 'days_before'])
        .execute();
      await db.schema.createIndex('point_expiry_reminders_unsent').on('point_expiry_reminders').columns(['shop_id', 'sent_at', 'due_on']).execute();
      await db.schema.createIndex('ledger_entries_shop_time').on('ledger_entries').columns(['shop_id', 'created_at']).execute();
    },
  },
  '0014_customer_bench_indexes': {
    // Found by `npm run bench:customers` (issue 10, 100,000 customers, 1,000,000 entries): the list's
    // tab filter had no index, so its total counted the whole table (tab=member: count p50 59 ms,
    // page p95 132 ms); and the pending points of a page read every entry of its customers (the
    // default first page shows the customers with the most entries: 20 ms). A tab's count now reads
    // one index range, its pages come in points order from the same index, and pending points read
    // only the entries not available yet (a partial index: most entries have no available_at).
    async up(db: Kysely<unknown>) {
      await db.schema.createIndex('customers_by_type').on('customers').columns(['shop_id', 'type', 'points_balance', 'id']).execute();
      await db.schema.createIndex('ledger_entries_pending').on('ledger_entries').columns(['shop_id', 'customer_id', 'available_at']).where(sql<boolean>`available_at is not null`).execute();
    },
  },
  '0015_reviews': {
    // Product and Google Maps reviews awaiting approval (issue 10, spec 002 §3 Activity "review …
    // status pending, approved, disapproved", §4 review approval): one row per review the review
    // app or the storefront reported, unique per source and its id there, and who decided it.
    async up(db: Kysely<unknown>) {
      await db.schema
        .createTable('reviews')
        .addColumn('id', 'text', (c) => c.primaryKey())
        .addColumn('shop_id', 'text', (c) => c.notNull())
        .addColumn('source', 'text', (c) => c.notNull())
        .addColumn('external_id', 'text', (c) => c.notNull())
        .addColumn('event', 'text', (c) => c.notNull())
        .addColumn('customer_id', 'text', (c) => c.notNull())
        .addColumn('rating', 'integer')
        .addColumn('title', 'text', (c) => c.notNull())
        .addColumn('content', 'text', (c) => c.notNull())
        .addColumn('has_media', 'integer', (c) => c.notNull())
        .addColumn('url', 'text')
        .addColumn('product_title', 'text')
        .addColumn('status', 'text', (c) => c.notNull())
        .addColumn('created_at', 'text', (c) => c.notNull())
        .addColumn('decided_at', 'text')
        .addColumn('decided_by', 'text')
        .addUniqueConstraint('reviews_once', ['shop_id', 'source', 'external_id'])
        .execute();
      await db.schema.createIndex('reviews_by_status').on('reviews').columns(['shop_id', 'status', 'created_at', 'id']).execute();
    },
  },
  '0016_wide_counters_on_postgres': {
    // Running totals outgrow PostgreSQL's 32-bit `integer` (2,147,483,647): an amount spent in minor
    // units passes it at $21.5 million, a balance at 2.1 billion points. SQLite's INTEGER is 64-bit
    // already; on PostgreSQL these become `bigint` (read back as numbers, server/db/database.ts).
    async up(db: Kysely<unknown>) {
      if (isSqlite(db)) return;
      await db.schema.alterTable('customers').alterColumn('points_balance', (c) => c.setDataType('bigint')).execute();
      await db.schema.alterTable('customer_tier_stats').alterColumn('tier_points', (c) => c.setDataType('bigint')).execute();
      await db.schema.alterTable('customer_tier_stats').alterColumn('amount_spent_minor', (c) => c.setDataType('bigint')).execute();
    },
  },
  '0021_recommended_apps_and_credentials': {
    // Issue 12 (SHELL): the dev zone's recommended apps (spec 001 §2, §3; one list for the whole app,
    // managed by staff, shown on every merchant's dashboard) and each shop's app credentials (spec
    // 002 §3: app id and a secret kept only as its SHA-256). Settings themselves are the
    // `settings.shop` document (schemas/settings/shop).
    async up(db: Kysely<unknown>) {
      await db.schema
        .createTable('recommended_apps')
        .addColumn('id', 'text', (c) => c.primaryKey())
        .addColumn('title', 'text', (c) => c.notNull())
        .addColumn('description', 'text', (c) => c.notNull())
        .addColumn('img', 'text', (c) => c.notNull())
        .addColumn('app_store_url', 'text', (c) => c.notNull())
        .addColumn('integration_url', 'text')
        .addColumn('type', 'text', (c) => c.notNull())
        .addColumn('priority', 'integer', (c) => c.notNull())
        .addColumn('is_active', 'integer', (c) => c.notNull())
        .addColumn('created_at', 'text', (c) => c.notNull())
        .addColumn('updated_at', 'text', (c) => c.notNull())
        .execute();
      await db.schema
        .createTable('app_credentials')
        .addColumn('shop_id', 'text', (c) => c.primaryKey())
        .addColumn('app_id', 'text', (c) => c.notNull())
        .addColumn('secret_sha256', 'text', (c) => c.notNull())
        .addColumn('secret_hint', 'text', (c) => c.notNull())
        .addColumn('created_at', 'text', (c) => c.notNull())
        .execute();
    },
  },
  '0018_redemptions': {
    // Redemption (issue 11; spec 001 §3 reward types, spec 002 §3 "Coupon history: discount code,
    // redeemed points, expiry, used, revoke reason", §4 revoke): one row per coupon a shopper bought
    // with points — the reward (program id, kind, version), the points spent, the code and its id on
    // the platform, its status (available, redeemed, revoked) and who revoked it with the admin note;
    // and the Idempotency-Key answers of storefront writes (DESIGN.md "API writes accept an
    // Idempotency-Key"): the request's hash and the answer stored, unique per shop, shopper and key.
    async up(db: Kysely<unknown>) {
      await db.schema
        .createTable('coupons')
        .addColumn('id', 'text', (c) => c.primaryKey())
        .addColumn('shop_id', 'text', (c) => c.notNull())
        .addColumn('customer_id', 'text', (c) => c.notNull())
        .addColumn('program_id', 'text', (c) => c.notNull())
        .addColumn('program_kind', 'text', (c) => c.notNull())
        .addColumn('program_version', 'integer', (c) => c.notNull())
        .addColumn('title', 'text', (c) => c.notNull())
        .addColumn('points_spent', 'integer', (c) => c.notNull())
        .addColumn('code', 'text', (c) => c.notNull())
        .addColumn('platform_id', 'text')
        .addColumn('status', 'text', (c) => c.notNull())
        .addColumn('expires_at', 'text')
        .addColumn('created_at', 'text', (c) => c.notNull())
        .addColumn('used_at', 'text')
        .addColumn('revoked_at', 'text')
        .addColumn('revoked_by', 'text')
        .addColumn('note', 'text')
        .addUniqueConstraint('coupons_code_once', ['shop_id', 'code'])
        .execute();
      await db.schema.createIndex('coupons_by_customer').on('coupons').columns(['shop_id', 'customer_id', 'created_at']).execute();
      await db.schema.createIndex('coupons_by_program').on('coupons').columns(['shop_id', 'program_id', 'status']).execute();
      await db.schema.createIndex('coupons_by_revoke').on('coupons').columns(['shop_id', 'revoked_by', 'revoked_at']).execute();
      await db.schema
        .createTable('idempotency_keys')
        .addColumn('shop_id', 'text', (c) => c.notNull())
        .addColumn('scope', 'text', (c) => c.notNull())
        .addColumn('key', 'text', (c) => c.notNull())
        .addColumn('request_hash', 'text', (c) => c.notNull())
        .addColumn('status', 'integer', (c) => c.notNull())
        .addColumn('answer', 'text')
        .addColumn('created_at', 'text', (c) => c.notNull())
        .addPrimaryKeyConstraint('idempotency_keys_pk', ['shop_id', 'scope', 'key'])
        .execute();
    },
  },
  '0020_billing_and_access_tokens': {
    // Issue 12 (BILLING): each shop's offline access token, encrypted (server/platform/access-tokens.ts);
    // the one-time `state` of a standalone install; and the shop's subscriptions with the platform's
    // billing (server/services/billing.ts), newest last, the active one the shop's plan.
    async up(db: Kysely<unknown>) {
      await db.schema
        .createTable('shop_access_tokens')
        .addColumn('shop_id', 'text', (c) => c.primaryKey())
        .addColumn('ciphertext', 'text')
        .addColumn('key_id', 'text')
        .addColumn('scopes', 'text', (c) => c.notNull())
        .addColumn('created_at', 'text', (c) => c.notNull())
        .addColumn('updated_at', 'text', (c) => c.notNull())
        .addColumn('revoked_at', 'text')
        .execute();
      await db.schema
        .createTable('install_states')
        .addColumn('state', 'text', (c) => c.primaryKey())
        .addColumn('shop_id', 'text', (c) => c.notNull())
        .addColumn('expires_at', 'text', (c) => c.notNull())
        .execute();
      await db.schema
        .createTable('billing_subscriptions')
        .addColumn('id', 'text', (c) => c.primaryKey())
        .addColumn('shop_id', 'text', (c) => c.notNull())
        .addColumn('plan', 'text', (c) => c.notNull())
        .addColumn('billing_interval', 'text', (c) => c.notNull())
        .addColumn('status', 'text', (c) => c.notNull())
        .addColumn('platform_id', 'text')
        .addColumn('price_minor', 'integer', (c) => c.notNull())
        .addColumn('discount_code', 'text')
        .addColumn('discount_percent', 'integer', (c) => c.notNull())
        .addColumn('discount_months', 'integer', (c) => c.notNull())
        .addColumn('trial_days', 'integer', (c) => c.notNull())
        .addColumn('confirmation_url', 'text')
        .addColumn('created_at', 'text', (c) => c.notNull())
        .addColumn('activated_at', 'text')
        .addColumn('ended_at', 'text')
        .execute();
      await db.schema.createIndex('billing_subscriptions_by_shop').on('billing_subscriptions').columns(['shop_id', 'created_at']).execute();
    },
  },
  '0019_referrals_and_privacy': {
    // Referrals at run time (issue 11, spec 002 §2 Referral whitelist, §3 Referral settings and
    // Activity "referral … canceled, completed, pending"): one referral link per customer (a stable
    // code, unique per shop), the referrals (one per friend: advocate, friend, the order that
    // completed it, status and why, the rewards issued), the whitelist that skips anti-cheat, and
    // hashed fingerprints (device id, browser IP, shipping address) anti-cheat compares. Privacy
    // webhooks: the data requests answered and the shops being redacted — the ledger's delete
    // trigger now lets a row go only while its shop is being redacted (shop/redact), inside that
    // one transaction; everything else stays append-only.
    async up(db: Kysely<unknown>) {
      await db.schema
        .createTable('referral_links')
        .addColumn('shop_id', 'text', (c) => c.notNull())
        .addColumn('customer_id', 'text', (c) => c.notNull())
        .addColumn('code', 'text', (c) => c.notNull())
        .addColumn('created_at', 'text', (c) => c.notNull())
        .addPrimaryKeyConstraint('referral_links_pk', ['shop_id', 'customer_id'])
        .addUniqueConstraint('referral_links_code', ['shop_id', 'code'])
        .execute();
      await db.schema
        .createTable('referrals')
        .addColumn('id', 'text', (c) => c.primaryKey())
        .addColumn('shop_id', 'text', (c) => c.notNull())
        .addColumn('advocate_id', 'text', (c) => c.notNull())
        .addColumn('code', 'text', (c) => c.notNull())
        .addColumn('friend_customer_id', 'text', (c) => c.notNull())
        .addColumn('friend_email', 'text', (c) => c.notNull())
        .addColumn('order_id', 'text', (c) => c.notNull())
        .addColumn('status', 'text', (c) => c.notNull())
        .addColumn('reason', 'text')
        .addColumn('friend_reward', 'text', (c) => c.notNull())
        .addColumn('advocate_reward', 'text', (c) => c.notNull())
        .addColumn('created_at', 'text', (c) => c.notNull())
        .addColumn('updated_at', 'text', (c) => c.notNull())
        .addUniqueConstraint('referrals_one_per_friend', ['shop_id', 'friend_customer_id'])
        .execute();
      await db.schema.createIndex('referrals_by_advocate').on('referrals').columns(['shop_id', 'advocate_id', 'created_at']).execute();
      await db.schema
        .createTable('referral_whitelist')
        .addColumn('shop_id', 'text', (c) => c.notNull())
        .addColumn('customer_id', 'text', (c) => c.notNull())
        .addColumn('actor', 'text', (c) => c.notNull())
        .addColumn('created_at', 'text', (c) => c.notNull())
        .addPrimaryKeyConstraint('referral_whitelist_pk', ['shop_id', 'customer_id'])
        .execute();
      await db.schema.createIndex('referral_whitelist_by_time').on('referral_whitelist').columns(['shop_id', 'created_at', 'customer_id']).execute();
      await db.schema
        .createTable('customer_fingerprints')
        .addColumn('shop_id', 'text', (c) => c.notNull())
        .addColumn('customer_id', 'text', (c) => c.notNull())
        .addColumn('kind', 'text', (c) => c.notNull())
        .addColumn('value_hash', 'text', (c) => c.notNull())
        .addColumn('seen_at', 'text', (c) => c.notNull())
        .addPrimaryKeyConstraint('customer_fingerprints_pk', ['shop_id', 'customer_id', 'kind', 'value_hash'])
        .execute();
      await db.schema
        .createTable('privacy_requests')
        .addColumn('id', 'text', (c) => c.primaryKey())
        .addColumn('shop_id', 'text', (c) => c.notNull())
        .addColumn('topic', 'text', (c) => c.notNull())
        .addColumn('request_key', 'text', (c) => c.notNull())
        .addColumn('customer_id', 'text')
        .addColumn('payload', 'text', (c) => c.notNull())
        .addColumn('received_at', 'text', (c) => c.notNull())
        .addUniqueConstraint('privacy_requests_once', ['shop_id', 'topic', 'request_key'])
        .execute();
      await db.schema
        .createTable('shop_redactions')
        .addColumn('shop_id', 'text', (c) => c.primaryKey())
        .addColumn('purging', 'integer', (c) => c.notNull())
        .addColumn('redacted_at', 'text', (c) => c.notNull())
        .execute();
      if (isSqlite(db)) {
        await sql`drop trigger ledger_entries_no_delete`.execute(db);
        await sql`create trigger ledger_entries_no_delete before delete on ledger_entries
          when not exists (select 1 from shop_redactions r where r.shop_id = old.shop_id and r.purging = 1)
          begin select raise(abort, 'ledger_entries is append-only'); end`.execute(db);
      } else {
        await sql`create or replace function ledger_entries_append_only() returns trigger language plpgsql as $$
          begin
            if tg_op = 'DELETE' and exists (select 1 from shop_redactions r where r.shop_id = old.shop_id and r.purging = 1) then return old; end if;
            raise exception 'ledger_entries is append-only';
          end $$`.execute(db);
      }
    },
  },
  '0017_earning_events': {
    // Earning events and milestones at run time (issue 11; spec 001 §3, spec 002 §3–§5): each
    // customer's milestone steps once settled (awarded, passed over under highest_only, or a coupon
    // reward waiting for the discount adapter), so a step is never rewarded twice; the daily
    // birthday and anniversary job's finished runs per store-local date; the last test trigger of a
    // custom program's action key (its connection test); and customers by birthday for the job.
    async up(db: Kysely<unknown>) {
      await db.schema
        .createTable('milestone_steps')
        .addColumn('shop_id', 'text', (c) => c.notNull())
        .addColumn('customer_id', 'text', (c) => c.notNull())
        .addColumn('program_id', 'text', (c) => c.notNull())
        .addColumn('step_index', 'integer', (c) => c.notNull())
        .addColumn('outcome', 'text', (c) => c.notNull())
        .addColumn('points', 'integer', (c) => c.notNull())
        .addColumn('reward', 'text', (c) => c.notNull())
        .addColumn('created_at', 'text', (c) => c.notNull())
        .addPrimaryKeyConstraint('milestone_steps_pk', ['shop_id', 'customer_id', 'program_id', 'step_index'])
        .execute();
      await db.schema
        .createTable('event_job_runs')
        .addColumn('shop_id', 'text', (c) => c.notNull())
        .addColumn('job', 'text', (c) => c.notNull())
        .addColumn('run_date', 'text', (c) => c.notNull())
        .addColumn('finished_at', 'text', (c) => c.notNull())
        .addPrimaryKeyConstraint('event_job_runs_pk', ['shop_id', 'job', 'run_date'])
        .execute();
      await db.schema
        .createTable('custom_trigger_tests')
        .addColumn('shop_id', 'text', (c) => c.notNull())
        .addColumn('action_key', 'text', (c) => c.notNull())
        .addColumn('received_at', 'text', (c) => c.notNull())
        .addPrimaryKeyConstraint('custom_trigger_tests_pk', ['shop_id', 'action_key'])
        .execute();
      await db.schema.createIndex('customers_by_birthday').on('customers').columns(['shop_id', 'birthday']).execute();
    },
  },
  '0023_document_versions': {
    // Document versions and order facts (issue 15, VERSIONS): every save of any document keeps its
    // data as a version row (written in the save's transaction), so the admin lists versions, diffs
    // two of them and rolls back; and every ingested order keeps its normalised facts and the points
    // it was awarded, so a draft program can be replayed over the shop's past orders (preview); the
    // product side of order lines is kept once per shop and product (order_line_products).
    async up(db: Kysely<unknown>) {
      await db.schema
        .createTable('document_versions')
        .addColumn('shop_id', 'text', (c) => c.notNull())
        .addColumn('document_id', 'text', (c) => c.notNull())
        .addColumn('version', 'integer', (c) => c.notNull())
        .addColumn('kind', 'text', (c) => c.notNull())
        .addColumn('schema_version', 'integer', (c) => c.notNull())
        .addColumn('data', 'text', (c) => c.notNull())
        .addColumn('actor', 'text', (c) => c.notNull())
        .addColumn('created_at', 'text', (c) => c.notNull())
        .addPrimaryKeyConstraint('document_versions_pk', ['shop_id', 'document_id', 'version'])
        .execute();
      await db.schema
        .createTable('order_facts')
        .addColumn('shop_id', 'text', (c) => c.notNull())
        .addColumn('order_id', 'text', (c) => c.notNull())
        .addColumn('placed_at', 'text', (c) => c.notNull())
        .addColumn('customer_id', 'text')
        .addColumn('customer_type', 'text', (c) => c.notNull())
        .addColumn('tier_id', 'text')
        .addColumn('awarded_points', 'integer', (c) => c.notNull())
        .addColumn('facts', 'text', (c) => c.notNull())
        .addPrimaryKeyConstraint('order_facts_pk', ['shop_id', 'order_id'])
        .execute();
      await db.schema.createIndex('order_facts_by_time').on('order_facts').columns(['shop_id', 'placed_at']).execute();
      await db.schema
        .createTable('order_line_products')
        .addColumn('shop_id', 'text', (c) => c.notNull())
        .addColumn('key', 'text', (c) => c.notNull())
        .addColumn('attrs', 'text', (c) => c.notNull())
        .addPrimaryKeyConstraint('order_line_products_pk', ['shop_id', 'key'])
        .execute();
    },
  },
  '0024_order_replay': {
    // Preview speed (issue 15, `npm run bench`): each stored order's replay form — what the fast
    // path reads, as short text (server/services/simulate-compact.ts) — in a narrow table keyed by
    // the window's order, so a preview reads 100,000 orders in key order without the full facts
    // (on SQLite WITHOUT ROWID: the rows are the key's B-tree, no lookup per row). Orders stored
    // before it get the marker `F<order id>`: the preview reads those from their full facts. No
    // index on customer_id (nor has order_facts): only a customer's redaction looks rows up by it.
    async up(db: Kysely<unknown>) {
      const table = db.schema
        .createTable('order_replay')
        .addColumn('shop_id', 'text', (c) => c.notNull())
        .addColumn('placed_at', 'text', (c) => c.notNull())
        .addColumn('order_id', 'text', (c) => c.notNull())
        .addColumn('customer_id', 'text')
        .addColumn('replay', 'text', (c) => c.notNull())
        .addPrimaryKeyConstraint('order_replay_pk', ['shop_id', 'placed_at', 'order_id']);
      await (isSqlite(db) ? table.modifyEnd(sql`without rowid`) : table).execute();
      await sql`insert into order_replay (shop_id, placed_at, order_id, customer_id, replay) select shop_id, placed_at, order_id, customer_id, 'F' || order_id from order_facts`.execute(db);
    },
  },
  '0025_ledger_reversals_index_partial': {
    // Customer import speed (issue 10, `npm run bench:customers`): `ledger_entries_reverses` held one
    // entry per ledger row, yet only reversals have a `reverses_id` and every query of it asks for
    // given ids (`reverses_id in (…)`, which implies not null, so both databases still use it).
    // Partial, it costs nothing for the rows of an import, an order or a redemption.
    async up(db: Kysely<unknown>) {
      await db.schema.dropIndex('ledger_entries_reverses').execute();
      await db.schema.createIndex('ledger_entries_reverses').on('ledger_entries').columns(['shop_id', 'reverses_id']).where(sql.ref('reverses_id'), 'is not', null).execute();
    },
  },
  '0026_translations': {
    // The storefront texts a shop saved in the translation editor (issue 13; spec 001 §3 Translation):
    // one row per shop holding primaryLanguage, detectMethod, additionalLanguages and the merchant's
    // texts per language and variant (JSON text), with an edit version for optimistic saves.
    async up(db: Kysely<unknown>) {
      await db.schema
        .createTable('translations')
        .addColumn('shop_id', 'text', (c) => c.primaryKey())
        .addColumn('data', 'text', (c) => c.notNull())
        .addColumn('version', 'integer', (c) => c.notNull())
        .addColumn('updated_at', 'text', (c) => c.notNull())
        .execute();
    },
  },
  '0028_shop_setup_done': {
    // The first-time setup wizard (issue 12; spec 000 §2 "If the shop's setup is not done, a setup
    // page replaces the app"; spec 002 §2 ST7): when the shop finished (or skipped) it, null while
    // not done. Shops that existed before the wizard are already running, so they count as done.
    async up(db: Kysely<unknown>) {
      await db.schema.alterTable('shops').addColumn('setup_done_at', 'text').execute();
      await sql`update shops set setup_done_at = updated_at`.execute(db);
    },
  },
  '0029_referral_rewards_pending': {
    // Referral discount rewards are decided inside the friend's order transaction but made on the
    // platform after it commits (server/services/referral-rewards.ts), so a platform call never
    // holds the database; `rewards_pending` = 1 marks a referral with a code still to make (the
    // periodic sweep finds them by the partial index).
    async up(db: Kysely<unknown>) {
      await db.schema.alterTable('referrals').addColumn('rewards_pending', 'integer', (c) => c.notNull().defaultTo(0)).execute();
      await db.schema.createIndex('referrals_rewards_pending').on('referrals').columns(['shop_id', 'id']).where(sql.ref('rewards_pending'), '=', 1).execute();
    },
  },
  '0030_customer_rfm_segments': {
    // Customer segments (issue 10; spec 002 §2 "Customer segmentation uses 11 predefined RFM
    // groups", the Left segment tab, §4 "a customer in an excluded segment can be reverted"):
    // each customer's RFM group as the platform last reported it; why a left customer left
    // (`admin`: excluded one by one, `segment`: their group is excluded in settings); whether the
    // merchant let them back in despite their group (the segment rule then leaves them alone); and
    // when the shop's groups were last read from the platform.
    async up(db: Kysely<unknown>) {
      await db.schema.alterTable('customers').addColumn('rfm_group', 'text').execute();
      await db.schema.alterTable('customers').addColumn('left_reason', 'text').execute();
      await db.schema.alterTable('customers').addColumn('segment_reverted', 'integer', (c) => c.notNull().defaultTo(0)).execute();
      await sql`update customers set left_reason = 'admin' where type = 'left'`.execute(db);
      await db.schema.createIndex('customers_by_rfm_group').on('customers').columns(['shop_id', 'rfm_group']).execute();
      await db.schema.alterTable('shops').addColumn('segments_synced_at', 'text').execute();
    },
  },
  '0031_customer_name_search': {
    // The customers list's name search (issue 10: "search by name"): the start of the full name
    // (first and last) or of the last name, case-insensitive, read as a range of these expression
    // indexes (server/services/customers.ts nameSearch) instead of testing every customer's name.
    // PostgreSQL compares them in code point order (collate "C"), as SQLite does, so a prefix's
    // range holds exactly the names that start with it.
    async up(db: Kysely<unknown>) {
      const c = isSqlite(db) ? sql`` : sql` collate "C"`;
      await sql`create index customers_by_full_name on customers (shop_id, (lower(first_name || ' ' || last_name))${c})`.execute(db);
      await sql`create index customers_by_last_name on customers (shop_id, (lower(last_name))${c})`.execute(db);
    },
  },
  '0032_ledger_entries_customer_covering': {
    // The storefront's balance card (issue 11 "Speed") sums a shopper's lifetime points on every
    // call. `ledger_entries_customer` also carries `points` and `type` now, so that sum is read from
    // the index alone instead of one table row (about 1 KB, with its explanation) per entry: on
    // 100,000 customers and 1,000,000 entries the read went from 93 µs (cold) / 22 µs (warm) to a few.
    // Same name and leading columns, so every reader of the customer's ledger by date keeps it.
    async up(db: Kysely<unknown>) {
      await db.schema.dropIndex('ledger_entries_customer').execute();
      await db.schema.createIndex('ledger_entries_customer').on('ledger_entries').columns(['shop_id', 'customer_id', 'created_at', 'points', 'type']).execute();
    },
  },
  '0033_customer_exports_and_email_outbox': {
    // Customer exports e-mailed as CSV (spec 002 §2 "Exports are emailed as CSV", COVERAGE CU9):
    // one row per export job with its status (`queued`, `running`, `sent`, `failed` with the
    // reason) and a claim (`locked_until`) that a killed server's runner loses, so the next start
    // takes the job up again (server/services/customer-export/job.ts). The local e-mail adapter's
    // outbox (demo mode and tests, server/email/outbox.ts): one row per message, unique per
    // Message-ID, so a job resumed after a crash that had already sent cannot file it twice.
    async up(db: Kysely<unknown>) {
      await db.schema
        .createTable('customer_exports')
        .addColumn('id', 'text', (c) => c.primaryKey())
        .addColumn('shop_id', 'text', (c) => c.notNull())
        .addColumn('recipient', 'text', (c) => c.notNull())
        .addColumn('query', 'text', (c) => c.notNull())
        .addColumn('app_origin', 'text', (c) => c.notNull())
        .addColumn('status', 'text', (c) => c.notNull())
        .addColumn('error', 'text')
        .addColumn('file_path', 'text')
        .addColumn('row_count', 'integer')
        .addColumn('byte_size', 'integer')
        .addColumn('delivery', 'text')
        .addColumn('link_expires_at', 'text')
        .addColumn('message_id', 'text', (c) => c.notNull())
        .addColumn('attempts', 'integer', (c) => c.notNull().defaultTo(0))
        .addColumn('locked_until', 'text')
        .addColumn('actor', 'text', (c) => c.notNull())
        .addColumn('created_at', 'text', (c) => c.notNull())
        .addColumn('started_at', 'text')
        .addColumn('finished_at', 'text')
        .execute();
      await db.schema.createIndex('customer_exports_shop').on('customer_exports').columns(['shop_id', 'created_at']).execute();
      await db.schema.createIndex('customer_exports_status').on('customer_exports').columns(['status']).execute();
      await db.schema
        .createTable('email_outbox')
        .addColumn('id', 'text', (c) => c.primaryKey())
        .addColumn('shop_id', 'text', (c) => c.notNull())
        .addColumn('message_id', 'text', (c) => c.notNull().unique())
        .addColumn('sender', 'text', (c) => c.notNull())
        .addColumn('recipient', 'text', (c) => c.notNull())
        .addColumn('subject', 'text', (c) => c.notNull())
        .addColumn('text', 'text', (c) => c.notNull())
        .addColumn('attachments', 'text', (c) => c.notNull())
        .addColumn('created_at', 'text', (c) => c.notNull())
        .execute();
      await db.schema.createIndex('email_outbox_shop').on('email_outbox').columns(['shop_id', 'created_at']).execute();
    },
  },
  '0034_ledger_entries_customer_program': {
    // The storefront's ways to earn (issue 11 "Speed") asks on every call which once-in-a-lifetime
    // programs the shopper already earned from: `ledger_entries_customer` carries `program_id` too
    // now, so that is read from the index alone instead of one table row (about 1 KB, with its
    // explanation) per entry: 57 µs → a few on 100,000 customers and 1,000,000 entries. Same name
    // and leading columns, so every reader of the customer's ledger by date keeps it.
    async up(db: Kysely<unknown>) {
      await db.schema.dropIndex('ledger_entries_customer').execute();
      await db.schema.createIndex('ledger_entries_customer').on('ledger_entries').columns(['shop_id', 'customer_id', 'created_at', 'points', 'type', 'program_id']).execute();
    },
  },
  '0035_customer_points_earned': {
    // Lifetime points kept on the customer row, moved with every append as points_balance is
    // (server/store/ledger.ts): the storefront's balance card and the admin's profile summed every
    // entry of the customer on each call, the most for the customers with the longest history
    // (4,000 entries: hundreds of µs). Filled here from the ledger with the same definition
    // (positive entries other than `pending_convert`).
    async up(db: Kysely<unknown>) {
      await db.schema.alterTable('customers').addColumn('points_earned', isSqlite(db) ? 'integer' : 'bigint', (c) => c.notNull().defaultTo(0)).execute();
      await sql`update customers set points_earned = coalesce((select sum(l.points) from ledger_entries l where l.shop_id = customers.shop_id and l.customer_id = customers.id and l.points > 0 and l.type <> 'pending_convert'), 0)`.execute(db);
    },
  },
  '0036_order_pass_sorted_indexes': {
    // Two lookups that follow every order (issue 14 "Speed") sorted their answer in a temporary
    // b-tree although it is nearly always empty: the customer's pending milestone rewards
    // (server/services/milestone-rewards.ts, by creation time) and the refunds or cancellations
    // parked for the order (server/services/refunds.ts, by arrival). Opening that sorter inside the
    // processing thread's group transaction cost 40–130 µs a query, measured, against 10–15 µs for
    // the same lookup read in index order. The indexes now end with the sort column.
    async up(db: Kysely<unknown>) {
      await db.schema.createIndex('milestone_steps_by_outcome').on('milestone_steps').columns(['shop_id', 'outcome', 'customer_id', 'created_at']).execute();
      await db.schema.dropIndex('webhook_receipts_parked').execute();
      await db.schema.createIndex('webhook_receipts_parked').on('webhook_receipts').columns(['shop_id', 'order_id', 'parked', 'received_at']).execute();
    },
  },
  '0037_drop_receipts_counted_month_index': {
    // Since 0008 the monthly allowance is a counter row (order_allowance_usage) and nothing reads
    // webhook_receipts by counted_month: the index only cost every processed order one more b-tree
    // insert inside the group commit (issue 14 "Speed"). The column stays: it records the month an
    // order counted in, and 0008 rebuilt the counters from it.
    async up(db: Kysely<unknown>) {
      await db.schema.dropIndex('webhook_receipts_counted_month').ifExists().execute();
    },
  },
};
