/** Tiny builders with defaults; override only what a test is about. */
import type { StoredDocument, JsonObject } from '../../engine/types';

let seq = 0;

/** A place-order program's data with the spec's defaults (earnPoint 10 per 100, rounding down). */
export function placeOrderData(overrides: JsonObject = {}): JsonObject {
  return {
    title: 'Place an order',
    status: true,
    earnBy: 'order',
    earnPoint: 10,
    rateMoney: 100,
    rateItem: 1,
    roundingMethod: 'roundingDown',
    priorityPlaceOrder: 99,
    excludeGiftCard: true,
    ...overrides,
  };
}

/** A stored place-order document (for engine tests that skip the database). */
export function placeOrderDoc(overrides: JsonObject = {}, doc: Partial<StoredDocument> = {}): StoredDocument {
  seq += 1;
  return {
    id: `program-${seq}`,
    kind: 'earning.place_order',
    schemaVersion: 1,
    version: 1,
    data: placeOrderData(overrides),
    createdAt: new Date(Date.UTC(2026, 0, 1, 0, 0, seq)).toISOString(),
    updatedAt: new Date(Date.UTC(2026, 0, 1)).toISOString(),
    ...doc,
  };
}

export interface LineInput {
  id?: string;
  product_id?: string | number;
  title?: string;
  price?: string;
  quantity?: number;
  gift_card?: boolean;
  vendor?: string;
  sku?: string;
  tags?: string;
  discount_allocations?: { amount: string }[];
  selling_plan_allocation?: unknown;
}

/** A platform order body (REST webhook shape) with one $100.00 line and a customer. */
export function orderBody(overrides: Record<string, unknown> = {}, lines: LineInput[] = [{}]): Record<string, unknown> {
  seq += 1;
  const lineItems = lines.map((l, i) => ({
    id: l.id ?? `${9000000000000000000n + BigInt(seq * 100 + i)}`,
    product_id: l.product_id ?? 7000000000000000001n.toString(),
    variant_id: 1,
    title: l.title ?? 'Snowboard',
    vendor: l.vendor ?? 'Acme',
    sku: l.sku ?? 'SKU-1',
    price: l.price ?? '100.00',
    quantity: l.quantity ?? 1,
    gift_card: l.gift_card ?? false,
    discount_allocations: l.discount_allocations ?? [],
    ...(l.tags !== undefined ? { tags: l.tags } : {}),
    ...(l.selling_plan_allocation !== undefined ? { selling_plan_allocation: l.selling_plan_allocation } : {}),
  }));
  return {
    id: `${5000000000000000000n + BigInt(seq)}`,
    name: `#${1000 + seq}`,
    created_at: '2026-06-15T12:00:00-04:00',
    currency: 'USD',
    test: false,
    cancelled_at: null,
    financial_status: 'paid',
    source_name: 'web',
    subtotal_price: '100.00',
    total_price: '110.00',
    total_tax: '5.00',
    total_shipping_price_set: { shop_money: { amount: '5.00', currency_code: 'USD' } },
    tags: '',
    discount_codes: [],
    line_items: lineItems,
    customer: { id: 6000000000000000001n.toString(), email: 'ada@example.com', first_name: 'Ada', last_name: 'Lovelace', tags: 'vip', orders_count: 3, total_spent: '250.00' },
    ...overrides,
  };
}

/**
 * Order JSON text whose ids are bare JSON numbers beyond 2^53, exactly as the platform sends
 * them (JSON.stringify of a JS number could not express them).
 */
export function rawOrderWithBigIds(orderId: string, customerId: string, lineId: string, productId: string): string {
  const body = orderBody({ id: 'ORDER', customer: { id: 'CUSTOMER', email: 'big@example.com', first_name: 'Big', last_name: 'Ids' } }, [{ id: 'LINE', product_id: 'PRODUCT' }]);
  return JSON.stringify(body).replace('"ORDER"', orderId).replace('"CUSTOMER"', customerId).replace('"LINE"', lineId).replace('"PRODUCT"', productId);
}
