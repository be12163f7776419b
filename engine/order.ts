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
  /** unitPrice × quantity − discount − the tax inside a tax-inclusive price, never below 0, minor units. */
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
  /**
   * Line prices included tax (`taxes_included`, most EU, UK and AU shops). The line amounts above
   * have the tax taken out already, so `taxMinor` counts once when a program earns on taxes.
   */
  taxesIncluded: boolean;
  /**
   * Set when the amounts are in a currency other than the shop's (no `shop_money` and a foreign
   * `currency`, or `shop_money` in another currency): such an order earns nothing (ORDER_SKIP),
   * and the evaluation says why. Null when they agree or the shop's currency was not given.
   */
  currencyMismatch: { orderCurrency: string; shopCurrency: string } | null;
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

/**
 * A money field of the platform's order: the `<field>_set.shop_money.amount` (always the shop's
 * currency) when the body has it, else the plain `<field>` (the order's `currency`).
 */
function shopMoney(owner: Raw, field: string, exponent: number, path: string): number {
  const set = obj(obj(owner[`${field}_set`]).shop_money);
  return set.amount !== undefined ? money(set.amount, exponent, `${path}_set/shop_money/amount`) : money(owner[field], exponent, `${path}`);
}

/** Σ of a `tax_lines` list's amounts (shop money when present), minor units. */
function taxLinesMinor(taxLines: unknown, exponent: number, path: string): number {
  return list(taxLines).reduce<number>((sum, t, i) => sum + shopMoney(obj(t), 'price', exponent, `${path}/${i}/price`), 0);
}

/** The currency of the body's shop_money amounts (the first one found), or null when it has none. */
function shopMoneyCurrency(raw: Raw): string | null {
  for (const field of ['total_price_set', 'subtotal_price_set', 'total_tax_set', 'total_shipping_price_set']) {
    const code = str(obj(obj(raw[field]).shop_money).currency_code);
    if (code) return code.toUpperCase();
  }
  for (const item of list(raw.line_items)) {
    const code = str(obj(obj(obj(item).price_set).shop_money).currency_code);
    if (code) return code.toUpperCase();
  }
  return null;
}

function money(v: unknown, exponent: number, path: string): number {
  try {
    return toMinor(typeof v === 'number' || typeof v === 'string' ? v : null, exponent);
  } catch {
    throw new OrderShapeError(path, `${path} is not a money amount`);
  }
}

/**
 * Facts of a platform order. Throws OrderShapeError (with the field's JSON Pointer) when the id or
 * line items are missing, a money field is not an amount (or beyond MAX_MONEY_MINOR), a quantity
 * is not a whole number up to MAX_LINE_QUANTITY, or `created_at` is not a date.
 */
export function normalizeOrder(raw: Raw, shopCurrency?: string): OrderFacts {
  const id = idString(raw.id);
  if (!id) throw new OrderShapeError('/id', 'The order has no id');
  if (!Array.isArray(raw.line_items)) throw new OrderShapeError('/line_items', 'The order has no line_items');
  const currency = (shopMoneyCurrency(raw) ?? (str(raw.currency) || shopCurrency || 'USD')).toUpperCase();
  const exponent = currencyExponent(currency);
  const taxesIncluded = raw.taxes_included === true;
  const lines = list(raw.line_items).map((item, i) => normalizeLine(obj(item), exponent, `/line_items/${i}`, taxesIncluded));
  const shippingSet = obj(obj(raw.total_shipping_price_set).shop_money).amount;
  const shippingGross =
    shippingSet !== undefined
      ? money(shippingSet, exponent, '/total_shipping_price_set')
      : list(raw.shipping_lines).reduce<number>((sum, l, i) => sum + shopMoney(obj(l), 'price', exponent, `/shipping_lines/${i}/price`), 0);
  // With taxes included the shipping price carries its own tax: earn on shipping net of it.
  const shippingTax = taxesIncluded ? list(raw.shipping_lines).reduce<number>((sum, l, i) => sum + taxLinesMinor(obj(l).tax_lines, exponent, `/shipping_lines/${i}/tax_lines`), 0) : 0;
  const shippingMinor = Math.max(0, shippingGross - shippingTax);
  const rawCustomer = obj(raw.customer);
  const customerId = idString(rawCustomer.id);
  return {
    id,
    name: str(raw.name),
    createdAt: timeOf(raw.created_at, '/created_at'),
    currency,
    exponent,
    test: raw.test === true,
    cancelled: raw.cancelled_at !== null && raw.cancelled_at !== undefined && raw.cancelled_at !== '',
    financialStatus: str(raw.financial_status),
    sourceName: str(raw.source_name) || 'web',
    tags: tagList(raw.tags),
    discountCodes: list(raw.discount_codes).map((d) => str(obj(d).code)).filter(Boolean),
    subtotalMinor: shopMoney(raw, 'subtotal_price', exponent, '/subtotal_price'),
    totalMinor: shopMoney(raw, 'total_price', exponent, '/total_price'),
    shippingMinor,
    taxMinor: shopMoney(raw, 'total_tax', exponent, '/total_tax'),
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
    taxesIncluded,
    currencyMismatch: shopCurrency && currency !== shopCurrency.toUpperCase() ? { orderCurrency: currency, shopCurrency: shopCurrency.toUpperCase() } : null,
  };
}

/** The most units one order line may carry; more is not a real order (and would overflow amounts). */
export const MAX_LINE_QUANTITY = 1_000_000;

/** A line's quantity: a whole number 0…MAX_LINE_QUANTITY (absent = 0). Throws OrderShapeError otherwise. */
function quantityOf(value: unknown, path: string): number {
  if (value === undefined || value === null) return 0;
  const n = typeof value === 'number' ? value : typeof value === 'string' && /^\s*\d{1,7}\s*$/.test(value) ? Number(value) : NaN;
  if (!Number.isInteger(n) || n < 0 || n > MAX_LINE_QUANTITY) throw new OrderShapeError(path, `${path} must be a whole number from 0 to ${MAX_LINE_QUANTITY}`);
  return n;
}

/** An ISO 8601 time as sent, '' when absent. Throws OrderShapeError when present but not a date. */
function timeOf(value: unknown, path: string): string {
  if (value === undefined || value === null || value === '') return '';
  if (typeof value !== 'string' || value.length > 64 || Number.isNaN(Date.parse(value))) throw new OrderShapeError(path, `${path} is not a date`);
  return value;
}

function normalizeLine(item: Raw, exponent: number, path: string, taxesIncluded: boolean): OrderLine {
  const quantity = quantityOf(item.quantity, `${path}/quantity`);
  const unitPriceMinor = shopMoney(item, 'price', exponent, `${path}/price`);
  const discountMinor = list(item.discount_allocations).reduce<number>(
    (sum, d, i) => sum + shopMoney(obj(d), 'amount', exponent, `${path}/discount_allocations/${i}/amount`),
    0,
  );
  // Tax inside a tax-inclusive price is not spend: it is taken out here and counted once, as the
  // order's tax, only by programs that earn on taxes.
  const includedTaxMinor = taxesIncluded ? taxLinesMinor(item.tax_lines, exponent, `${path}/tax_lines`) : 0;
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
    amountMinor: Math.max(0, unitPriceMinor * quantity - discountMinor - includedTaxMinor),
    price: toMajor(unitPriceMinor, exponent),
    giftCard: item.gift_card === true,
    subscription: item.selling_plan_allocation !== undefined && item.selling_plan_allocation !== null,
  };
}
