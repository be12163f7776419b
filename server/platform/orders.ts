/**
 * The platform's recent orders, for the reconciliation job (issue 14: "a reconciliation job can
 * re-fetch the recent orders through the platform adapter and award what a dropped delivery
 * missed"). Two implementations of one interface:
 * - `ShopifyOrders` calls the platform's Admin API (REST `orders.json`, whose order objects have the
 *   same shape as the `orders/create` webhook body the rest of the server already reads), with an
 *   offline access token obtained by token exchange from the admin's session token;
 * - `LocalOrders` holds orders in memory: demo mode and tests use it, and it never touches the network.
 */
import { ApiError } from '../errors';
import { parseExact } from '../json';

/** At most this many orders per reconciliation run (4 pages of the platform's maximum 250). */
export const RECONCILE_MAX_ORDERS = 1000;

/** What a reconciliation asks for. */
export interface RecentOrdersQuery {
  /** Orders created at or after this instant (ISO 8601). */
  createdAtMin: string;
  /** At most this many orders (1 … RECONCILE_MAX_ORDERS). */
  limit: number;
  /** The admin's session token (a JWT the platform issued); the platform adapter exchanges it for an access token. */
  sessionToken?: string;
}

/** The orders found, oldest first, each as the platform's order object (ids beyond 2^53 as strings). */
export interface RecentOrders {
  orders: Record<string, unknown>[];
  /** True when more orders matched than `limit`: run again with a later `createdAtMin`. */
  truncated: boolean;
}

/** The adapter: the platform's orders of one shop. */
export interface PlatformOrders {
  /**
   * Orders of `shop` (its `<name>.myshopify.com` domain) created since `query.createdAtMin`,
   * cancelled and refunded ones included (their `cancelled_at` and `refunds` tell the
   * reconciliation what else to apply). Throws ApiError 502 `platform_unavailable` when the
   * platform cannot be reached or answers with an error, 401 `platform_unauthorized` when it
   * refuses the credentials.
   */
  recentOrders(shop: string, query: RecentOrdersQuery): Promise<RecentOrders>;
}

/** A `fetch` as the global one; tests pass a fake that records the requests. */
export type Fetch = (input: string, init?: RequestInit) => Promise<Response>;

/** The Admin API version the adapter calls (a stable quarterly version). */
export const ADMIN_API_VERSION = '2025-10';

/**
 * POSTs a GraphQL query to `shopId`'s Admin API (`/admin/api/{ADMIN_API_VERSION}/graphql.json`)
 * with the offline access `token`, giving up after 15 s; answers the platform's response for the
 * caller to read (each adapter answers 401s and errors in its own terms). `fetchFn` replaces the
 * global fetch in tests. Throws ApiError 502 `platform_unavailable` when the platform cannot be reached.
 */
export async function postAdminGraphql(fetchFn: Fetch | undefined, shopId: string, token: string, query: string, variables: Record<string, unknown>): Promise<Response> {
  try {
    return await (fetchFn ?? ((input, init) => fetch(input, init)))(`https://${shopId}/admin/api/${ADMIN_API_VERSION}/graphql.json`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json', Accept: 'application/json', 'X-Shopify-Access-Token': token },
      body: JSON.stringify({ query, variables }),
      signal: AbortSignal.timeout(15_000),
    });
  } catch (e) {
    throw new ApiError(502, 'platform_unavailable', `The platform could not be reached: ${(e as Error).message}`);
  }
}

/** The platform's page size maximum for `orders.json`. */
const PAGE_SIZE = 250;

/**
 * The platform adapter against the Shopify Admin API. Per call: a token exchange
 * (`POST https://{shop}/admin/oauth/access_token`, grant type token-exchange, the session token as
 * subject, an offline access token requested), then `GET /admin/api/{version}/orders.json` with
 * `status=any`, `created_at_min`, `order=created_at asc` and `limit=250`, following the `Link`
 * header's `rel="next"` page until `limit` orders.
 */
export class ShopifyOrders implements PlatformOrders {
  constructor(
    private readonly credentials: { apiKey: string; apiSecret: string },
    private readonly fetchFn: Fetch = (input, init) => fetch(input, init),
  ) {}

  async recentOrders(shop: string, query: RecentOrdersQuery): Promise<RecentOrders> {
    if (!query.sessionToken) throw new ApiError(401, 'platform_unauthorized', 'Reconciling with the platform needs the admin session token');
    const accessToken = await this.exchangeToken(shop, query.sessionToken);
    const params = new URLSearchParams({ status: 'any', created_at_min: query.createdAtMin, order: 'created_at asc', limit: String(Math.min(PAGE_SIZE, query.limit)) });
    let url: string | null = `https://${shop}/admin/api/${ADMIN_API_VERSION}/orders.json?${params.toString()}`;
    const orders: Record<string, unknown>[] = [];
    while (url && orders.length < query.limit) {
      const response = await this.call(url, { headers: { 'X-Shopify-Access-Token': accessToken, Accept: 'application/json' } });
      const page = parseExact(await response.text()) as { orders?: unknown };
      if (!Array.isArray(page.orders)) throw new ApiError(502, 'platform_unavailable', 'The platform answered without an orders list');
      for (const order of page.orders) if (order && typeof order === 'object') orders.push(order as Record<string, unknown>);
      url = nextLink(response.headers.get('link'));
    }
    return { orders: orders.slice(0, query.limit), truncated: orders.length > query.limit || url !== null };
  }

  private async exchangeToken(shop: string, sessionToken: string): Promise<string> {
    const response = await this.call(`https://${shop}/admin/oauth/access_token`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json', Accept: 'application/json' },
      body: JSON.stringify({
        client_id: this.credentials.apiKey,
        client_secret: this.credentials.apiSecret,
        grant_type: 'urn:ietf:params:oauth:grant-type:token-exchange',
        subject_token: sessionToken,
        subject_token_type: 'urn:ietf:params:oauth:token-type:id_token',
        requested_token_type: 'urn:shopify:params:oauth:token-type:offline-access-token',
      }),
    });
    const token = ((await response.json()) as { access_token?: unknown }).access_token;
    if (typeof token !== 'string' || !token) throw new ApiError(502, 'platform_unavailable', 'The platform answered the token exchange without an access token');
    return token;
  }

  private async call(url: string, init: RequestInit): Promise<Response> {
    let response: Response;
    try {
      response = await this.fetchFn(url, { ...init, signal: AbortSignal.timeout(15_000) });
    } catch (e) {
      throw new ApiError(502, 'platform_unavailable', `The platform could not be reached: ${(e as Error).message}`);
    }
    if (response.status === 401 || response.status === 403) throw new ApiError(401, 'platform_unauthorized', `The platform refused the app's credentials (${response.status})`);
    if (!response.ok) throw new ApiError(502, 'platform_unavailable', `The platform answered ${response.status}`);
    return response;
  }
}

/** The `rel="next"` URL of a `Link` header (`<https://…>; rel="next", <…>; rel="previous"`), or null. */
export function nextLink(header: string | null): string | null {
  if (!header) return null;
  for (const part of header.split(',')) {
    const match = /<([^>]+)>\s*;\s*rel="?next"?/.exec(part.trim());
    if (match?.[1]) return match[1];
  }
  return null;
}

/**
 * The local adapter: orders kept in memory per shop, in the order they were added. Demo mode and
 * tests add orders with `add` (as the platform would create them, whether or not a webhook was
 * delivered) and reconcile against them; deterministic and offline.
 */
export class LocalOrders implements PlatformOrders {
  private readonly byShop = new Map<string, Record<string, unknown>[]>();

  /** Records an order of `shop` (a platform order object with `id` and `created_at`); replaces one with the same id. */
  add(shop: string, order: Record<string, unknown>): void {
    const list = this.byShop.get(shop) ?? [];
    const at = list.findIndex((o) => String(o.id) === String(order.id));
    if (at >= 0) list[at] = order;
    else list.push(order);
    this.byShop.set(shop, list);
  }

  recentOrders(shop: string, query: RecentOrdersQuery): Promise<RecentOrders> {
    const since = Date.parse(query.createdAtMin);
    const matching = (this.byShop.get(shop) ?? [])
      .filter((o) => !(Date.parse(String(o.created_at)) < since))
      .sort((a, b) => Date.parse(String(a.created_at)) - Date.parse(String(b.created_at)));
    return Promise.resolve({ orders: matching.slice(0, query.limit), truncated: matching.length > query.limit });
  }
}
