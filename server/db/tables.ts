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

export interface Database {
  shops: ShopsTable;
  documents: DocumentsTable;
  customers: CustomersTable;
  customer_events: CustomerEventsTable;
  ledger_entries: LedgerEntriesTable;
  webhook_receipts: WebhookReceiptsTable;
  uploads: UploadsTable;
  webhook_deliveries: WebhookDeliveriesTable;
  webhook_delivery_bodies: WebhookDeliveryBodiesTable;
  order_allowance_usage: OrderAllowanceUsageTable;
}
