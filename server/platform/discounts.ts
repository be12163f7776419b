/**
 * Discount codes and gift cards on the platform (issue 11 redemption; spec 001 §3 reward types;
 * DESIGN.md "Adapters for everything the platform does for us"). One interface, two
 * implementations:
 * - `ShopifyDiscounts` calls the Admin GraphQL API (`discountCodeBasicCreate`,
 *   `discountCodeFreeShippingCreate`, `discountCodeBxgyCreate`, `giftCardCreate`, and
 *   `discountCodeDelete` / `giftCardDeactivate` to take one back) with the shop's offline access token;
 * - `LocalDiscounts` keeps discounts in memory with deterministic codes: demo mode and tests use
 *   it, and it never touches the network.
 */
import { createHash, randomBytes } from 'node:crypto';
import { ApiError } from '../errors';
import { postAdminGraphql, type Fetch } from './orders';

/** What a discount takes off. Money in the shop's currency, major units (5 = $5.00). */
export type DiscountValue =
  | { type: 'amount'; amount: number }
  | { type: 'percentage'; percent: number }
  | { type: 'free_shipping'; maximumShippingAmount?: number; countryCodes?: string[] }
  | { type: 'buy_x_get_y'; buyQuantity: number; buyProductIds: string[]; buyCollectionIds: string[]; getQuantity: number; getProductIds: string[]; getCollectionIds: string[]; getPercent: number }
  | { type: 'free_gift'; variantIds: string[]; quantity: number }
  | { type: 'gift_card'; amount: number };

/** A discount to create for one redemption. */
export interface DiscountSpec {
  /** Our record's id (the coupon id): local codes derive from it, the platform title carries it. */
  reference: string;
  /** Shown in the platform's discount list. */
  title: string;
  value: DiscountValue;
  /** Code prefix (letters, digits, `-`, `_`); the adapter adds the random part. */
  prefix?: string;
  /** Platform customer id the code is restricted to; null = anyone with the code. */
  customerId: string | null;
  /** ISO instants: valid from, and until (null = no end). */
  startsAt: string;
  endsAt: string | null;
  /** Minimum order subtotal in major units (0 or absent = any order). */
  minimumPurchase?: number;
  /** What the discount applies to (amount and percentage discounts). */
  appliesTo?: { productIds?: string[]; collectionIds?: string[] };
  combinesWith?: { orderDiscounts: boolean; productDiscounts: boolean; shippingDiscounts: boolean };
}

/** The adapter: discount codes of one shop. */
export interface PlatformDiscounts {
  /**
   * Creates a single-use discount code (or gift card) for `shopId` (its `<name>.myshopify.com`
   * domain). Returns the platform's id (for `deleteDiscount`) and the code the shopper enters.
   * Throws ApiError 502 `platform_unavailable` when the platform cannot be reached or refuses the
   * input, 401 `platform_unauthorized` when it refuses the credentials.
   */
  createDiscount(shopId: string, spec: DiscountSpec): Promise<{ platformId: string; code: string }>;
  /** Deletes (gift card: deactivates) what `createDiscount` made; an id the platform no longer knows is not an error. */
  deleteDiscount(shopId: string, platformId: string): Promise<void>;
  /** Units in stock of a product variant, or null when the platform does not track it. Optional. */
  inventory?(shopId: string, variantId: string): Promise<number | null>;
}

const CODE_ALPHABET = 'ABCDEFGHJKLMNPQRSTUVWXYZ23456789';

/** `prefix-XXXXXXXXXX` (10 characters of an unambiguous alphabet from `bytes`); `LOY` when there is no prefix. */
function codeFrom(prefix: string | undefined, bytes: Uint8Array): string {
  let tail = '';
  for (let i = 0; i < 10; i++) tail += CODE_ALPHABET[(bytes[i] ?? 0) % CODE_ALPHABET.length];
  return `${prefix && prefix.length > 0 ? prefix : 'LOY'}-${tail}`;
}

/**
 * The code LocalDiscounts gives a spec: the prefix and 10 characters derived from the shop and the
 * spec's reference (deterministic, so a test knows the code before it asks).
 */
export function localDiscountCode(shopId: string, spec: Pick<DiscountSpec, 'prefix' | 'reference'>): string {
  return codeFrom(spec.prefix, createHash('sha256').update(`${shopId}\u0000${spec.reference}`).digest());
}

/** A discount LocalDiscounts holds. */
export interface LocalDiscount {
  shopId: string;
  platformId: string;
  code: string;
  spec: DiscountSpec;
}

/**
 * The local adapter: discounts in memory. Codes come from `localDiscountCode`, ids count up
 * (`local-discount-1`, …). `setStock` sets a variant's inventory; `failNextCreate` makes the next
 * create throw (tests of the platform being down).
 */
export class LocalDiscounts implements PlatformDiscounts {
  /** Discounts alive on the "platform", by platform id. */
  readonly discounts = new Map<string, LocalDiscount>();
  /** Every platform id ever deleted, in order. */
  readonly deleted: string[] = [];
  private counter = 0;
  private readonly stock = new Map<string, number>();
  private failure: Error | null = null;

  /** Sets the units in stock of `variantId` in `shopId` (absent = not tracked). */
  setStock(shopId: string, variantId: string, units: number): void {
    this.stock.set(`${shopId}\u0000${variantId}`, units);
  }

  /** The next createDiscount throws `error` (default: ApiError 502 platform_unavailable). */
  failNextCreate(error: Error = new ApiError(502, 'platform_unavailable', 'The platform could not be reached')): void {
    this.failure = error;
  }

  /** The live discounts of a shop. */
  of(shopId: string): LocalDiscount[] {
    return [...this.discounts.values()].filter((d) => d.shopId === shopId);
  }

  createDiscount(shopId: string, spec: DiscountSpec): Promise<{ platformId: string; code: string }> {
    if (this.failure) {
      const error = this.failure;
      this.failure = null;
      return Promise.reject(error);
    }
    this.counter += 1;
    const platformId = `local-discount-${this.counter}`;
    const code = localDiscountCode(shopId, spec);
    this.discounts.set(platformId, { shopId, platformId, code, spec });
    return Promise.resolve({ platformId, code });
  }

  deleteDiscount(shopId: string, platformId: string): Promise<void> {
    const found = this.discounts.get(platformId);
    if (found && found.shopId === shopId) {
      this.discounts.delete(platformId);
      this.deleted.push(platformId);
    }
    return Promise.resolve();
  }

  inventory(shopId: string, variantId: string): Promise<number | null> {
    return Promise.resolve(this.stock.get(`${shopId}\u0000${variantId}`) ?? null);
  }
}

/** `gid://shopify/<type>/<id>` for a bare numeric id; a gid stays as it is. */
export function gid(type: string, id: string): string {
  return id.startsWith('gid://') ? id : `gid://shopify/${type}/${id}`;
}

interface GraphQlAnswer {
  data?: Record<string, { userErrors?: { field?: string[] | null; message: string }[]; [k: string]: unknown } | null>;
  errors?: { message: string }[];
}

const BASIC = `mutation discountCodeBasicCreate($input: DiscountCodeBasicInput!) {
  discountCodeBasicCreate(basicCodeDiscount: $input) { codeDiscountNode { id } userErrors { field message } }
}`;
const FREE_SHIPPING = `mutation discountCodeFreeShippingCreate($input: DiscountCodeFreeShippingInput!) {
  discountCodeFreeShippingCreate(freeShippingCodeDiscount: $input) { codeDiscountNode { id } userErrors { field message } }
}`;
const BXGY = `mutation discountCodeBxgyCreate($input: DiscountCodeBxgyInput!) {
  discountCodeBxgyCreate(bxgyCodeDiscount: $input) { codeDiscountNode { id } userErrors { field message } }
}`;
const GIFT_CARD = `mutation giftCardCreate($input: GiftCardCreateInput!) {
  giftCardCreate(input: $input) { giftCard { id } giftCardCode userErrors { field message } }
}`;
const DELETE_DISCOUNT = `mutation discountCodeDelete($id: ID!) {
  discountCodeDelete(id: $id) { deletedCodeDiscountId userErrors { field message } }
}`;
const DEACTIVATE_GIFT_CARD = `mutation giftCardDeactivate($id: ID!) {
  giftCardDeactivate(id: $id) { giftCard { id } userErrors { field message } }
}`;
const VARIANT_STOCK = `query variantStock($id: ID!) { productVariant(id: $id) { inventoryQuantity inventoryItem { tracked } } }`;

/** Amounts as the Admin API's Decimal strings (2 decimals). */
const decimal = (n: number): string => n.toFixed(2);

/** The `items` input: entire order, products or collections. */
function itemsOf(applies: DiscountSpec['appliesTo']): Record<string, unknown> {
  if (applies?.productIds && applies.productIds.length > 0) return { products: { productsToAdd: applies.productIds.map((id) => gid('Product', id)) } };
  if (applies?.collectionIds && applies.collectionIds.length > 0) return { collections: { add: applies.collectionIds.map((id) => gid('Collection', id)) } };
  return { all: true };
}

/**
 * The platform adapter against the Shopify Admin GraphQL API (`POST
 * https://{shop}/admin/api/{version}/graphql.json` with `X-Shopify-Access-Token`). Codes are the
 * spec's prefix and 10 random characters; every code is single-use, once per customer, and when
 * the spec names a customer, only theirs.
 */
export class ShopifyDiscounts implements PlatformDiscounts {
  constructor(
    private readonly options: {
      /** The shop's offline access token (server/platform/access-tokens.ts); throws ApiError 401 when the shop must reinstall. */
      accessToken: (shopId: string) => Promise<string>;
      fetch?: Fetch;
      /** Random bytes for codes; tests pass a fixed source. */
      randomBytes?: (size: number) => Uint8Array;
    },
  ) {}

  async createDiscount(shopId: string, spec: DiscountSpec): Promise<{ platformId: string; code: string }> {
    const code = codeFrom(spec.prefix, (this.options.randomBytes ?? randomBytes)(10));
    const value = spec.value;
    if (value.type === 'gift_card') {
      const input = {
        initialValue: decimal(value.amount),
        code,
        note: spec.title,
        ...(spec.customerId ? { customerId: gid('Customer', spec.customerId) } : {}),
        ...(spec.endsAt ? { expiresOn: spec.endsAt.slice(0, 10) } : {}),
      };
      const result = await this.mutate(shopId, GIFT_CARD, { input }, 'giftCardCreate');
      const id = (result.giftCard as { id?: unknown } | null | undefined)?.id;
      if (typeof id !== 'string') throw new ApiError(502, 'platform_unavailable', 'The platform answered giftCardCreate without a gift card');
      return { platformId: id, code };
    }
    const common: Record<string, unknown> = {
      title: `${spec.title} (${spec.reference})`,
      code,
      startsAt: spec.startsAt,
      endsAt: spec.endsAt,
      context: spec.customerId ? { customers: { add: [gid('Customer', spec.customerId)] } } : { all: 'ALL' },
      usageLimit: 1,
      appliesOncePerCustomer: true,
      ...(spec.combinesWith ? { combinesWith: spec.combinesWith } : {}),
      ...(spec.minimumPurchase && spec.minimumPurchase > 0 ? { minimumRequirement: { subtotal: { greaterThanOrEqualToSubtotal: decimal(spec.minimumPurchase) } } } : {}),
    };
    let mutation: string;
    let field: string;
    let input: Record<string, unknown>;
    switch (value.type) {
      case 'amount':
        [mutation, field] = [BASIC, 'discountCodeBasicCreate'];
        input = { ...common, customerGets: { value: { discountAmount: { amount: decimal(value.amount), appliesOnEachItem: false } }, items: itemsOf(spec.appliesTo) } };
        break;
      case 'percentage':
        [mutation, field] = [BASIC, 'discountCodeBasicCreate'];
        input = { ...common, customerGets: { value: { percentage: Math.min(100, value.percent) / 100 }, items: itemsOf(spec.appliesTo) } };
        break;
      case 'free_gift':
        [mutation, field] = [BASIC, 'discountCodeBasicCreate'];
        input = {
          ...common,
          customerGets: { value: { discountOnQuantity: { quantity: String(value.quantity), effect: { percentage: 1 } } }, items: { products: { productVariantsToAdd: value.variantIds.map((id) => gid('ProductVariant', id)) } } },
        };
        break;
      case 'free_shipping':
        [mutation, field] = [FREE_SHIPPING, 'discountCodeFreeShippingCreate'];
        input = {
          ...common,
          destination: value.countryCodes && value.countryCodes.length > 0 ? { countries: { add: value.countryCodes, includeRestOfWorld: false } } : { all: true },
          ...(value.maximumShippingAmount ? { maximumShippingPrice: decimal(value.maximumShippingAmount) } : {}),
        };
        break;
      case 'buy_x_get_y':
        [mutation, field] = [BXGY, 'discountCodeBxgyCreate'];
        input = {
          ...common,
          customerBuys: { value: { quantity: String(value.buyQuantity) }, items: itemsOf({ productIds: value.buyProductIds, collectionIds: value.buyCollectionIds }) },
          customerGets: {
            value: { discountOnQuantity: { quantity: String(value.getQuantity), effect: { percentage: Math.min(100, value.getPercent) / 100 } } },
            items: itemsOf({ productIds: value.getProductIds, collectionIds: value.getCollectionIds }),
          },
          usesPerOrderLimit: 1,
        };
        break;
    }
    const result = await this.mutate(shopId, mutation, { input }, field);
    const id = (result.codeDiscountNode as { id?: unknown } | null | undefined)?.id;
    if (typeof id !== 'string') throw new ApiError(502, 'platform_unavailable', `The platform answered ${field} without a discount`);
    return { platformId: id, code };
  }

  async deleteDiscount(shopId: string, platformId: string): Promise<void> {
    const giftCard = platformId.startsWith('gid://shopify/GiftCard/');
    try {
      await this.mutate(shopId, giftCard ? DEACTIVATE_GIFT_CARD : DELETE_DISCOUNT, { id: platformId }, giftCard ? 'giftCardDeactivate' : 'discountCodeDelete');
    } catch (e) {
      // Already gone on the platform: what we wanted.
      if (e instanceof ApiError && e.code === 'platform_not_found') return;
      throw e;
    }
  }

  async inventory(shopId: string, variantId: string): Promise<number | null> {
    const answer = await this.post(shopId, VARIANT_STOCK, { id: gid('ProductVariant', variantId) });
    const variant = (answer.data as Record<string, unknown> | undefined)?.productVariant as { inventoryQuantity?: unknown; inventoryItem?: { tracked?: unknown } } | null | undefined;
    if (!variant || variant.inventoryItem?.tracked === false || typeof variant.inventoryQuantity !== 'number') return null;
    return variant.inventoryQuantity;
  }

  /** Runs a mutation and answers its payload; userErrors become ApiError 502 (404-like ones `platform_not_found`). */
  private async mutate(shopId: string, query: string, variables: Record<string, unknown>, field: string): Promise<Record<string, unknown>> {
    const answer = await this.post(shopId, query, variables);
    const payload = answer.data?.[field];
    if (!payload) throw new ApiError(502, 'platform_unavailable', `The platform answered without ${field}: ${answer.errors?.map((e) => e.message).join('; ') ?? 'no data'}`);
    const errors = payload.userErrors ?? [];
    if (errors.length > 0) {
      const message = errors.map((e) => e.message).join('; ');
      if (/not (be )?found|does not exist/i.test(message)) throw new ApiError(404, 'platform_not_found', message);
      throw new ApiError(502, 'platform_unavailable', `The platform refused ${field}: ${message}`);
    }
    return payload;
  }

  private async post(shopId: string, query: string, variables: Record<string, unknown>): Promise<GraphQlAnswer> {
    const response = await postAdminGraphql(this.options.fetch, shopId, await this.options.accessToken(shopId), query, variables);
    if (response.status === 401 || response.status === 403) throw new ApiError(401, 'platform_unauthorized', `The platform refused the app's credentials (${response.status})`);
    if (!response.ok) throw new ApiError(502, 'platform_unavailable', `The platform answered ${response.status}`);
    const answer = (await response.json()) as GraphQlAnswer;
    if (!answer.data && answer.errors) throw new ApiError(502, 'platform_unavailable', `The platform answered: ${answer.errors.map((e) => e.message).join('; ')}`);
    return answer;
  }
}
