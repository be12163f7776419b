/**
 * The discount adapter against the Admin GraphQL API (server/platform/discounts.ts), with a local
 * fake fetch that records the requests: the mutation and input each reward type sends, the code
 * and id it answers, deletion, and the platform's refusals as ApiErrors.
 */
import { describe, expect, it } from 'vitest';
import { ApiError } from '../../server/errors';
import { ShopifyDiscounts, type DiscountSpec } from '../../server/platform/discounts';

const SHOP = 'test-shop.myshopify.com';

type Sent = { url: string; token: string | null; query: string; variables: Record<string, unknown> };

/** An adapter whose fetch answers `answer(query)` and records every request. */
function adapter(answer: (query: string) => { status?: number; body: unknown }) {
  const sent: Sent[] = [];
  const discounts = new ShopifyDiscounts({
    accessToken: (shopId) => Promise.resolve(`token-of-${shopId}`),
    randomBytes: (n) => new Uint8Array(n).fill(1),
    fetch: (url, init) => {
      const body = JSON.parse(String(init?.body)) as { query: string; variables: Record<string, unknown> };
      sent.push({ url, token: new Headers(init?.headers).get('X-Shopify-Access-Token'), query: body.query, variables: body.variables });
      const a = answer(body.query);
      return Promise.resolve(new Response(JSON.stringify(a.body), { status: a.status ?? 200, headers: { 'Content-Type': 'application/json' } }));
    },
  });
  return { discounts, sent };
}

const spec = (value: DiscountSpec['value'], extra: Partial<DiscountSpec> = {}): DiscountSpec => ({
  reference: 'coupon-1',
  title: '$5 off',
  value,
  prefix: 'SAVE',
  customerId: '9007199254740993',
  startsAt: '2026-11-24T12:00:00.000Z',
  endsAt: '2026-12-24T12:00:00.000Z',
  ...extra,
});

const created = (field: string) => ({ body: { data: { [field]: { codeDiscountNode: { id: 'gid://shopify/DiscountCodeNode/77' }, userErrors: [] } } } });

describe('ShopifyDiscounts', () => {
  it('creates an amount discount with discountCodeBasicCreate for the one customer, single use', async () => {
    const { discounts, sent } = adapter(() => created('discountCodeBasicCreate'));
    const result = await discounts.createDiscount(SHOP, spec({ type: 'amount', amount: 5 }, { minimumPurchase: 20 }));
    // Ten bytes of 1 pick the alphabet's second letter ten times.
    expect(result).toEqual({ platformId: 'gid://shopify/DiscountCodeNode/77', code: 'SAVE-BBBBBBBBBB' });
    expect(sent).toHaveLength(1);
    expect(sent[0]!.url).toBe(`https://${SHOP}/admin/api/2025-10/graphql.json`);
    expect(sent[0]!.token).toBe(`token-of-${SHOP}`);
    expect(sent[0]!.query).toContain('discountCodeBasicCreate(basicCodeDiscount: $input)');
    expect(sent[0]!.variables.input).toMatchObject({
      code: 'SAVE-BBBBBBBBBB',
      startsAt: '2026-11-24T12:00:00.000Z',
      endsAt: '2026-12-24T12:00:00.000Z',
      context: { customers: { add: ['gid://shopify/Customer/9007199254740993'] } },
      usageLimit: 1,
      appliesOncePerCustomer: true,
      minimumRequirement: { subtotal: { greaterThanOrEqualToSubtotal: '20.00' } },
      customerGets: { value: { discountAmount: { amount: '5.00', appliesOnEachItem: false } }, items: { all: true } },
    });
  });

  it('sends a percentage as a fraction, free shipping and buy X get Y through their own mutations', async () => {
    const { discounts, sent } = adapter((q) => created(q.includes('FreeShipping') ? 'discountCodeFreeShippingCreate' : q.includes('Bxgy') ? 'discountCodeBxgyCreate' : 'discountCodeBasicCreate'));
    await discounts.createDiscount(SHOP, spec({ type: 'percentage', percent: 15 }, { appliesTo: { collectionIds: ['55'] } }));
    await discounts.createDiscount(SHOP, spec({ type: 'free_shipping', countryCodes: ['US', 'CA'], maximumShippingAmount: 12.5 }));
    await discounts.createDiscount(SHOP, spec({ type: 'buy_x_get_y', buyQuantity: 2, buyProductIds: ['1'], buyCollectionIds: [], getQuantity: 1, getProductIds: ['2'], getCollectionIds: [], getPercent: 100 }));
    expect(sent[0]!.variables.input).toMatchObject({ customerGets: { value: { percentage: 0.15 }, items: { collections: { add: ['gid://shopify/Collection/55'] } } } });
    expect(sent[1]!.query).toContain('discountCodeFreeShippingCreate');
    expect(sent[1]!.variables.input).toMatchObject({ destination: { countries: { add: ['US', 'CA'], includeRestOfWorld: false } }, maximumShippingPrice: '12.50' });
    expect(sent[2]!.query).toContain('discountCodeBxgyCreate');
    expect(sent[2]!.variables.input).toMatchObject({
      customerBuys: { value: { quantity: '2' }, items: { products: { productsToAdd: ['gid://shopify/Product/1'] } } },
      customerGets: { value: { discountOnQuantity: { quantity: '1', effect: { percentage: 1 } } }, items: { products: { productsToAdd: ['gid://shopify/Product/2'] } } },
    });
  });

  it('creates a gift card with giftCardCreate and deactivates it to take it back', async () => {
    const { discounts, sent } = adapter((q) =>
      q.includes('giftCardCreate') ? { body: { data: { giftCardCreate: { giftCard: { id: 'gid://shopify/GiftCard/9' }, userErrors: [] } } } } : { body: { data: { giftCardDeactivate: { giftCard: { id: 'gid://shopify/GiftCard/9' }, userErrors: [] } } } },
    );
    const card = await discounts.createDiscount(SHOP, spec({ type: 'gift_card', amount: 25 }));
    expect(card.platformId).toBe('gid://shopify/GiftCard/9');
    expect(sent[0]!.variables.input).toMatchObject({ initialValue: '25.00', customerId: 'gid://shopify/Customer/9007199254740993', expiresOn: '2026-12-24' });
    await discounts.deleteDiscount(SHOP, card.platformId);
    expect(sent[1]!.query).toContain('giftCardDeactivate');
    expect(sent[1]!.variables).toEqual({ id: 'gid://shopify/GiftCard/9' });
  });

  it('deletes a discount with discountCodeDelete and treats one already gone as deleted', async () => {
    const { discounts, sent } = adapter(() => ({ body: { data: { discountCodeDelete: { deletedCodeDiscountId: null, userErrors: [{ field: ['id'], message: 'Discount does not exist' }] } } } }));
    await expect(discounts.deleteDiscount(SHOP, 'gid://shopify/DiscountCodeNode/77')).resolves.toBeUndefined();
    expect(sent[0]!.query).toContain('discountCodeDelete');
  });

  it('turns userErrors into 502 platform_unavailable and a refused token into 401', async () => {
    const refused = adapter(() => ({ body: { data: { discountCodeBasicCreate: { codeDiscountNode: null, userErrors: [{ field: ['code'], message: 'Code must be unique' }] } } } }));
    const error = await refused.discounts.createDiscount(SHOP, spec({ type: 'amount', amount: 5 })).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ApiError);
    expect(error).toMatchObject({ status: 502, code: 'platform_unavailable' });
    expect((error as Error).message).toContain('Code must be unique');
    const unauthorized = adapter(() => ({ status: 401, body: {} }));
    await expect(unauthorized.discounts.createDiscount(SHOP, spec({ type: 'amount', amount: 5 }))).rejects.toMatchObject({ status: 401, code: 'platform_unauthorized' });
  });

  it('reads a variant\u2019s stock, and null when the platform does not track it', async () => {
    let tracked = true;
    const { discounts } = adapter(() => ({ body: { data: { productVariant: { inventoryQuantity: 0, inventoryItem: { tracked } } } } }));
    expect(await discounts.inventory(SHOP, '202')).toBe(0);
    tracked = false;
    expect(await discounts.inventory(SHOP, '202')).toBeNull();
  });
});
