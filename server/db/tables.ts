import type { Generated } from 'kysely';

/**
 * Table shapes (Kysely). Portable across SQLite and PostgreSQL: ids and timestamps are text
 * (ISO 8601 UTC), JSON is text, integers are points or versions. Every tenant table has `shop_id`.
 */
export interface ShopsTable {
  /** The shop's platform domain, e.g. `demo-shop.myshopify.com`; the tenant key everywhere. */
  id: string;
  name: string;
  email: string;
  plan: string;
  currency: string;
  iana_timezone: string;
  /** JSON text of the rest of the shop entity (spec 000 §3). */
  settings: string;
  created_at: string;
  updated_at: string;
}

export interface DocumentsTable {
  id: string;
  shop_id: string;
  kind: string;
  schema_version: number;
  version: number;
  /** JSON text of the document data. */
  data: string;
  created_at: string;
  updated_at: string;
}

export interface CustomersTable {
  shop_id: string;
  /** Platform customer id as an exact string (ids exceed 2^53). */
  id: string;
  email: string;
  first_name: string;
  last_name: string;
  /** member, guest or left (spec 002 §3 Customer.type). */
  type: Generated<string>;
  tier_id: string | null;
  /** The sum of the customer's ledger entries (available and pending), whole points; moved with every append. */
  points_balance: Generated<number>;
  phone: string | null;
  /** MM/DD (spec 002 §5 birthday import) or null. */
  birthday: string | null;
  created_at: string;
  updated_at: string;
}

/** A review reported by the review app or the storefront, waiting for or past its approval (migration 0015). */
export interface ReviewsTable {
  id: string;
  shop_id: string;
  /** Where it came from: `review_app`, `storefront` or `google_maps`. */
  source: string;
  /** The review's id at its source (unique per shop and source). */
  external_id: string;
  /** The earning event it counts for: `write_review` or `google_maps_review`. */
  event: string;
  customer_id: string;
  /** Stars 1–5, or null when the source sends none. */
  rating: number | null;
  title: string;
  content: string;
  /** 1 when the review carries photos or video (the media bonus applies). */
  has_media: number;
  /** Google Maps: the review's link. */
  url: string | null;
  product_title: string | null;
  /** `pending`, `approved` or `disapproved`. */
  status: string;
  created_at: string;
  decided_at: string | null;
  /** `admin:<user id>`, or `auto` when the program approves automatically. */
  decided_by: string | null;
}

/** A membership change of a customer (excluded, joined again, …) with who made it and when. */
export interface CustomerEventsTable {
  id: string;
  shop_id: string;
  customer_id: string;
  /** `excluded`, `rejoined`, `birthday_changed`. */
  kind: string;
  /** JSON object with the change's details. */
  detail: string;
  /** Who: `admin:<user id>`, `system`, `import`. */
  actor: string;
  created_at: string;
}

export interface LedgerEntriesTable {
  id: string;
  shop_id: string;
  customer_id: string;
  /** Point history type (spec 000 §3): earn_point, spend_point, minus_point, pending_earn_point, … */
  type: string;
  /** Signed whole points. */
  points: number;
  program_id: string | null;
  program_kind: string | null;
  program_version: number | null;
  /** What caused the entry: `order`, `adjustment`, … and its id. */
  source_type: string;
  source_id: string;
  /** The entry this one corrects, for reversals. */
  reverses_id: string | null;
  /** JSON text of the engine's decision (program, conditions with fact values, arithmetic). */
  explanation: string;
  created_at: string;
  /** For pending awards: when the points become available (ISO instant); null = available at once. */
  available_at?: string | null;
}

export interface WebhookReceiptsTable {
  shop_id: string;
  /** e.g. `orders/create`. */
  topic: string;
  resource_id: string;
  received_at: string;
  /** JSON text of what the delivery decided (the order evaluation). */
  outcome: string;
  /**
   * For refunds and cancellations: the order they reverse, so a reversal that arrived before its
   * order (webhook order is not guaranteed) is found and applied when the order comes. Null for
   * rows written before migration 0006 and for orders/create.
   */
  order_id?: string | null;
  /** 1 while a reversal waits for its order; 0 once applied (or for other rows). */
  parked?: number;
  /**
   * For `orders/create`: the store-local month (`YYYY-MM`) the order counts toward the plan's
   * monthly order allowance; null when the order was skipped, and for other topics.
   */
  counted_month?: string | null;
}

/**
 * A platform webhook as received (issue 14): stored durably before the 200, then processed from
 * the queue (server/webhooks/queue.ts) in `seq` order per (shop, order_key).
 */
export interface WebhookDeliveriesTable {
  id: string;
  shop_id: string;
  topic: string;
  /** The platform's `X-Shopify-Webhook-Id` (the same on its retries), or null. */
  webhook_id: string | null;
  /** The order the delivery is about: deliveries of one order are processed in arrival order. */
  order_key: string;
  /** Arrival order: zero-padded milliseconds and a per-process counter, so text order is arrival order. */
  seq: string;
  received_at: string;
  /** `queued`, `done` or `dead` (retries exhausted or refused for good). */
  status: string;
  attempts: number;
  /** Not before this instant (ISO): the retry back-off. */
  available_at: string;
  /** A worker owns it until this instant (ISO); a crashed worker's claim lapses. Null = unclaimed. */
  locked_until: string | null;
  last_error: string | null;
  /** JSON text of what processing answered. */
  result: string | null;
  finished_at: string | null;
}

/** A delivery's body as received (UTF-8 text), apart from its often-updated status row. */
export interface WebhookDeliveryBodiesTable {
  delivery_id: string;
  body: string;
}

/** Orders the loyalty program processed per store-local month: the plan allowance as a counter (issue 14). */
export interface OrderAllowanceUsageTable {
  shop_id: string;
  /** `YYYY-MM`, store-local. */
  month: string;
  orders: number;
}

export interface UploadsTable {
  id: string;
  shop_id: string;
  /** Which image rule it passed (rules/image-rules.json). */
  purpose: string;
  content_type: string;
  file_name: string;
  /** Bytes. */
  byte_size: number;
  data_base64: string;
  created_at: string;
}

/**
 * A customer CSV import (issue 10, spec 002 §2 Migration wizard, §4): the uploaded file, how its
 * columns map to customer fields, and its progress. `processed_rows` is the cursor committed in the
 * same transaction as each batch's customers, ledger entries and bad rows.
 */
export interface CustomerImportsTable {
  id: string;
  shop_id: string;
  file_name: string;
  /** Where the upload is kept on disk (server/services/customer-import/files.ts). */
  file_path: string;
  /** Bytes. */
  byte_size: number;
  /** `customers` (migration), `birthday` (Email, Birthday) or `points` (Email, Points, Create Date). */
  kind: string;
  /** `,` or `;`, detected from the header line. */
  delimiter: string;
  /** JSON array of the header names as in the file. */
  headers: string;
  /** JSON object header name → field, once started. */
  mapping: string | null;
  /** `from_file` or `ignore`, once started. */
  tier_rule: string | null;
  /** `uploaded`, `mapped`, `migrating`, `completed`, `failed`. */
  status: string;
  /** Data rows counted at upload. */
  total_rows: number;
  processed_rows: Generated<number>;
  imported_rows: Generated<number>;
  failed_rows: Generated<number>;
  /** Whole points awarded by the import so far. */
  points_awarded: Generated<number>;
  /** Why the import failed (the spec's message), or null. */
  error: string | null;
  /** A runner owns the import until this instant (ISO); a crashed runner's claim lapses. */
  locked_until: string | null;
  /** Who started it: `admin:<user id>` or `cli`. */
  actor: string;
  created_at: string;
  started_at: string | null;
  finished_at: string | null;
}

/** A bad row of an import: its row number (the header is row 1), the reasons and its cells as read. */
export interface CustomerImportErrorsTable {
  import_id: string;
  row_number: number;
  shop_id: string;
  reason: string;
  /** JSON array of the row's cells. */
  cells: string;
}

/** The VIP tier program's launch state per shop (spec 002 §4 launch, deactivate, relaunch). */
export interface TierProgramTable {
  shop_id: string;
  /** `launched` or `inactive`. */
  status: string;
  launched_at: string | null;
  /** Store-local YYYY-MM-DD from which activity counts (settings general.startDate at launch), or null. */
  start_date: string | null;
  change_notes: string;
  /** 1 when the last (re)launch granted entry rewards. */
  grant_entry_rewards: number;
  /** Who launched, deactivated or relaunched last: `admin:<user id>`. */
  actor: string;
  updated_at: string;
}

/** A customer's tier stats in one store-local month: points, minor units, orders. */
export interface CustomerTierStatsTable {
  shop_id: string;
  customer_id: string;
  /** Store-local `YYYY-MM`. */
  month: string;
  tier_points: number;
  amount_spent_minor: number;
  orders: number;
}

/** A customer's tier bookkeeping beside customers.tier_id. */
export interface CustomerTierStateTable {
  shop_id: string;
  customer_id: string;
  /** Store-local `YYYY-MM` from which stats count (set when a tier change resets them), or null = all. */
  counted_from: string | null;
  /** The last activity or tier change (ISO): the demotion clock starts here. */
  last_activity_at: string | null;
  /** 1 while an admin-assigned exclusive tier holds (assessment leaves the customer alone). */
  manual: Generated<number>;
}

/** One customer's daily expiry run (idempotent per customer per store-local day). */
export interface PointExpiryRunsTable {
  shop_id: string;
  customer_id: string;
  run_date: string;
  /** Points expired by the run (0 when nothing was due). */
  points: number;
  created_at: string;
}

/** A shop's finished daily expiry run (store-local date). */
export interface PointExpiryShopRunsTable {
  shop_id: string;
  run_date: string;
  finished_at: string;
}

/** A point-expiry reminder e-mail due (spec 002 §9: 7-day and 3-day); sending comes later. */
export interface PointExpiryRemindersTable {
  id: string;
  shop_id: string;
  customer_id: string;
  /** Store-local date the points expire on. */
  expires_on: string;
  days_before: number;
  points: number;
  /** Store-local date the reminder is due. */
  due_on: string;
  created_at: string;
  sent_at: string | null;
}

export interface Database {
  shops: ShopsTable;
  documents: DocumentsTable;
  customers: CustomersTable;
  customer_events: CustomerEventsTable;
  reviews: ReviewsTable;
  ledger_entries: LedgerEntriesTable;
  webhook_receipts: WebhookReceiptsTable;
  uploads: UploadsTable;
  webhook_deliveries: WebhookDeliveriesTable;
  webhook_delivery_bodies: WebhookDeliveryBodiesTable;
  order_allowance_usage: OrderAllowanceUsageTable;
  customer_imports: CustomerImportsTable;
  customer_import_errors: CustomerImportErrorsTable;
  tier_program: TierProgramTable;
  customer_tier_stats: CustomerTierStatsTable;
  customer_tier_state: CustomerTierStateTable;
  point_expiry_runs: PointExpiryRunsTable;
  point_expiry_shop_runs: PointExpiryShopRunsTable;
  point_expiry_reminders: PointExpiryRemindersTable;
}
