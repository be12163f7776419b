/**
 * Test factories: a real app on an in-memory (or file) database, session tokens, signed webhooks,
 * and tiny document/order builders with spec defaults (json-rules-engine's rule-factory habit).
 */
import { join } from 'node:path';
import type { PlatformOrders } from '../../server/platform/orders';
import { LocalDiscounts, type PlatformDiscounts } from '../../server/platform/discounts';
import type { PlatformCustomerSegments } from '../../server/platform/customer-segments';
import type { EmailAdapter } from '../../server/email/adapter';
import { loadRegistry, type Registry } from '../../engine/registry';
import { createApp } from '../../server/app';
import { signSessionToken } from '../../server/auth';
import { DEMO, type AuthConfig } from '../../server/config';
import { openDatabase, type Db } from '../../server/db/database';
import { parseProxyQuery, proxySignature } from '../../server/proxy/signature';
import { ensureShop } from '../../server/store/shops';
import { webhookHmac } from '../../server/webhook-hmac';
import { WebhookQueue } from '../../server/webhooks/queue';
import { takeTemplateCopy } from './pg-copies';

export const ROOT = join(import.meta.dirname, '..', '..');
export const SHOP = 'test-shop.myshopify.com';
export const AUTH: AuthConfig = { apiKey: 'test-api-key', apiSecret: 'test-secret', demo: false };

let registry: Registry | undefined;
/**
 * The registry of the repository's schemas/ (loaded once per test file), its validators compiled
 * on first use as the server does, so a file compiles only the kinds it touches (loading it took
 * 0.27 s instead of 0.73 s). That every kind's schema compiles is tests/unit/registry.test.ts's and
 * the conformance suites' to prove.
 */
export function repoRegistry(): Registry {
  registry ??= loadRegistry(join(ROOT, 'schemas'), { compile: 'lazy' });
  return registry;
}

/**
 * A fresh, migrated database for one test: in-memory SQLite, or — when TEST_DATABASE_URL names a
 * PostgreSQL server (scripts/test.ts runs the API suite a second time that way) — a database of its
 * own, copied from the migrated template TEST_DATABASE_TEMPLATE (scripts/pg-test-template.ts makes
 * it), so tests never see each other's rows and no test pays for the migrations.
 */
export async function openTestDatabase(): Promise<Db> {
  return (await openTestDatabases(1))[0]!;
}

/**
 * Where a fresh test database lives, for tests that hand it to a spawned server: a temporary
 * SQLite file (migrated by whoever opens it first), or — with TEST_DATABASE_URL — the URL of a
 * new PostgreSQL database copied from the migrated template.
 */
export async function freshDatabaseLocation(): Promise<string> {
  const url = process.env.TEST_DATABASE_URL;
  if (!url) {
    const { mkdtempSync } = await import('node:fs');
    const { tmpdir } = await import('node:os');
    return join(mkdtempSync(join(tmpdir(), 'shared-db-')), 'db.sqlite');
  }
  const name = await takeTemplateCopy(url);
  const target = new URL(url);
  target.pathname = `/${name}`;
  return target.toString();
}

/**
 * `count` connections (each its own pool, as separate app processes would have) to one fresh test
 * database: a temporary SQLite file, or a copy of the PostgreSQL template.
 */
export async function openTestDatabases(count: number): Promise<Db[]> {
  if (!process.env.TEST_DATABASE_URL && count === 1) return [await openDatabase(':memory:')];
  const location = await freshDatabaseLocation();
  const dbs: Db[] = [];
  for (let i = 0; i < count; i++) dbs.push(await openDatabase(location, location.startsWith('postgres') ? { max: 2, idleTimeoutMillis: 200 } : {}));
  return dbs;
}

export interface TestApp {
  app: ReturnType<typeof createApp>;
  db: Db;
  token: string;
  /** The app's webhook queue: `drain()` processes every queued delivery. */
  queue: WebhookQueue;
  /** JSON request with the session token. */
  call(method: string, path: string, body?: unknown): Promise<Response>;
  /**
   * A signed orders/create delivery for SHOP. When the app queues it (200), the queue is drained
   * and the answer carries the processing result `{ data: result }` (the delivery's own answer
   * is `{ data: { deliveryId, status } }`); refusals at the door (401, 400, 404) come back as sent.
   */
  deliverOrder(order: unknown, opts?: { hmac?: string; shop?: string; raw?: string }): Promise<Response>;
  /** A signed delivery of any webhook topic (`refunds/create`, `orders/cancelled`). */
  deliver(topic: string, body: unknown): Promise<Response>;
  /**
   * A storefront call as the platform's app proxy forwards it: `/proxy<path>` with `shop`,
   * `logged_in_customer_id` (`customerId`; null = a guest), `path_prefix`, `timestamp` (the app's
   * clock) and a valid `signature` added to `path`'s own query. JSON `body` for POST; extra `headers`
   * (e.g. `Idempotency-Key`).
   */
  proxy(method: string, path: string, customerId: string | null, opts?: { body?: unknown; headers?: Record<string, string> }): Promise<Response>;
}

/**
 * `/proxy<path>` signed for `shop` and `customerId` at `now` (what the platform's app proxy
 * forwards), for tests and benchmarks: the query of `path` is kept and signed with it.
 */
export function signedProxyPath(path: string, customerId: string | null, opts: { shop?: string; secret?: string; now?: Date } = {}): string {
  const url = new URL(path, 'http://proxy.test');
  const query = parseProxyQuery(url.search);
  query.shop = [opts.shop ?? SHOP];
  query.logged_in_customer_id = [customerId ?? ''];
  query.path_prefix = ['/apps/loyalty'];
  query.timestamp = [String(Math.floor((opts.now ?? new Date()).getTime() / 1000))];
  const signed = new URLSearchParams();
  for (const [key, values] of Object.entries(query)) for (const value of values) signed.append(key, value);
  signed.append('signature', proxySignature(query, opts.secret ?? AUTH.apiSecret));
  return `/proxy${url.pathname}?${signed.toString()}`;
}

/** Shop settings a test may set: plan facts for gates, pending points, … (stored as the shop's settings JSON). */
export interface TestShopOptions {
  /** Plan id; default enterprise_2025 so that no gate gets in the way of tests about something else. */
  plan?: string;
  settings?: Record<string, unknown>;
}

/** A fresh app: in-memory SQLite by default, shop SHOP in America/New_York, USD, on Ultimate + Shopify Plus. */
export async function makeApp(options: { databasePath?: string; now?: () => Date; registry?: Registry; shop?: TestShopOptions; platformOrders?: PlatformOrders; platformDiscounts?: PlatformDiscounts; platformSegments?: PlatformCustomerSegments; email?: EmailAdapter } = {}): Promise<TestApp> {
  const db = options.databasePath ? await openDatabase(options.databasePath) : await openTestDatabase();
  await ensureShop(db, SHOP, new Date().toISOString(), {
    currency: 'USD',
    iana_timezone: 'America/New_York',
    plan: options.shop?.plan ?? 'enterprise_2025',
    settings: JSON.stringify({ shopifyPlan: 'shopify_plus', ...(options.shop?.settings ?? {}) }),
  });
  const deps = { db, registry: options.registry ?? repoRegistry(), auth: AUTH, ...(options.now ? { now: options.now } : {}), ...(options.platformOrders ? { platformOrders: options.platformOrders } : {}), platformDiscounts: options.platformDiscounts ?? new LocalDiscounts(), ...(options.platformSegments ? { platformSegments: options.platformSegments } : {}), ...(options.email ? { email: options.email } : {}) };
  const queue = new WebhookQueue(deps, { backoffSeconds: () => 0 });
  const app = createApp({ ...deps, queue });
  /** Drains the queue after an accepted delivery and answers with what processing decided. */
  const processed = async (res: Response): Promise<Response> => {
    if (res.status !== 200) return res;
    const { data } = (await res.json()) as { data: { deliveryId: string } };
    await queue.drain();
    const row = await db.selectFrom('webhook_deliveries').selectAll().where('id', '=', data.deliveryId).executeTakeFirstOrThrow();
    if (row.status !== 'done') return new Response(JSON.stringify({ error: { code: 'delivery_failed', message: row.last_error } }), { status: 500 });
    return new Response(JSON.stringify({ data: JSON.parse(row.result ?? 'null') as unknown }), { status: 200, headers: { 'Content-Type': 'application/json' } });
  };
  const token = await signSessionToken(AUTH, SHOP);
  return {
    app,
    db,
    token,
    queue,
    call: (method, path, body) =>
      Promise.resolve(
        app.request(path, {
          method,
          headers: { Authorization: `Bearer ${token}`, 'Content-Type': 'application/json' },
          ...(body === undefined ? {} : { body: typeof body === 'string' ? body : JSON.stringify(body) }),
        }),
      ),
    deliver: (topic, body) => {
      const raw = JSON.stringify(body);
      return Promise.resolve(
        app.request(`/api/webhooks/${topic}`, {
          method: 'POST',
          headers: { 'Content-Type': 'application/json', 'X-Shopify-Topic': topic, 'X-Shopify-Shop-Domain': SHOP, 'X-Shopify-Hmac-Sha256': webhookHmac(raw, AUTH.apiSecret) },
          body: raw,
        }),
      ).then(processed);
    },
    proxy: (method, path, customerId, opts = {}) =>
      Promise.resolve(
        app.request(signedProxyPath(path, customerId, options.now ? { now: options.now() } : {}), {
          method,
          headers: { 'Content-Type': 'application/json', ...(opts.headers ?? {}) },
          ...(opts.body === undefined ? {} : { body: JSON.stringify(opts.body) }),
        }),
      ),
    deliverOrder: (order, opts = {}) => {
      const raw = opts.raw ?? JSON.stringify(order);
      return Promise.resolve(
        app.request('/api/webhooks/orders/create', {
          method: 'POST',
          headers: {
            'Content-Type': 'application/json',
            'X-Shopify-Topic': 'orders/create',
            'X-Shopify-Shop-Domain': opts.shop ?? SHOP,
            'X-Shopify-Hmac-Sha256': opts.hmac ?? webhookHmac(raw, AUTH.apiSecret),
          },
          body: raw,
        }),
      ).then(processed);
    },
  };
}

export { DEMO };
