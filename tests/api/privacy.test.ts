/**
 * Privacy webhooks (issue 11): customers/data_request stores the customer's data once per request,
 * customers/redact leaves no personal data of that customer in any table (every text column
 * searched) while the ledger totals and every other customer stay as they were, shop/redact removes
 * every row of the shop and no other, app/uninstalled marks the shop and revokes its token — each
 * the same under redelivery.
 */
import { existsSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { sql } from 'kysely';
import { describe, expect, it } from 'vitest';
import type { Db } from '../../server/db/database';
import { exportRunnerFor } from '../../server/services/customer-export/job';
import { CUSTOMER_TABLES, SHOP_TABLES, UNTOUCHED_TABLES } from '../../server/services/privacy';
import { ensureShop } from '../../server/store/shops';
import { storeAccessToken } from '../../server/platform/access-tokens';
import { AUTH, makeApp, SHOP, type TestApp } from '../support/app';
import { orderBody, placeOrderData } from '../support/factories';

const NOW = new Date('2026-11-24T12:00:00Z');
const OTHER_SHOP = 'other-shop.myshopify.com';
const ADA = { id: '7400000000000000001', email: 'ada.lovelace@example.com', first_name: 'Augusta', last_name: 'Lovelace', phone: '+15550001111' };
const GRACE = { id: '7400000000000000002', email: 'grace.hopper@example.com', first_name: 'Grace', last_name: 'Hopper' };
const COUPON = { couponExpiry: 'permanent', purchaseType: 'one_time_purchase', salesChannel: 'online_store' };
const PROGRAM = {
  title: 'Refer a friend',
  description: '',
  status: true,
  tags: [],
  customerEligibility: 'all_members',
  antiCheat: { blockSameIp: false, blockSameEmailDomain: false, blockExistingCustomers: true },
  perCustomerLimit: { mode: 'all_members', tierLimits: [] },
};

const isSqlite = !process.env.TEST_DATABASE_URL;

/** Table names and their text columns (SQLite's catalogue; PostgreSQL's information schema). */
async function textColumns(db: Db): Promise<Map<string, string[]>> {
  const rows = isSqlite
    ? (await sql<{ t: string; c: string; type: string }>`select m.name as t, p.name as c, p.type as type from sqlite_master m join pragma_table_info(m.name) p where m.type = 'table' and m.name not like 'sqlite_%' and m.name not like 'kysely_%'`.execute(db)).rows
    : (await sql<{ t: string; c: string; type: string }>`select table_name as t, column_name as c, data_type as type from information_schema.columns where table_schema = current_schema() and table_name not like 'kysely_%'`.execute(db)).rows;
  const map = new Map<string, string[]>();
  for (const r of rows) {
    const list = map.get(r.t) ?? [];
    if (/text|char/i.test(r.type)) list.push(r.c);
    map.set(r.t, list);
  }
  return map;
}

/** Every table's columns (all types). */
async function allColumns(db: Db): Promise<Map<string, string[]>> {
  const rows = isSqlite
    ? (await sql<{ t: string; c: string }>`select m.name as t, p.name as c from sqlite_master m join pragma_table_info(m.name) p where m.type = 'table' and m.name not like 'sqlite_%' and m.name not like 'kysely_%'`.execute(db)).rows
    : (await sql<{ t: string; c: string }>`select table_name as t, column_name as c from information_schema.columns where table_schema = current_schema() and table_name not like 'kysely_%'`.execute(db)).rows;
  const map = new Map<string, string[]>();
  for (const r of rows) map.set(r.t, [...(map.get(r.t) ?? []), r.c]);
  return map;
}

/** Where `needle` occurs (any case) in any text column of any table: `table.column` → rows. */
async function occurrences(db: Db, needle: string): Promise<Record<string, number>> {
  const found: Record<string, number> = {};
  for (const [table, columns] of await textColumns(db)) {
    for (const column of columns) {
      const r = await sql<{ n: number | string }>`select count(*) as n from ${sql.table(table)} where lower(cast(${sql.ref(column)} as text)) like ${`%${needle.toLowerCase()}%`}`.execute(db);
      const n = Number(r.rows[0]?.n ?? 0);
      if (n > 0) found[`${table}.${column}`] = n;
    }
  }
  return found;
}

/** Every row of every table that mentions `needle` or belongs to `shopId`, as JSON text, for before/after comparisons. */
async function snapshot(db: Db, where: { needle?: string; shopId?: string }): Promise<Record<string, string[]>> {
  const out: Record<string, string[]> = {};
  for (const [table, columns] of await allColumns(db)) {
    let rows: Record<string, unknown>[] = [];
    if (where.shopId && columns.includes('shop_id')) rows = (await sql<Record<string, unknown>>`select * from ${sql.table(table)} where shop_id = ${where.shopId}`.execute(db)).rows;
    else if (where.needle) {
      const text = (await textColumns(db)).get(table) ?? [];
      if (text.length === 0) continue;
      const pattern = `%${where.needle.toLowerCase()}%`;
      rows = (await sql<Record<string, unknown>>`select * from ${sql.table(table)} where ${sql.join(text.map((c) => sql`lower(cast(${sql.ref(c)} as text)) like ${pattern}`), sql` or `)}`.execute(db)).rows;
    }
    if (rows.length > 0) out[table] = rows.map((r) => JSON.stringify(r, (_k, v: unknown) => (typeof v === 'bigint' ? v.toString() : v))).sort();
  }
  return out;
}

/**
 * A shop where Ada has orders, points, a birthday event, a review, a referral link and a referral
 * as Grace's friend, a whitelist entry, an import error row and a coupon; Grace has her own.
 */
async function shopWithCustomers(): Promise<TestApp & { adaOrder: string }> {
  const t = await makeApp({ now: () => NOW });
  const create = async (kind: string, data: unknown) => expect((await t.call('POST', `/api/kinds/${kind}/docs`, { data })).status).toBe(201);
  await create('earning.place_order', placeOrderData({ earnPoint: 1, rateMoney: 1 }));
  await create('referral.program', PROGRAM);
  await create('referral.friend_reward', { status: true, rewardType: 'percentage_discount', value: 10, coupon: COUPON });
  await create('referral.customer_reward', { status: true, rewardType: 'points', value: 500, coupon: COUPON });
  const ship = (name: string, street: string) => ({ first_name: name, last_name: 'Ship', address1: street, zip: '02139', country_code: 'US' });
  expect((await t.deliverOrder(orderBody({ customer: GRACE, shipping_address: ship('Grace', '2 Navy Way') }))).status).toBe(200);
  const link = (await (await t.call('POST', `/api/referrals/customers/${GRACE.id}/link`)).json()) as { data: { code: string } };
  const adaOrder = orderBody({
    customer: { ...ADA, orders_count: 1 },
    email: ADA.email,
    shipping_address: ship('Augusta', '12 Analytical Engine Rd'),
    billing_address: ship('Augusta', '12 Analytical Engine Rd'),
    note_attributes: [{ name: '_loyalty_referral_code', value: link.data.code }],
  });
  expect((await t.deliverOrder(adaOrder)).status).toBe(200);
  expect((await t.call('PATCH', `/api/customers/${ADA.id}`, { birthday: '12/10' })).status).toBe(200);
  expect((await t.call('POST', `/api/customers/${ADA.id}/adjust`, { points: 25, adminNote: 'goodwill', customerNote: 'thanks' })).status).toBe(200);
  expect((await t.call('POST', `/api/referrals/customers/${ADA.id}/link`)).status).toBe(200);
  expect((await t.call('POST', '/api/referrals/whitelist', { email: ADA.email })).status).toBe(200);
  const at = NOW.toISOString();
  await t.db
    .insertInto('reviews')
    .values({ id: 'r-ada', shop_id: SHOP, source: 'review_app', external_id: 'x1', event: 'write_review', customer_id: ADA.id, rating: 5, title: 'Lovely', content: 'Signed, Augusta Lovelace', has_media: 0, url: null, product_title: 'Tee', status: 'pending', created_at: at, decided_at: null, decided_by: null })
    .execute();
  await t.db
    .insertInto('reviews')
    .values({ id: 'r-grace', shop_id: SHOP, source: 'review_app', external_id: 'x2', event: 'write_review', customer_id: GRACE.id, rating: 4, title: 'Fine', content: 'Grace Hopper says hi', has_media: 0, url: null, product_title: 'Tee', status: 'pending', created_at: at, decided_at: null, decided_by: null })
    .execute();
  await t.db
    .insertInto('customer_imports')
    .values({ id: 'imp-1', shop_id: SHOP, file_name: 'c.csv', file_path: '/nonexistent/c.csv', byte_size: 10, kind: 'customers', delimiter: ',', headers: '[]', mapping: null, tier_rule: null, status: 'completed', total_rows: 2, error: null, locked_until: null, actor: 'cli', created_at: at, started_at: at, finished_at: at })
    .execute();
  await t.db
    .insertInto('customer_import_errors')
    .values([
      { import_id: 'imp-1', row_number: 2, shop_id: SHOP, reason: 'Birthday is invalid', cells: JSON.stringify([ADA.email, 'Augusta', 'Lovelace', '13/40']) },
      { import_id: 'imp-1', row_number: 3, shop_id: SHOP, reason: 'Birthday is invalid', cells: JSON.stringify([GRACE.email, 'Grace', 'Hopper', '13/41']) },
    ])
    .execute();
  return { ...t, adaOrder: String(adaOrder.id) };
}

const redactBody = (orderId: string) => ({ shop_id: 1, shop_domain: SHOP, customer: { id: ADA.id, email: ADA.email, phone: ADA.phone }, orders_to_redact: [orderId] });

async function ledgerOf(db: Db, customerId: string): Promise<{ count: number; sum: number; balance: number }> {
  const rows = await db.selectFrom('ledger_entries').select('points').where('shop_id', '=', SHOP).where('customer_id', '=', customerId).execute();
  const c = await db.selectFrom('customers').select('points_balance').where('shop_id', '=', SHOP).where('id', '=', customerId).executeTakeFirst();
  return { count: rows.length, sum: rows.reduce((n, r) => n + Number(r.points), 0), balance: Number(c?.points_balance ?? NaN) };
}

describe('the privacy tables', () => {
  it('classifies every table holding a customer id or a shop id', async () => {
    const t = await makeApp();
    const columns = await allColumns(t.db);
    const customerTables = [...columns].filter(([, c]) => c.includes('customer_id')).map(([name]) => name);
    const handledByText = ['customer_import_errors', 'idempotency_keys', 'webhook_delivery_bodies', 'webhook_deliveries'];
    expect(customerTables.filter((name) => !(name in CUSTOMER_TABLES) && !handledByText.includes(name))).toEqual([]);
    const shopTables = [...columns].filter(([, c]) => c.includes('shop_id')).map(([name]) => name);
    const known = new Set<string>([...SHOP_TABLES, ...UNTOUCHED_TABLES, 'webhook_deliveries']);
    expect(shopTables.filter((name) => !known.has(name))).toEqual([]);
  });
});

describe('customers/data_request', () => {
  it("stores the customer's data once per request, redelivery included", async () => {
    const t = await shopWithCustomers();
    const body = { shop_id: 1, shop_domain: SHOP, customer: { id: ADA.id, email: ADA.email }, orders_requested: [t.adaOrder], data_request: { id: 9001 } };
    const first = (await (await t.deliver('customers/data_request', body)).json()) as { data: { requestId: string; tables: string[]; duplicate: boolean } };
    expect(first.data.duplicate).toBe(false);
    expect(first.data.tables).toEqual(expect.arrayContaining(['customers', 'ledger_entries', 'customer_events', 'reviews', 'referrals', 'referral_links', 'customer_import_errors']));
    const again = (await (await t.deliver('customers/data_request', body)).json()) as { data: { requestId: string; duplicate: boolean } };
    expect(again.data).toMatchObject({ requestId: first.data.requestId, duplicate: true });
    const stored = await t.db.selectFrom('privacy_requests').selectAll().where('shop_id', '=', SHOP).where('topic', '=', 'customers/data_request').execute();
    expect(stored).toHaveLength(1);
    const payload = JSON.parse(stored[0]!.payload) as { data: { customers: { email: string }[]; ledger_entries: unknown[] } };
    expect(payload.data.customers[0]!.email).toBe(ADA.email);
    expect(payload.data.ledger_entries.length).toBeGreaterThanOrEqual(2);
    // The merchant reads it through the admin API.
    const listed = (await (await t.call('GET', '/api/privacy/data-requests')).json()) as { data: { id: string; customerId: string }[] };
    expect(listed.data).toEqual([expect.objectContaining({ id: first.data.requestId, customerId: ADA.id })]);
    const one = (await (await t.call('GET', `/api/privacy/data-requests/${first.data.requestId}`)).json()) as { data: { data: { data: { customers: { email: string }[] } } } };
    expect(one.data.data.data.customers[0]!.email).toBe(ADA.email);
    expect((await t.call('GET', '/api/privacy/data-requests/nope')).status).toBe(404);
  });

  it('refuses a body without a customer with 400 and the field path', async () => {
    const t = await makeApp();
    const res = await t.deliver('customers/data_request', { shop_domain: SHOP, customer: {} });
    expect(res.status).toBe(400);
    expect(await res.json()).toMatchObject({ error: { details: [{ path: '/customer/id' }] } });
  });
});

describe('customers/redact', () => {
  it("leaves no trace of the customer's e-mail, names or phone in any table, and keeps the ledger totals", async () => {
    const t = await shopWithCustomers();
    await t.deliver('customers/data_request', { shop_domain: SHOP, customer: { id: ADA.id, email: ADA.email }, data_request: { id: 1 } });
    // Before: the data is really there (the test could not pass by finding nothing).
    const before = await occurrences(t.db, ADA.email);
    expect(Object.keys(before)).toEqual(expect.arrayContaining(['customers.email', 'referrals.friend_email', 'customer_import_errors.cells', 'webhook_delivery_bodies.body', 'privacy_requests.payload']));
    expect(Object.keys(await occurrences(t.db, 'Lovelace')).length).toBeGreaterThan(0);
    const ledgerBefore = await ledgerOf(t.db, ADA.id);
    expect(ledgerBefore.sum).toBeGreaterThan(0);
    const graceBefore = await snapshot(t.db, { needle: 'grace' });
    const graceLedger = await ledgerOf(t.db, GRACE.id);

    const res = await t.deliver('customers/redact', redactBody(t.adaOrder));
    expect(res.status).toBe(200);

    for (const needle of [ADA.email, 'Lovelace', 'Augusta', ADA.phone, 'Analytical Engine']) expect([needle, await occurrences(t.db, needle)]).toEqual([needle, {}]);
    expect(await ledgerOf(t.db, ADA.id)).toEqual(ledgerBefore);
    expect(ledgerBefore.balance).toBe(ledgerBefore.sum);
    const ada = await t.db.selectFrom('customers').selectAll().where('shop_id', '=', SHOP).where('id', '=', ADA.id).executeTakeFirstOrThrow();
    expect([ada.email, ada.first_name, ada.last_name, ada.phone, ada.birthday]).toEqual(['', '', '', null, null]);
    // Grace: every row that named her is as it was, her ledger too.
    expect(await snapshot(t.db, { needle: 'grace' })).toEqual(graceBefore);
    expect(await ledgerOf(t.db, GRACE.id)).toEqual(graceLedger);
  });

  it('removes the customer exports that name the customer: the outbox message with its CSV, the file behind a link', async () => {
    const t = await shopWithCustomers();
    for (const who of [ADA, GRACE]) expect((await t.call('POST', '/api/customers/exports', { recipient: 'owner@shop.example', search: who.email })).status).toBe(202);
    await exportRunnerFor({ db: t.db, auth: AUTH }).whenIdle();
    const subjects = async () => (await t.db.selectFrom('email_outbox').select('subject').where('shop_id', '=', SHOP).orderBy('subject').execute()).map((r) => r.subject);
    expect(await subjects()).toEqual([expect.stringContaining(ADA.email), expect.stringContaining(GRACE.email)]);
    // Two large exports still waiting behind their download links.
    const dir = mkdtempSync(join(tmpdir(), 'exports-'));
    for (const who of [ADA, GRACE]) {
      writeFileSync(join(dir, `${who.id}.csv`), `Email,First name\n${who.email},${who.first_name}\n`);
      await t.db
        .insertInto('customer_exports')
        .values({ id: `big-${who.id}`, shop_id: SHOP, recipient: 'owner@shop.example', query: '{"tab":"all"}', app_origin: 'https://app.example', status: 'sent', file_path: join(dir, `${who.id}.csv`), delivery: 'link', message_id: `<big-${who.id}@app>`, actor: 'admin:t', created_at: NOW.toISOString() })
        .execute();
    }

    expect((await t.deliver('customers/redact', redactBody(t.adaOrder))).status).toBe(200);

    expect(await subjects()).toEqual([expect.stringContaining(GRACE.email)]);
    expect(existsSync(join(dir, `${ADA.id}.csv`))).toBe(false);
    expect(existsSync(join(dir, `${GRACE.id}.csv`))).toBe(true);
    const files = await t.db.selectFrom('customer_exports').select(['id', 'file_path']).where('id', 'like', 'big-%').orderBy('id').execute();
    expect(files).toEqual([
      { id: `big-${ADA.id}`, file_path: null },
      { id: `big-${GRACE.id}`, file_path: join(dir, `${GRACE.id}.csv`) },
    ]);
  });

  it('changes nothing when redelivered', async () => {
    const t = await shopWithCustomers();
    await t.deliver('customers/redact', redactBody(t.adaOrder));
    const after = await snapshot(t.db, { shopId: SHOP });
    const again = (await (await t.deliver('customers/redact', redactBody(t.adaOrder))).json()) as { data: { touched: Record<string, number> } };
    expect(again.data.touched).toEqual({ webhook_delivery_bodies: 1 });
    const next = await snapshot(t.db, { shopId: SHOP });
    // Only the queue's own bookkeeping of the second delivery differs.
    delete after.webhook_deliveries;
    delete next.webhook_deliveries;
    expect(next).toEqual(after);
  });
});

describe('shop/redact', () => {
  it("removes every row of the shop, keeps another shop's untouched, and is the same on redelivery", async () => {
    const t = await shopWithCustomers();
    await ensureShop(t.db, OTHER_SHOP, NOW.toISOString(), { email: 'owner@other.example' });
    expect((await t.deliverOrder(orderBody({ customer: GRACE }), { shop: OTHER_SHOP })).status).toBe(200);
    const other = await snapshot(t.db, { shopId: OTHER_SHOP });
    expect(other.ledger_entries?.length ?? 0).toBe(0); // no program there: a customer, a receipt
    expect(other.customers).toHaveLength(1);

    for (let i = 0; i < 2; i++) {
      const res = await t.deliver('shop/redact', { shop_id: 1, shop_domain: SHOP });
      expect(res.status).toBe(200);
      const left = await snapshot(t.db, { shopId: SHOP });
      expect(Object.keys(left).sort()).toEqual(['privacy_requests', 'shop_redactions', 'webhook_deliveries']);
      const shop = await t.db.selectFrom('shops').selectAll().where('id', '=', SHOP).executeTakeFirstOrThrow();
      expect([shop.name, shop.email]).toEqual([SHOP, '']);
      const deliveries = await t.db.selectFrom('webhook_deliveries').select('topic').where('shop_id', '=', SHOP).execute();
      expect(new Set(deliveries.map((d) => d.topic))).toEqual(new Set(['shop/redact']));
      expect(await t.db.selectFrom('webhook_delivery_bodies').select('delivery_id').where('delivery_id', 'in', t.db.selectFrom('webhook_deliveries').select('id').where('shop_id', '=', SHOP)).execute()).toHaveLength(0);
      expect(await snapshot(t.db, { shopId: OTHER_SHOP })).toEqual(other);
    }
    expect(await occurrences(t.db, ADA.email)).toEqual({});
  });

  it("keeps every other shop's ledger append-only", async () => {
    const t = await makeApp();
    await t.call('POST', '/api/kinds/earning.place_order/docs', { data: placeOrderData() });
    await t.deliverOrder(orderBody({ customer: GRACE }));
    await expect(t.db.deleteFrom('ledger_entries').where('shop_id', '=', SHOP).execute()).rejects.toThrow(/append-only/);
  });
});

describe('app/uninstalled', () => {
  it('marks the shop uninstalled and revokes its access token once', async () => {
    const t = await makeApp({ now: () => NOW });
    const first = (await (await t.deliver('app/uninstalled', { id: 1, myshopify_domain: SHOP })).json()) as { data: { uninstalledAt: string; duplicate: boolean } };
    expect(first.data).toEqual({ uninstalledAt: NOW.toISOString(), duplicate: false });
    const shop = await t.db.selectFrom('shops').select('settings').where('id', '=', SHOP).executeTakeFirstOrThrow();
    expect(JSON.parse(shop.settings)).toMatchObject({ uninstalledAt: NOW.toISOString() });
    const token = await t.db.selectFrom('shop_access_tokens').selectAll().where('shop_id', '=', SHOP).executeTakeFirstOrThrow();
    expect([token.ciphertext, token.revoked_at]).toEqual([null, NOW.toISOString()]);
    const again = (await (await t.deliver('app/uninstalled', { id: 1, myshopify_domain: SHOP })).json()) as { data: { duplicate: boolean } };
    expect(again.data.duplicate).toBe(true);
    // Installed again (a fresh token), then uninstalled: a new uninstall.
    await storeAccessToken({ db: t.db, auth: AUTH }, SHOP, 'shpat_new', ['read_orders']);
    const later = (await (await t.deliver('app/uninstalled', { id: 1, myshopify_domain: SHOP })).json()) as { data: { duplicate: boolean } };
    expect(later.data.duplicate).toBe(false);
    const revoked = await t.db.selectFrom('shop_access_tokens').selectAll().where('shop_id', '=', SHOP).executeTakeFirstOrThrow();
    expect(revoked.ciphertext).toBeNull();
  });
});
