/**
 * Customers' RFM groups on the platform (issue 10; spec 002 §2 "Customer segmentation uses 11
 * predefined RFM groups"; DESIGN.md "Adapters for everything the platform does for us"). The
 * platform scores every customer on recency, frequency and monetary value and files them in one of
 * eleven groups (its `CustomerRfmGroup`); the app reads the groups, it does not score customers.
 * One interface, two implementations:
 * - `ShopifyCustomerSegments` reads `statistics { rfmGroup }` of up to 250 customers per Admin
 *   GraphQL call (`nodes(ids:)`) with the shop's offline access token;
 * - `LocalCustomerSegments` files customers by the orders the app stored for them (order_facts),
 *   with fixed thresholds, so demo mode and tests get the same answer every time and never touch
 *   the network.
 */
import { ApiError } from '../errors';
import type { Db } from '../db/database';
import { postAdminGraphql, type Fetch } from './orders';

/** The platform's eleven RFM groups, verbatim (the spec's "11 predefined RFM groups"). */
export const RFM_GROUPS = ['CHAMPIONS', 'LOYAL', 'ACTIVE', 'NEW', 'PROMISING', 'NEEDS_ATTENTION', 'ALMOST_LOST', 'AT_RISK', 'PREVIOUSLY_LOYAL', 'DORMANT', 'PROSPECTS'] as const;
export type RfmGroup = (typeof RFM_GROUPS)[number];

/** True for one of {@link RFM_GROUPS}. */
export const isRfmGroup = (value: unknown): value is RfmGroup => typeof value === 'string' && (RFM_GROUPS as readonly string[]).includes(value);

/** The adapter: RFM groups of one shop's customers. */
export interface PlatformCustomerSegments {
  /**
   * The RFM group of each of `customerIds` (platform customer ids as exact strings, at most 250)
   * of `shopId` (its `<name>.myshopify.com` domain). A customer the platform does not know, or has
   * not scored, is absent from the answer or null. Throws ApiError 502 `platform_unavailable` when
   * the platform cannot be reached, 401 `platform_unauthorized` when it refuses the credentials.
   */
  rfmGroups(shopId: string, customerIds: readonly string[]): Promise<Map<string, RfmGroup | null>>;
}

/** Customers per call: the Admin API's `nodes(ids:)` maximum. */
export const RFM_BATCH = 250;

const RFM_QUERY = `query LoyaltyRfmGroups($ids: [ID!]!) {
  nodes(ids: $ids) { ... on Customer { id statistics { rfmGroup } } }
}`;

/** The Admin GraphQL adapter. `accessToken` answers the shop's offline token; `fetch` is replaceable in tests. */
export class ShopifyCustomerSegments implements PlatformCustomerSegments {
  constructor(
    private readonly options: {
      accessToken: (shopId: string) => Promise<string>;
      fetch?: Fetch;
    },
  ) {}

  async rfmGroups(shopId: string, customerIds: readonly string[]): Promise<Map<string, RfmGroup | null>> {
    const out = new Map<string, RfmGroup | null>();
    if (customerIds.length === 0) return out;
    if (customerIds.length > RFM_BATCH) throw new RangeError(`at most ${RFM_BATCH} customers per call`);
    const ids = customerIds.map((id) => `gid://shopify/Customer/${id}`);
    const response = await postAdminGraphql(this.options.fetch, shopId, await this.options.accessToken(shopId), RFM_QUERY, { ids });
    if (response.status === 401 || response.status === 403) throw new ApiError(401, 'platform_unauthorized', `The platform refused the app's credentials (${response.status})`);
    if (!response.ok) throw new ApiError(502, 'platform_unavailable', `The platform answered ${response.status}`);
    const answer = (await response.json()) as {
      data?: {
        nodes?: ({
          id?: unknown;
          statistics?: { rfmGroup?: unknown } | null;
        } | null)[];
      };
      errors?: { message: string }[];
    };
    if (!answer.data?.nodes) throw new ApiError(502, 'platform_unavailable', `The platform answered: ${answer.errors?.map((e) => e.message).join('; ') ?? 'no data'}`);
    for (const node of answer.data.nodes) {
      if (!node || typeof node.id !== 'string') continue;
      const id = node.id.slice(node.id.lastIndexOf('/') + 1);
      const group = node.statistics?.rfmGroup;
      out.set(id, isRfmGroup(group) ? group : null);
    }
    return out;
  }
}

/** A customer's order history as the local adapter reads it. */
export interface OrderHistory {
  /** Orders placed. */
  orders: number;
  /** Whole days from the last order to now; ignored when `orders` is 0. */
  daysSinceLastOrder: number;
}

/**
 * The local stand-in's filing (the platform's own scoring is quintiles over the shop, which a
 * deterministic stand-in cannot reproduce): no orders → PROSPECTS; otherwise recency (≤ 30 days,
 * ≤ 90, ≤ 180, older) against frequency (1 order, 2–4, 5 or more), following the platform's
 * descriptions of each group.
 */
export function localRfmGroup(history: OrderHistory): RfmGroup {
  if (history.orders <= 0) return 'PROSPECTS';
  const d = history.daysSinceLastOrder;
  const many = history.orders >= 5;
  const few = history.orders === 1;
  if (d <= 30) return many ? 'CHAMPIONS' : few ? 'NEW' : 'ACTIVE';
  if (d <= 90) return many ? 'LOYAL' : few ? 'PROMISING' : 'NEEDS_ATTENTION';
  if (d <= 180) return many ? 'AT_RISK' : 'ALMOST_LOST';
  return many ? 'PREVIOUSLY_LOYAL' : 'DORMANT';
}

/**
 * The deterministic adapter: files each customer by the orders stored for them (order_facts) with
 * {@link localRfmGroup}. `override` pins a customer's group (tests set the platform's answer).
 */
export class LocalCustomerSegments implements PlatformCustomerSegments {
  private readonly pinned = new Map<string, RfmGroup | null>();

  constructor(
    private readonly db: Db,
    private readonly now: () => Date = () => new Date(),
  ) {}

  /** Pins the group the platform reports for a customer of a shop (null: not scored). */
  override(shopId: string, customerId: string, group: RfmGroup | null): void {
    this.pinned.set(`${shopId}\u0000${customerId}`, group);
  }

  async rfmGroups(shopId: string, customerIds: readonly string[]): Promise<Map<string, RfmGroup | null>> {
    const out = new Map<string, RfmGroup | null>();
    if (customerIds.length === 0) return out;
    const rows = await this.db
      .selectFrom('order_facts')
      .select(['customer_id', (eb) => eb.fn.countAll<number>().as('orders'), (eb) => eb.fn.max('placed_at').as('last')])
      .where('shop_id', '=', shopId)
      .where('customer_id', 'in', customerIds)
      .groupBy('customer_id')
      .execute();
    const byId = new Map(rows.map((r) => [r.customer_id, r]));
    const now = this.now().getTime();
    for (const id of customerIds) {
      const key = `${shopId}\u0000${id}`;
      if (this.pinned.has(key)) {
        out.set(id, this.pinned.get(key)!);
        continue;
      }
      const r = byId.get(id);
      const last = r?.last ? Date.parse(String(r.last)) : NaN;
      out.set(
        id,
        localRfmGroup({
          orders: Number(r?.orders ?? 0),
          daysSinceLastOrder: Number.isNaN(last) ? 0 : Math.floor((now - last) / 86_400_000),
        }),
      );
    }
    return out;
  }
}
