/**
 * Normalises the shop platform's order JSON (the `orders/create` webhook body) into the facts the
 * earning engine reads. Ids stay exact strings: the body must be parsed so that integers above
 * 2^53 arrive as strings (server/json.ts does), and numbers are converted with String().
 */
import { currencyExponent, toMajor, toMinor } from './money';

/** One line of an order, amounts in minor units of the order currency. */
export interface OrderLine {
  id: string;
  productId: string | null;
  variantId: string | null;
  title: string;
  vendor: string;
  productType: string;
  sku: string;
  tags: string[];
  collectionIds: string[];
  quantity: number;
  /** Unit price, minor units. */
  unitPriceMinor: number;
  /** Discounts allocated to the whole line (all units), minor units. */
  discountMinor: number;
  /** unitPrice × quantity − discount, never below 0, minor units. */
  amountMinor: number;
  /** Unit price in major units, for conditions ("product.price greater_than 20"). */
  price: number;
  giftCard: boolean;
  /** Bought on a subscription (selling plan), not as a one-time purchase. */
  subscription: boolean;
}

/** The customer as the order carries it. */
export interface OrderCustomer {
  id: string;
  email: string;
  firstName: string;
  lastName: string;
  tags: string[];
  ordersCount: number;
  /** Major units. */
  totalSpent: number;
}

/** An order as the engine reads it. All `*Minor` amounts are minor units of `currency`. */
export interface OrderFacts {
  id: string;
  name: string;
  /** When the order was placed (ISO 8601), or '' when the body does not say. */
  createdAt: string;
  currency: string;
  exponent: number;
  test: boolean;
  cancelled: boolean;
  financialStatus: string;
  /** 'web', 'pos', 'shopify_draft_order', … as the platform sends it. */
  sourceName: string;
  tags: string[];
  discountCodes: string[];
  subtotalMinor: number;
  totalMinor: number;
  shippingMinor: number;
  taxMinor: number;
  /** Paid with store credit (successful sale/capture transactions on a store-credit gateway), minor units. */
  storeCreditMinor: number;
  itemCount: number;
  lines: OrderLine[];
  customer: OrderCustomer | null;
}

/** Thrown when an order body lacks what every order has (an id, line items). `path` is a JSON Pointer. */
export class OrderShapeError extends Error {
  constructor(
    readonly path: string,
    message: string,
  ) {
    super(message);
    this.name = 'OrderShapeError';
  }
}

type Raw = Record<string, unknown>;

/** An exact id string from a JSON id (string, or a safe integer), or null. */
export function idString(value: unknown): string | null {
  if (typeof value === 'string' && value.trim() !== '') return value.trim();
  if (typeof value === 'number' && Number.isSafeInteger(value)) return String(value);
  if (typeof value === 'bigint') return value.toString();
  return null;
}

const str = (v: unknown): string => (typeof v === 'string' ? v : typeof v === 'number' ? String(v) : '');
const obj = (v: unknown): Raw => (v !== null && typeof v === 'object' && !Array.isArray(v) ? (v as Raw) : {});
const list = (v: unknown): unknown[] => (Array.isArray(v) ? v : []);
const tagList = (v: unknown): string[] =>
  Array.isArray(v) ? v.map(str).filter(Boolean) : str(v).split(',').map((t) => t.trim()).filter(Boolean);

function money(v: unknown, exponent: number, path: string): number {
  try {
    return toMinor(typeof v === 'number' || typeof v === 'string' ? v : null, exponent);
  } catch {
    throw new OrderShapeError(path, `${path} is not a money amount`);
  }
}

/**
 * Facts of a platform order. Throws OrderShapeError when the id or line items are missing or a
 * money field is not a number.
 */
export function normalizeOrder(raw: Raw, shopCurrency = 'USD'): OrderFacts {
  const id = idString(raw.id);
  if (!id) throw new OrderShapeError('/id', 'The order has no id');
  if (!Array.isArray(raw.line_items)) throw new OrderShapeError('/line_items', 'The order has no line_items');
  const currency = str(raw.currency) || shopCurrency;
  const exponent = currencyExponent(currency);
  const lines = list(raw.line_items).map((item, i) => normalizeLine(obj(item), exponent, `/line_items/${i}`));
  const shippingSet = obj(obj(raw.total_shipping_price_set).shop_money).amount;
  const shippingMinor =
    shippingSet !== undefined
      ? money(shippingSet, exponent, '/total_shipping_price_set')
      : list(raw.shipping_lines).reduce<number>((sum, l, i) => sum + money(obj(l).price, exponent, `/shipping_lines/${i}/price`), 0);
  const rawCustomer = obj(raw.customer);
  const customerId = idString(rawCustomer.id);
  return {
    id,
    name: str(raw.name),
    createdAt: str(raw.created_at),
    currency,
    exponent,
    test: raw.test === true,
    cancelled: raw.cancelled_at !== null && raw.cancelled_at !== undefined && raw.cancelled_at !== '',
    financialStatus: str(raw.financial_status),
    sourceName: str(raw.source_name) || 'web',
    tags: tagList(raw.tags),
    discountCodes: list(raw.discount_codes).map((d) => str(obj(d).code)).filter(Boolean),
    subtotalMinor: money(raw.subtotal_price, exponent, '/subtotal_price'),
    totalMinor: money(raw.total_price, exponent, '/total_price'),
    shippingMinor,
    taxMinor: money(raw.total_tax, exponent, '/total_tax'),
    storeCreditMinor: list(raw.transactions).reduce<number>((sum, t, i) => {
      const tx = obj(t);
      const counts = /store[_ ]?credit/i.test(str(tx.gateway)) && ['sale', 'capture', ''].includes(str(tx.kind)) && ['success', ''].includes(str(tx.status));
      return counts ? sum + money(tx.amount, exponent, `/transactions/${i}/amount`) : sum;
    }, 0),
    itemCount: lines.reduce((n, l) => n + l.quantity, 0),
    lines,
    customer: customerId
      ? {
          id: customerId,
          email: str(rawCustomer.email),
          firstName: str(rawCustomer.first_name),
          lastName: str(rawCustomer.last_name),
          tags: tagList(rawCustomer.tags),
          ordersCount: Number(rawCustomer.orders_count ?? 0) || 0,
          totalSpent: toMajor(money(rawCustomer.total_spent, exponent, '/customer/total_spent'), exponent),
        }
      : null,
  };
}

function normalizeLine(item: Raw, exponent: number, path: string): OrderLine {
  const quantity = Math.max(0, Math.trunc(Number(item.quantity ?? 0)) || 0);
  const unitPriceMinor = money(item.price, exponent, `${path}/price`);
  const discountMinor = list(item.discount_allocations).reduce<number>(
    (sum, d, i) => sum + money(obj(d).amount, exponent, `${path}/discount_allocations/${i}/amount`),
    0,
  );
  return {
    id: idString(item.id) ?? `${path}`,
    productId: idString(item.product_id),
    variantId: idString(item.variant_id),
    title: str(item.title),
    vendor: str(item.vendor),
    productType: str(item.product_type),
    sku: str(item.sku),
    tags: tagList(item.tags),
    collectionIds: list(item.collection_ids).map(idString).filter((x): x is string => x !== null),
    quantity,
    unitPriceMinor,
    discountMinor,
    amountMinor: Math.max(0, unitPriceMinor * quantity - discountMinor),
    price: toMajor(unitPriceMinor, exponent),
    giftCard: item.gift_card === true,
    subscription: item.selling_plan_allocation !== undefined && item.selling_plan_allocation !== null,
  };
}
