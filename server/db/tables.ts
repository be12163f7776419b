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
  /**
   * When the first-time setup was finished or skipped (spec 000 §2 "setup page replaces the app";
   * migration 0028); null (or absent on insert) while the shop's setup is not done.
   */
  setup_done_at?: string | null;
  /** When the customers' RFM groups were last read from the platform (migration 0030); null before the first sync. */
  segments_synced_at?: string | null;
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
  /**
   * Lifetime points: the sum of the customer's positive entries other than `pending_convert` (an
   * award's release, whose award was counted), whole points; moved with every append as
   * points_balance is (server/store/ledger.ts `earnedBy`, migration 0035).
   */
  points_earned: Generated<number>;
  phone: string | null;
  /** MM/DD (spec 002 §5 birthday import) or null. */
  birthday: string | null;
  created_at: string;
  updated_at: string;
  /** The platform's RFM group (server/platform/customer-segments.ts RFM_GROUPS) at the last sync; null before it or for a customer the platform has none for (migration 0030). */
  rfm_group?: string | null;
  /** Why a `left` customer left: `admin` (excluded by the merchant) or `segment` (their RFM group is excluded); null for members and guests. */
  left_reason?: string | null;
  /** 1 when the merchant let the customer (back) in despite their group: the segment rule leaves them a member. */
  segment_reverted: Generated<number>;
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

/** A recommended app on the merchant dashboard, managed by staff in the dev zone (spec 001 §2, §3); one list for the whole app, not tenant data. */
export interface RecommendedAppsTable {
  id: string;
  title: string;
  description: string;
  /** Full URL of the logo (an upload's /uploads/:id address or an external https URL). */
  img: string;
  app_store_url: string;
  integration_url: string | null;
  /** `appInstall` or `appIntegration`. */
  type: string;
  /** Lower first; the manager's drag and drop rewrites 1..n. */
  priority: number;
  /** 1 shown to merchants, 0 hidden. */
  is_active: number;
  created_at: string;
  updated_at: string;
}

/** A shop's app credentials (spec 002 §3 App credentials): the secret is shown once, only its SHA-256 is kept. */
export interface AppCredentialsTable {
  shop_id: string;
  app_id: string;
  secret_sha256: string;
  /** Last 4 characters, to recognise the key in the admin. */
  secret_hint: string;
  created_at: string;
}

/** A coupon a shopper bought with points (migration 0018; spec 002 §3 Coupon history). */
export interface CouponsTable {
  id: string;
  shop_id: string;
  customer_id: string;
  /** The redeem reward (document id, kind `redeem.<type>`, its version at redemption). */
  program_id: string;
  program_kind: string;
  program_version: number;
  /** The reward's title at redemption. */
  title: string;
  /** Whole points debited for it. */
  points_spent: number;
  /** The discount code the shopper enters at checkout (unique per shop). */
  code: string;
  /** The discount's id on the platform (`gid://shopify/DiscountCodeNode/…`), or null for a custom voucher. */
  platform_id: string | null;
  /** `available`, `redeemed` (used on an order) or `revoked`. */
  status: string;
  /** When the code stops working (ISO instant), or null for a permanent coupon. */
  expires_at: string | null;
  created_at: string;
  used_at: string | null;
  revoked_at: string | null;
  /** `customer:<id>` (self-revoke) or `admin:<user id>`. */
  revoked_by: string | null;
  /** The admin's note of a revoke (required for admins). */
  note: string | null;
}

/** A stored Idempotency-Key answer (migration 0018): `status` 0 while the first request runs. */
export interface IdempotencyKeysTable {
  shop_id: string;
  /** Whose key: `customer:<id>` for storefront calls. */
  scope: string;
  key: string;
  /** SHA-256 hex of the request (method, path, canonical body). */
  request_hash: string;
  /** HTTP status of the stored answer; 0 = in progress. */
  status: number;
  /** JSON text of the answer body, once finished. */
  answer: string | null;
  created_at: string;
}

/** A customer's referral link (migration 0019; spec 002 §3 Customer.referral link): one per customer, a stable code. */
export interface ReferralLinksTable {
  shop_id: string;
  customer_id: string;
  /** Upper-case letters and digits, unique per shop; the link carries it as `?ref=<code>`. */
  code: string;
  created_at: string;
}

/**
 * A referral (migration 0019; spec 002 §3 Activity referral: status, date, referred e-mail): a
 * friend's first order through an advocate's code. One per friend.
 */
export interface ReferralsTable {
  id: string;
  shop_id: string;
  /** The referring customer (advocate). */
  advocate_id: string;
  code: string;
  friend_customer_id: string;
  /** The friend's e-mail as the order carried it ('' once redacted). */
  friend_email: string;
  /** The friend's order that made the referral. */
  order_id: string;
  /** `pending`, `completed` or `canceled`. */
  status: string;
  /** Why it was canceled (`same_email`, `same_device`, `same_shipping_address`, …), or null. */
  reason: string | null;
  /** JSON text of the friend's reward as issued (`{ type, points? , code?, issued, reason? }`). */
  friend_reward: string;
  /** JSON text of the advocate's reward as issued. */
  advocate_reward: string;
  /** 1 while a discount reward's code is still to be made after the order's transaction (migration 0029), else 0. */
  rewards_pending: number;
  created_at: string;
  updated_at: string;
}

/** A customer whose referrals skip anti-cheat (migration 0019; spec 002 §2 Referral whitelist). */
export interface ReferralWhitelistTable {
  shop_id: string;
  customer_id: string;
  /** Who added it: `admin:<user id>`. */
  actor: string;
  created_at: string;
}

/** A hashed trait of a customer anti-cheat compares (migration 0019): `device`, `ip`, `address`. */
export interface CustomerFingerprintsTable {
  shop_id: string;
  customer_id: string;
  kind: string;
  /** SHA-256 hex of the shop id and the normalised value; the value itself is never stored. */
  value_hash: string;
  seen_at: string;
}

/** A privacy webhook handled (migration 0019): the data request's export, or a redaction's record. */
export interface PrivacyRequestsTable {
  id: string;
  shop_id: string;
  /** `customers/data_request`, `customers/redact`, `shop/redact`, `app/uninstalled`. */
  topic: string;
  /** What makes a redelivery the same request (data request id, customer id, …). */
  request_key: string;
  customer_id: string | null;
  /** JSON text: the customer's data for a data request; counts of what was removed for a redaction. */
  payload: string;
  received_at: string;
}

/** A shop redacted (migration 0019): `purging` is 1 only inside the redaction's own transaction. */
export interface ShopRedactionsTable {
  shop_id: string;
  purging: number;
  redacted_at: string;
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
  customer_exports: CustomerExportsTable;
  email_outbox: EmailOutboxTable;
  tier_program: TierProgramTable;
  customer_tier_stats: CustomerTierStatsTable;
  customer_tier_state: CustomerTierStateTable;
  point_expiry_runs: PointExpiryRunsTable;
  point_expiry_shop_runs: PointExpiryShopRunsTable;
  point_expiry_reminders: PointExpiryRemindersTable;
  milestone_steps: MilestoneStepsTable;
  event_job_runs: EventJobRunsTable;
  custom_trigger_tests: CustomTriggerTestsTable;
  referral_links: ReferralLinksTable;
  referrals: ReferralsTable;
  referral_whitelist: ReferralWhitelistTable;
  customer_fingerprints: CustomerFingerprintsTable;
  privacy_requests: PrivacyRequestsTable;
  shop_redactions: ShopRedactionsTable;
  coupons: CouponsTable;
  idempotency_keys: IdempotencyKeysTable;
  recommended_apps: RecommendedAppsTable;
  app_credentials: AppCredentialsTable;
  shop_access_tokens: ShopAccessTokensTable;
  install_states: InstallStatesTable;
  billing_subscriptions: BillingSubscriptionsTable;
  document_versions: DocumentVersionsTable;
  order_facts: OrderFactsTable;
  order_line_products: OrderLineProductsTable;
  order_replay: OrderReplayTable;
  translations: TranslationsTable;
}

/** A shop's offline access token (migration 0020): AES-256-GCM ciphertext, null once revoked. */
export interface ShopAccessTokensTable {
  shop_id: string;
  /** `<iv>.<tag>.<ciphertext>`, base64url each; null after revocation. */
  ciphertext: string | null;
  /** Which key of the key list encrypted it (server/platform/access-tokens.ts). */
  key_id: string | null;
  /** Comma-separated scopes the platform granted. */
  scopes: string;
  created_at: string;
  updated_at: string;
  /** When the app was uninstalled or the token refused; null while usable. */
  revoked_at: string | null;
}

/** A standalone install's one-time `state` (migration 0020), deleted when used. */
export interface InstallStatesTable {
  state: string;
  shop_id: string;
  expires_at: string;
}

/** A subscription to a plan (migration 0020; spec 000 §3 Subscription plan, §4 Changing plan). */
export interface BillingSubscriptionsTable {
  id: string;
  shop_id: string;
  /** Plan id of rules/plans.json (`pro_3_2025`). */
  plan: string;
  /** `monthly` or `annual`. */
  billing_interval: string;
  /** `pending` (waiting for the merchant's confirmation), `active`, `declined`, `replaced`, `cancelled`. */
  status: string;
  /** The platform's charge id (`gid://shopify/AppSubscription/…`, or `local-…` for the local adapter). */
  platform_id: string | null;
  /** Price per interval before discount, minor currency units (USD cents). */
  price_minor: number;
  discount_code: string | null;
  /** Percent off, 0 when none. */
  discount_percent: number;
  /** For how many intervals the discount applies; 0 when none. */
  discount_months: number;
  trial_days: number;
  confirmation_url: string | null;
  created_at: string;
  activated_at: string | null;
  /** When it was declined, replaced or cancelled. */
  ended_at: string | null;
}

/**
 * A customer's settled milestone step (migration 0017): `awarded` (bonus points on the ledger,
 * source `milestone`), `passed_over` (a lower step skipped under highest_only, for good) or
 * `reward_pending` (a coupon or product reward waiting to be issued). One row per step, ever.
 */
export interface MilestoneStepsTable {
  shop_id: string;
  customer_id: string;
  program_id: string;
  step_index: number;
  outcome: string;
  /** Whole points awarded (0 for other outcomes). */
  points: number;
  /** JSON text of the engine's MilestoneReward (or the passed-over step). */
  reward: string;
  created_at: string;
}

/** A finished daily earning-event job (`birthdays`) of one store for one store-local date (migration 0017). */
export interface EventJobRunsTable {
  shop_id: string;
  job: string;
  /** Store-local YYYY-MM-DD. */
  run_date: string;
  finished_at: string;
}

/** The last test trigger a custom program's action key received (its connection test, migration 0017). */
export interface CustomTriggerTestsTable {
  shop_id: string;
  action_key: string;
  received_at: string;
}

/**
 * One saved version of a document (migration 0023, issue 15): the data exactly as saved at that
 * `version` (write-only secrets included, masked when answered), who saved it and when.
 */
export interface DocumentVersionsTable {
  shop_id: string;
  document_id: string;
  /** The document's edit version this row holds (1 for the create). */
  version: number;
  kind: string;
  schema_version: number;
  /** JSON text of the document data. */
  data: string;
  /** The session's user (`sub`), or `system` for seeds and jobs. */
  actor: string;
  created_at: string;
}

/**
 * An ingested order's normalised facts (migration 0023, issue 15), kept for previews: replaying a
 * draft program over the shop's past orders.
 */
export interface OrderFactsTable {
  shop_id: string;
  order_id: string;
  /** When the order was placed (ISO instant; the receipt time when the order did not say). */
  placed_at: string;
  customer_id: string | null;
  /** The customer's type when the order came: member, guest or left. */
  customer_type: string;
  tier_id: string | null;
  /** Whole points the place-order programs awarded for it (after tier multipliers). */
  awarded_points: number;
  /** JSON text of engine/order.ts OrderFacts, packed (server/services/simulate.ts packFacts). */
  facts: string;
}

/**
 * An order's replay form (migration 0024): what a preview's fast path reads of it, one row per
 * `order_facts` row, in the order previews read them (shop, placed_at, order id).
 */
export interface OrderReplayTable {
  shop_id: string;
  /** As order_facts.placed_at. */
  placed_at: string;
  order_id: string;
  /** For a customer's redaction (server/services/privacy.ts). */
  customer_id: string | null;
  /** server/services/simulate-compact.ts: `A…` the replay text, or `F<order id>` to read the full facts. */
  replay: string;
}

/** The product side of stored order lines (migration 0023), shared by the orders that name its key. */
export interface OrderLineProductsTable {
  shop_id: string;
  /** Short hash of `attrs` (server/services/simulate.ts productKey). */
  key: string;
  /** JSON text: product and variant ids, title, vendor, type, SKU, tags, collections, unit price (minor and major), gift card. */
  attrs: string;
}

/**
 * A shop's saved storefront translation settings and texts (migration 0026, issue 13): `data` is
 * the JSON text of server/services/translations.ts TranslationSettings; one row per shop.
 */
export interface TranslationsTable {
  shop_id: string;
  data: string;
  /** Edit version: 1 after the first save, +1 per save. */
  version: number;
  updated_at: string;
}

/**
 * A customer export e-mailed as CSV (migration 0033; spec 002 §2 "Exports are emailed as CSV";
 * server/services/customer-export/job.ts).
 */
export interface CustomerExportsTable {
  id: string;
  shop_id: string;
  /** The e-mail address the CSV goes to. */
  recipient: string;
  /** JSON `{ tab, search?, ids? }` (server/services/customer-import/export.ts ExportQuery). */
  query: string;
  /** The app's public origin when the export was asked for: the base of a download link. */
  app_origin: string;
  /** `queued`, `running`, `sent` or `failed`. */
  status: string;
  /** Why it failed, or null. */
  error: string | null;
  /** The written CSV on disk, null before it is written and once it is no longer needed. */
  file_path: string | null;
  /** Customers in the file, once written. */
  row_count: number | null;
  /** Bytes of the file, once written completely (a resumed job reuses a complete file). */
  byte_size: number | null;
  /** `attachment` or `link`, once sent. */
  delivery: string | null;
  /** When the download link stops working (ISO), for `link` deliveries. */
  link_expires_at: string | null;
  /** The e-mail's Message-ID, fixed at creation, so a resent message is the same message. */
  message_id: string;
  /** Runs started (claims), including resumed ones. */
  attempts: Generated<number>;
  /** A runner owns the job until this instant (ISO); a killed runner's claim lapses. */
  locked_until: string | null;
  /** Who asked: `admin:<user id>`. */
  actor: string;
  created_at: string;
  started_at: string | null;
  finished_at: string | null;
}

/** A message the local e-mail adapter kept instead of sending (migration 0033; server/email/outbox.ts). */
export interface EmailOutboxTable {
  id: string;
  shop_id: string;
  /** Unique: a message sent twice with the same Message-ID is kept once. */
  message_id: string;
  sender: string;
  recipient: string;
  subject: string;
  text: string;
  /** JSON array of `{ filename, contentType, size, content }`, content base64, size in bytes. */
  attachments: string;
  created_at: string;
}
