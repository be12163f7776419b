/**
 * The platform's mandatory privacy webhooks and the uninstall (issue 11 "Privacy webhooks"), each
 * HMAC-verified by the webhook route and processed from the queue (server/webhooks/topics.ts), each
 * safe to repeat:
 * - `customers/data_request`: everything the app holds about the customer, as JSON, stored once per
 *   request id in `privacy_requests` for the merchant to hand over (logged without the data).
 * - `customers/redact`: the customer's personal data removed from every table that holds it
 *   (CUSTOMER_TABLES below): the customer row keeps its id, type, tier and balance with e-mail,
 *   names, phone and birthday blanked; the ledger, tier stats and expiry runs are kept (numbers
 *   only), so the shop's totals do not move; events, reviews, coupons, referral links, whitelist,
 *   fingerprints, reminders, stored order facts, idempotent answers, data-request exports, import
 *   error rows and the bodies of the webhooks about the customer or the orders to redact go, and so
 *   do the customer exports that name them (the CSV behind a download link, the local outbox's
 *   message with the attached copy).
 * - `shop/redact`: every row of the shop in every table (SHOP_TABLES, the ledger included: its
 *   delete trigger lets rows go only inside this transaction, migration 0019) and the import and
 *   export files on disk; the shop row stays as a tombstone without name, e-mail or settings, so a redelivery
 *   is still admitted and changes nothing.
 * - `app/uninstalled`: the shop marked uninstalled (`settings.uninstalledAt`) and its offline
 *   access token revoked (server/platform/access-tokens.ts `revokeAccessToken`).
 *
 * A new table that holds a customer id or a shop id must be listed below: tests/api/privacy.test.ts
 * fails for a table that is not.
 */
import { readFile, rm } from 'node:fs/promises';
import { sql } from 'kysely';
import { idString } from '../../engine/order';
import type { AppDeps } from '../deps';
import type { Db } from '../db/database';
import { ApiError } from '../errors';
import { revokeAccessToken } from '../platform/access-tokens';
import { findShop, shopSettings } from '../store/shops';
import type { FinishDelivery, WebhookTopic } from '../webhooks/topics';

export const PRIVACY_TOPICS = ['customers/data_request', 'customers/redact', 'shop/redact', 'app/uninstalled'] as const;
export type PrivacyTopic = (typeof PRIVACY_TOPICS)[number];

/**
 * What `customers/redact` does to each table with the customer's id, by the column holding it:
 * `delete` the rows; `keep` them (numbers and ids only: the ledger and totals); `anonymize` (the
 * customer row); `scrub_friend` (a referral keeps its row, the friend's e-mail goes).
 */
export const CUSTOMER_TABLES: Readonly<Record<string, { column: string; action: 'delete' | 'keep' | 'anonymize' | 'scrub_friend' }[]>> = {
  customers: [{ column: 'id', action: 'anonymize' }],
  ledger_entries: [{ column: 'customer_id', action: 'keep' }],
  customer_tier_stats: [{ column: 'customer_id', action: 'keep' }],
  customer_tier_state: [{ column: 'customer_id', action: 'keep' }],
  point_expiry_runs: [{ column: 'customer_id', action: 'keep' }],
  milestone_steps: [{ column: 'customer_id', action: 'keep' }],
  referrals: [
    { column: 'advocate_id', action: 'keep' },
    { column: 'friend_customer_id', action: 'scrub_friend' },
  ],
  customer_events: [{ column: 'customer_id', action: 'delete' }],
  reviews: [{ column: 'customer_id', action: 'delete' }],
  coupons: [{ column: 'customer_id', action: 'delete' }],
  point_expiry_reminders: [{ column: 'customer_id', action: 'delete' }],
  order_facts: [{ column: 'customer_id', action: 'delete' }],
  order_replay: [{ column: 'customer_id', action: 'delete' }],
  referral_links: [{ column: 'customer_id', action: 'delete' }],
  referral_whitelist: [{ column: 'customer_id', action: 'delete' }],
  customer_fingerprints: [{ column: 'customer_id', action: 'delete' }],
  privacy_requests: [{ column: 'customer_id', action: 'delete' }],
};

/**
 * Tables matched by text rather than by a customer-id column (customers/redact): import error rows
 * by the e-mail in their cells, idempotent answers by `customer:<id>` scope, webhook bodies by the
 * e-mail, the customer or the orders to redact.
 */
export const CUSTOMER_TEXT_TABLES = ['customer_import_errors', 'idempotency_keys', 'webhook_delivery_bodies', 'webhook_deliveries'] as const;

/**
 * Every table with a `shop_id`, children before parents: `shop/redact` deletes the shop's rows of
 * each (webhook bodies go with their deliveries). `shops` itself is kept as a tombstone and
 * `shop_redactions` as the record; tables without a shop (recommended apps) are the app's own.
 */
export const SHOP_TABLES: readonly string[] = [
  'customer_import_errors',
  'customer_imports',
  'document_versions',
  'documents',
  'ledger_entries',
  'customer_events',
  'reviews',
  'coupons',
  'idempotency_keys',
  'milestone_steps',
  'order_facts',
  'order_line_products',
  'order_replay',
  'referral_links',
  'referrals',
  'referral_whitelist',
  'customer_fingerprints',
  'point_expiry_reminders',
  'point_expiry_runs',
  'point_expiry_shop_runs',
  'customer_tier_stats',
  'customer_tier_state',
  'tier_program',
  'customers',
  'webhook_receipts',
  'order_allowance_usage',
  'uploads',
  'event_job_runs',
  'custom_trigger_tests',
  'app_credentials',
  'billing_subscriptions',
  'shop_access_tokens',
  'install_states',
  'privacy_requests',
  'translations',
  'customer_exports',
  'email_outbox',
];

/** Tables the privacy handling leaves alone on purpose: the tombstone, its record, the app's own. */
export const UNTOUCHED_TABLES = ['shops', 'shop_redactions', 'recommended_apps'] as const;

const obj = (v: unknown): Record<string, unknown> => (v !== null && typeof v === 'object' && !Array.isArray(v) ? (v as Record<string, unknown>) : {});
const nowIso = (deps: Pick<AppDeps, 'now'>): string => (deps.now ?? (() => new Date()))().toISOString();
const badBody = (path: string, message: string): ApiError => new ApiError(400, 'invalid_webhook', message, [{ path, message }]);

/** A customer privacy payload: the customer's id and e-mail, the orders named, the request id. */
interface CustomerPayload {
  customerId: string;
  email: string;
  orderIds: string[];
  requestId: string | null;
}

/**
 * The customer of a `customers/data_request` or `customers/redact` body.
 * @throws ApiError 400 `invalid_webhook` at `/customer/id` when there is none
 */
export function parseCustomerPayload(body: unknown): CustomerPayload {
  const raw = obj(body);
  const customer = obj(raw.customer);
  const customerId = idString(customer.id);
  if (!customerId) throw badBody('/customer/id', 'The payload names no customer');
  const orders = Array.isArray(raw.orders_to_redact) ? raw.orders_to_redact : Array.isArray(raw.orders_requested) ? raw.orders_requested : [];
  return {
    customerId,
    email: typeof customer.email === 'string' ? customer.email.trim() : '',
    orderIds: orders.map(idString).filter((id): id is string => id !== null).slice(0, 10_000),
    requestId: idString(obj(raw.data_request).id),
  };
}

/** `%…%` LIKE pattern for `text` (lower case), with `\`, `%` and `_` escaped. */
const containsPattern = (text: string): string => `%${text.toLowerCase().replace(/[\\%_]/g, (c) => `\\${c}`)}%`;

/** Every row the app holds about the customer, by table (the customers/data_request export). */
export async function customerData(db: Db, shopId: string, customer: CustomerPayload): Promise<Record<string, unknown[]>> {
  const data: Record<string, unknown[]> = {};
  for (const [table, links] of Object.entries(CUSTOMER_TABLES)) {
    if (table === 'privacy_requests') continue;
    const rows: unknown[] = [];
    for (const { column } of links) {
      const found = await sql<Record<string, unknown>>`select * from ${sql.table(table)} where shop_id = ${shopId} and ${sql.ref(column)} = ${customer.customerId}`.execute(db);
      rows.push(...found.rows);
    }
    if (rows.length > 0) data[table] = rows;
  }
  const emails = await emailsOf(db, shopId, customer);
  if (emails.length > 0) {
    const imports = await db
      .selectFrom('customer_import_errors')
      .select(['import_id', 'row_number', 'reason', 'cells'])
      .where('shop_id', '=', shopId)
      .where((eb) => eb.or(emails.map((e) => eb(sql<string>`lower(cells)`, 'like', containsPattern(e)))))
      .execute();
    if (imports.length > 0) data.customer_import_errors = imports;
  }
  return data;
}

/** The customer's e-mails: the payload's and the stored one (lower case, distinct, non-empty). */
async function emailsOf(db: Db, shopId: string, customer: CustomerPayload): Promise<string[]> {
  const row = await db.selectFrom('customers').select('email').where('shop_id', '=', shopId).where('id', '=', customer.customerId).executeTakeFirst();
  return [...new Set([customer.email, row?.email ?? ''].map((e) => e.trim().toLowerCase()).filter((e) => e !== ''))];
}

/**
 * `customers/data_request`: stores the export once per request (id from `data_request.id`, else the
 * customer id and the day). Answers `{ requestId, tables, duplicate }`.
 */
export async function handleDataRequest(deps: AppDeps, shopId: string, body: unknown, finish: FinishDelivery): Promise<unknown> {
  const customer = parseCustomerPayload(body);
  const at = nowIso(deps);
  const requestKey = customer.requestId ?? `${customer.customerId}:${at.slice(0, 10)}`;
  return deps.db.transaction().execute(async (tx) => {
    const existing = await tx.selectFrom('privacy_requests').select('id').where('shop_id', '=', shopId).where('topic', '=', 'customers/data_request').where('request_key', '=', requestKey).executeTakeFirst();
    let result: { requestId: string; tables: string[]; duplicate: boolean };
    if (existing) {
      result = { requestId: existing.id, tables: [], duplicate: true };
    } else {
      const data = await customerData(tx, shopId, customer);
      const id = crypto.randomUUID();
      await tx
        .insertInto('privacy_requests')
        .values({ id, shop_id: shopId, topic: 'customers/data_request', request_key: requestKey, customer_id: customer.customerId, payload: JSON.stringify({ customerId: customer.customerId, ordersRequested: customer.orderIds, data }), received_at: at })
        .execute();
      result = { requestId: id, tables: Object.keys(data), duplicate: false };
      deps.logger?.info({ shopId, customerId: customer.customerId, requestId: id, tables: result.tables }, 'customer data request stored');
    }
    await finish(tx, result);
    return result;
  });
}

/** A stored data request as the merchant sees it: `data` is the customer's data by table. */
export interface DataRequestView {
  id: string;
  customerId: string | null;
  receivedAt: string;
  data?: unknown;
}

/** The shop's data requests, newest first (at most 100), without their data. */
export async function listDataRequests(db: Db, shopId: string): Promise<DataRequestView[]> {
  const rows = await db
    .selectFrom('privacy_requests')
    .select(['id', 'customer_id', 'received_at'])
    .where('shop_id', '=', shopId)
    .where('topic', '=', 'customers/data_request')
    .orderBy('received_at', 'desc')
    .orderBy('id', 'desc')
    .limit(100)
    .execute();
  return rows.map((r) => ({ id: r.id, customerId: r.customer_id, receivedAt: r.received_at }));
}

/** One stored data request with the customer's data, or undefined. */
export async function findDataRequest(db: Db, shopId: string, requestId: string): Promise<DataRequestView | undefined> {
  const row = await db.selectFrom('privacy_requests').selectAll().where('shop_id', '=', shopId).where('id', '=', requestId).where('topic', '=', 'customers/data_request').executeTakeFirst();
  return row ? { id: row.id, customerId: row.customer_id, receivedAt: row.received_at, data: JSON.parse(row.payload) as unknown } : undefined;
}

/**
 * The shop's customer exports whose CSV file names the customer (`needles`: their e-mails and id,
 * lower case), as id → file path. `known` holds files already read (path → whether it names them), which are not read again;
 * every file read here is added to it.
 */
async function exportsNaming(db: Db, shopId: string, needles: readonly string[], known: Map<string, boolean>): Promise<Map<string, string>> {
  const naming = new Map<string, string>();
  for (const job of await db.selectFrom('customer_exports').select(['id', 'file_path']).where('shop_id', '=', shopId).where('file_path', 'is not', null).execute()) {
    const path = job.file_path!;
    let names = known.get(path);
    if (names === undefined) {
      const text = (await readFile(path, 'utf8').catch(() => '')).toLowerCase();
      names = needles.some((n) => text.includes(n));
      known.set(path, names);
    }
    if (names) naming.set(job.id, path);
  }
  return naming;
}

/**
 * `customers/redact`: removes the customer's personal data (see the file comment) in one
 * transaction. Answers the rows touched per table; a redelivery touches none.
 */
export async function redactCustomer(deps: AppDeps, shopId: string, body: unknown, finish: FinishDelivery): Promise<unknown> {
  const customer = parseCustomerPayload(body);
  const at = nowIso(deps);
  const exportFiles: string[] = [];
  // Export files are read before the transaction, so no file is read while it holds the database's
  // write lock; one that appears meanwhile is read inside it (rare).
  const filesRead = new Map<string, boolean>();
  await exportsNaming(deps.db, shopId, [...(await emailsOf(deps.db, shopId, customer)), customer.customerId.toLowerCase()], filesRead);
  const result = await deps.db.transaction().execute(async (tx) => {
    const emails = await emailsOf(tx, shopId, customer);
    const touched: Record<string, number> = {};
    const count = (table: string, n: bigint | number | undefined) => {
      if (Number(n ?? 0) > 0) touched[table] = (touched[table] ?? 0) + Number(n);
    };
    for (const [table, links] of Object.entries(CUSTOMER_TABLES)) {
      for (const { column, action } of links) {
        if (action === 'delete') {
          const r = await sql`delete from ${sql.table(table)} where shop_id = ${shopId} and ${sql.ref(column)} = ${customer.customerId}`.execute(tx);
          count(table, r.numAffectedRows);
        }
      }
    }
    const anonymized = await tx
      .updateTable('customers')
      .set({ email: '', first_name: '', last_name: '', phone: null, birthday: null, updated_at: at })
      .where('shop_id', '=', shopId)
      .where('id', '=', customer.customerId)
      .where((eb) => eb.or([eb('email', '!=', ''), eb('first_name', '!=', ''), eb('last_name', '!=', ''), eb('phone', 'is not', null), eb('birthday', 'is not', null)]))
      .executeTakeFirst();
    count('customers', anonymized.numUpdatedRows);
    const scrubbed = await tx.updateTable('referrals').set({ friend_email: '', updated_at: at }).where('shop_id', '=', shopId).where('friend_customer_id', '=', customer.customerId).where('friend_email', '!=', '').executeTakeFirst();
    count('referrals', scrubbed.numUpdatedRows);
    const keys = await tx.deleteFrom('idempotency_keys').where('shop_id', '=', shopId).where('scope', '=', `customer:${customer.customerId}`).executeTakeFirst();
    count('idempotency_keys', keys.numDeletedRows);
    if (emails.length > 0) {
      const imports = await tx
        .deleteFrom('customer_import_errors')
        .where('shop_id', '=', shopId)
        .where((eb) => eb.or(emails.map((e) => eb(sql<string>`lower(cells)`, 'like', containsPattern(e)))))
        .executeTakeFirst();
      count('customer_import_errors', imports.numDeletedRows);
    }
    // Webhook bodies about the customer: their orders (by the delivery's order), and any body with
    // their e-mail (orders, refunds, customer webhooks, this very delivery). The delivery rows stay
    // (status and result only; the admin never shows a body).
    const orderKeys = [...customer.orderIds, customer.customerId, `customer:${customer.customerId}`];
    const bodies = await tx
      .deleteFrom('webhook_delivery_bodies')
      .where('delivery_id', 'in', (eb) =>
        eb
          .selectFrom('webhook_deliveries')
          .select('id')
          .where('shop_id', '=', shopId)
          .where((w) => w.or([w('order_key', 'in', orderKeys), ...emails.map((e) => w('id', 'in', w.selectFrom('webhook_delivery_bodies as b').select('b.delivery_id').where(sql<string>`lower(b.body)`, 'like', containsPattern(e))))])),
      )
      .executeTakeFirst();
    count('webhook_delivery_bodies', bodies.numDeletedRows);
    // Customer exports (CSV files waiting behind a download link, and the local outbox's attached
    // copies) naming the customer: the files go, the outbox messages with them.
    const needles = [...emails, customer.customerId.toLowerCase()];
    const names = (text: string) => needles.some((n) => text.toLowerCase().includes(n));
    for (const message of await tx.selectFrom('email_outbox').select(['id', 'attachments']).where('shop_id', '=', shopId).execute()) {
      const attachments = JSON.parse(message.attachments) as { content?: string }[];
      if (!attachments.some((a) => typeof a.content === 'string' && names(Buffer.from(a.content, 'base64').toString('utf8')))) continue;
      const r = await tx.deleteFrom('email_outbox').where('shop_id', '=', shopId).where('id', '=', message.id).executeTakeFirst();
      count('email_outbox', r.numDeletedRows);
    }
    for (const [id, path] of await exportsNaming(tx, shopId, needles, filesRead)) {
      const r = await tx.updateTable('customer_exports').set({ file_path: null }).where('shop_id', '=', shopId).where('id', '=', id).where('file_path', '=', path).executeTakeFirst();
      count('customer_exports', r.numUpdatedRows);
      exportFiles.push(path);
    }
    await tx
      .insertInto('privacy_requests')
      .values({ id: crypto.randomUUID(), shop_id: shopId, topic: 'customers/redact', request_key: customer.customerId, customer_id: null, payload: JSON.stringify({ ordersToRedact: customer.orderIds.length, touched }), received_at: at })
      .onConflict((oc) => oc.columns(['shop_id', 'topic', 'request_key']).doNothing())
      .execute();
    const answer = { customerId: customer.customerId, touched };
    deps.logger?.info({ shopId, customerId: customer.customerId, touched }, 'customer redacted');
    await finish(tx, answer);
    return answer;
  });
  // Files last: a rolled-back redaction must not have lost them.
  for (const path of exportFiles) await rm(path, { force: true }).catch(() => undefined);
  return result;
}

/**
 * `shop/redact`: deletes every row of the shop (SHOP_TABLES; webhook deliveries but the shop/redact
 * ones, whose bodies name only the shop) and its import files, and leaves the shop row as a
 * tombstone. Answers the rows deleted per table.
 */
export async function redactShop(deps: AppDeps, shopId: string, _body: unknown, finish: FinishDelivery): Promise<unknown> {
  const at = nowIso(deps);
  const files: string[] = [];
  const result = await deps.db.transaction().execute(async (tx) => {
    const deleted: Record<string, number> = {};
    const count = (table: string, n: bigint | number | undefined) => {
      if (Number(n ?? 0) > 0) deleted[table] = (deleted[table] ?? 0) + Number(n);
    };
    for (const f of await tx.selectFrom('customer_imports').select('file_path').where('shop_id', '=', shopId).execute()) files.push(f.file_path);
    for (const f of await tx.selectFrom('customer_exports').select('file_path').where('shop_id', '=', shopId).where('file_path', 'is not', null).execute()) files.push(f.file_path!);
    await tx
      .insertInto('shop_redactions')
      .values({ shop_id: shopId, purging: 1, redacted_at: at })
      .onConflict((oc) => oc.column('shop_id').doUpdateSet({ purging: 1, redacted_at: at }))
      .execute();
    const bodies = await tx.deleteFrom('webhook_delivery_bodies').where('delivery_id', 'in', (eb) => eb.selectFrom('webhook_deliveries').select('id').where('shop_id', '=', shopId)).executeTakeFirst();
    count('webhook_delivery_bodies', bodies.numDeletedRows);
    const deliveries = await tx.deleteFrom('webhook_deliveries').where('shop_id', '=', shopId).where('topic', '!=', 'shop/redact').executeTakeFirst();
    count('webhook_deliveries', deliveries.numDeletedRows);
    for (const table of SHOP_TABLES) {
      const r = await sql`delete from ${sql.table(table)} where shop_id = ${shopId}`.execute(tx);
      count(table, r.numAffectedRows);
    }
    const shop = await findShop(tx, shopId);
    const kept = shop ? shopSettings(shop) : {};
    const tombstone = { redactedAt: at, ...(typeof kept.uninstalledAt === 'string' ? { uninstalledAt: kept.uninstalledAt } : {}) };
    await tx.updateTable('shops').set({ name: shopId, email: '', settings: JSON.stringify(tombstone), updated_at: at }).where('id', '=', shopId).execute();
    await tx.updateTable('shop_redactions').set({ purging: 0 }).where('shop_id', '=', shopId).execute();
    await tx
      .insertInto('privacy_requests')
      .values({ id: crypto.randomUUID(), shop_id: shopId, topic: 'shop/redact', request_key: 'shop', customer_id: null, payload: JSON.stringify({ deleted }), received_at: at })
      .execute();
    const answer = { shopId, deleted };
    await finish(tx, answer);
    return answer;
  });
  // Files last: a rolled-back redaction must not have lost them. A file already gone is fine.
  for (const path of files) {
    await rm(path, { force: true }).catch(() => undefined);
    await rm(`${path}.errors.csv`, { force: true }).catch(() => undefined);
  }
  deps.logger?.info({ shopId, deleted: result.deleted }, 'shop redacted');
  return result;
}

/**
 * `app/uninstalled`: marks the shop uninstalled (`settings.uninstalledAt`, kept from the first
 * delivery unless the shop installed again since: a fresh access token stored, or a later
 * `settings.installedAt`) and revokes its
 * offline access token, in one transaction. Answers `{ uninstalledAt, duplicate }`.
 */
export async function markUninstalled(deps: AppDeps, shopId: string, _body: unknown, finish: FinishDelivery): Promise<unknown> {
  const at = nowIso(deps);
  return deps.db.transaction().execute(async (tx) => {
    const shop = await findShop(tx, shopId);
    if (!shop) throw new ApiError(404, 'unknown_shop', `The shop ${shopId} has not installed the app`);
    const settings = shopSettings(shop);
    const previous = typeof settings.uninstalledAt === 'string' ? settings.uninstalledAt : null;
    // Installed again since the last uninstall: the install stored a fresh access token (BILLING), or said so in the settings.
    const token = await tx.selectFrom('shop_access_tokens').select('revoked_at').where('shop_id', '=', shopId).executeTakeFirst();
    const installedAgain = previous !== null && ((token !== undefined && token.revoked_at === null) || (typeof settings.installedAt === 'string' && settings.installedAt > previous));
    const duplicate = previous !== null && !installedAgain;
    if (!duplicate) {
      await tx.updateTable('shops').set({ settings: JSON.stringify({ ...settings, uninstalledAt: at }), updated_at: at }).where('id', '=', shopId).execute();
      await revokeAccessToken(tx, shopId, at);
    }
    const result = { uninstalledAt: duplicate ? previous : at, duplicate };
    await finish(tx, result);
    return result;
  });
}

const PROCESSORS: Record<PrivacyTopic, (deps: AppDeps, shopId: string, body: unknown, finish: FinishDelivery) => Promise<unknown>> = {
  'customers/data_request': handleDataRequest,
  'customers/redact': redactCustomer,
  'shop/redact': redactShop,
  'app/uninstalled': markUninstalled,
};

/**
 * The webhook topic entry of a privacy topic (server/webhooks/topics.ts): the customer topics
 * check the body names a customer (400 otherwise) and queue by `customer:<id>`; the shop topics
 * queue by `shop`.
 */
export function privacyTopic(topic: PrivacyTopic): WebhookTopic {
  return {
    prepare: (body) => (topic.startsWith('customers/') ? { orderKey: `customer:${parseCustomerPayload(body).customerId}` } : { orderKey: 'shop' }),
    process: (deps, shopId, body, finish) => PROCESSORS[topic](deps, shopId, body, finish),
  };
}
