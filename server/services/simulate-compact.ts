/**
 * The replay form of a stored order (issue 15 preview speed): what the compiled fast path
 * (engine/fast-path.ts) reads of an order, and nothing else, as one short text that costs little
 * to read back. A preview over 100,000 orders spent most of its time turning the full facts
 * (format 2 JSON, server/services/simulate.ts `packFacts`) into objects; this form is about a
 * third of that text, is read by a hand-written scanner instead of JSON.parse, and shares the
 * order's part that repeats from order to order (sales channel, tags and discount codes) between
 * the orders that repeat it.
 *
 * Kept in `order_replay` (migration 0024) beside each `order_facts` row; the full facts stay
 * there for the explanations of the few orders a preview shows.
 *
 * Text (version `A`): `A` str(orderId) int(awarded) int(customerType) str(tierId | '') then
 * int(0) for an order the engine skips whole (ORDER_SKIP: test, cancelled, voided, guest,
 * currency mismatch), or int(1) str(createdAt) seg(sourceName, tags, discountCodes)
 * int(subtotalMinor) int(totalMinor) int(exponent) int(shippingMinor) int(taxMinor)
 * int(storeCreditMinor) int(itemCount) seg(customer id, e-mail, tags) num(ordersCount)
 * num(totalSpent) int(lines) and per line with a positive quantity str(product key) int(quantity) int(amountMinor)
 * int(subscription). `int` is a zigzag varint, 5 bits a character ('0'–'O' ends a number,
 * 'P'–'o' continues it); `num` is int(k) int(m) for m / 10^k; `str` is int(length) and the
 * characters; `seg` is int(length) and the fields (the order's part is remembered by its text while decoding).
 * `F` and the order id mark an order to read from its full facts (rows stored before this form,
 * and orders with a value the form cannot carry exactly).
 */
import { ORDER_SKIP } from '../../engine/earning';
import type { CustomerProfile } from '../../engine/eligibility';
import type { OrderCustomer, OrderFacts, OrderLine } from '../../engine/order';

/** The customer types of `CustomerProfile['type']`, numbered for the replay form. */
const CUSTOMER_TYPES: readonly CustomerProfile['type'][] = ['member', 'guest', 'left'];
/** Integers the form carries: zigzagged, they stay below 2^53. */
const LIMIT = 2 ** 51;

/** A UTF-16 surrogate without its pair: it does not survive the database's UTF-8. */
const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;

class Unencodable extends Error {}

/** Builds one replay text; throws Unencodable for a value it cannot carry exactly. */
class Writer {
  private out = '';

  int(n: number): this {
    if (!Number.isSafeInteger(n) || Math.abs(n) >= LIMIT || Object.is(n, -0)) throw new Unencodable();
    let u = n >= 0 ? n * 2 : -n * 2 - 1;
    let s = '';
    while (u >= 32) {
      s += String.fromCharCode(80 + (u % 32));
      u = Math.floor(u / 32);
    }
    this.out += s + String.fromCharCode(48 + u);
    return this;
  }

  /** A finite number as m / 10^k (k ≤ 9), checked to read back identical. */
  num(x: number): this {
    for (let k = 0; k <= 9; k++) {
      const m = Math.round(x * 10 ** k);
      if (m / 10 ** k === x && !Object.is(x, -0)) return this.int(k).int(m);
    }
    throw new Unencodable();
  }

  /** Text that reads back identical from SQLite and PostgreSQL (well-formed UTF-16, no NUL). */
  str(s: string): this {
    if (typeof s !== 'string' || LONE_SURROGATE.test(s) || s.includes('\u0000')) throw new Unencodable();
    this.int(s.length);
    this.out += s;
    return this;
  }

  list(items: readonly string[]): this {
    this.int(items.length);
    for (const s of items) this.str(s);
    return this;
  }

  /** A part decoded once per distinct text (see Reader.seg). */
  seg(build: (w: Writer) => void): this {
    const inner = new Writer();
    build(inner);
    this.int(inner.out.length);
    this.out += inner.out;
    return this;
  }

  text(): string {
    return this.out;
  }
}

/** The replay form's marker for an order read from its full facts: `F` and the order id (migration 0024 writes it in SQL). */
export function factsMarker(orderId: string): string {
  return `F${orderId}`;
}

/**
 * The replay text of an ingested order (see the module comment), or the `F` marker when a value
 * cannot be carried exactly (a fraction beyond 9 decimals, a NUL character, …).
 * @param productKeys the product record key of each of `order.lines` (packFacts's `productKey`)
 * @param awardedPoints whole points the order was awarded
 */
export function encodeReplay(order: OrderFacts, productKeys: readonly string[], profile: CustomerProfile | null, awardedPoints: number): string {
  try {
    const w = new Writer();
    w.str(order.id).int(awardedPoints).int(Math.max(0, CUSTOMER_TYPES.indexOf(profile?.type ?? 'member'))).str(profile?.tierId ?? '');
    const c = order.customer;
    if (c === null || ORDER_SKIP.some((s) => s.test(order))) return `A${w.int(0).text()}`;
    w.int(1).str(order.createdAt);
    w.seg((s) => s.str(order.sourceName).list(order.tags).list(order.discountCodes));
    w.int(order.subtotalMinor).int(order.totalMinor).int(order.exponent).int(order.shippingMinor).int(order.taxMinor).int(order.storeCreditMinor).int(order.itemCount);
    w.seg((s) => s.str(c.id).str(c.email).list(c.tags));
    w.num(c.ordersCount).num(c.totalSpent);
    // A line without a positive quantity is eligible for no program (lineEligibility), so it is left out.
    const kept = order.lines.flatMap((l, i) => (l.quantity <= 0 ? [] : [{ l, key: productKeys[i] }]));
    w.int(kept.length);
    for (const { l, key } of kept) {
      if (key === undefined) throw new Unencodable();
      w.str(key).int(l.quantity).int(l.amountMinor).int(l.subscription ? 1 : 0);
    }
    return `A${w.text()}`;
  } catch (e) {
    if (e instanceof Unencodable) return factsMarker(order.id);
    throw e;
  }
}

/** An order as the preview replays it: facts with what the fast path reads, the profile it had, its award. */
export interface ReplayOrder {
  /** Facts for the fast path. From the replay form, `name`, line ids, variant ids, unit prices, discounts and customer names are empty. */
  facts: OrderFacts;
  customerType: CustomerProfile['type'];
  tierId: string | null;
  /** Whole points the order was really awarded. */
  awarded: number;
}

/**
 * A product record (packFacts's positional attributes) as a line without the order's part, the
 * order's part filled in per line by `lineOf`.
 */
type ProductAttrs = readonly unknown[];

const EMPTY_LIST: string[] = [];

/**
 * Reads replay texts. One reader serves a whole preview: it remembers the decoded parts (`seg`)
 * and the shop's product records. Not re-entrant.
 */
export class ReplayReader {
  private s = '';
  private i = 0;
  private readonly orderParts = new Map<string, { sourceName: string; tags: string[]; discountCodes: string[] }>();

  private readonly productsByHash = new Map<number, ProductEntry>();

  /** With `reuse`: the one order object that every read refills, with a skipped order's facts or the one full order's (its customer and lines refilled too). */
  private readonly order: ReplayOrder | null;
  private readonly skipped = skippedFacts('');
  private full: OrderFacts | null = null;
  private readonly linePool: OrderLine[] = [];
  private readonly linesByCount: OrderLine[][] = [];

  /**
   * @param products the shop's product records: key → packFacts's positional attributes
   * @param reuse refill one order object on every `read` instead of building new ones (a replay
   *   that is done with each order before it reads the next makes no garbage for the collector)
   */
  constructor(products: ReadonlyMap<string, ProductAttrs>, reuse = false) {
    this.order = reuse ? { facts: skippedFacts(''), customerType: 'member', tierId: null, awarded: 0 } : null;
    for (const [key, attrs] of products) {
      const h = hashOf(key, 0, key.length);
      this.productsByHash.set(h, { key, attrs, next: this.productsByHash.get(h) });
    }
  }

  /** The order id of a replay text (either form). */
  orderId(text: string): string {
    if (text.charCodeAt(0) !== 65 /* A */) return text.slice(1);
    this.s = text;
    this.i = 1;
    return this.str();
  }

  /**
   * The order of a replay text, or null for the `F` marker (and for a text this version does not
   * know): then read the order from its full facts. Throws TypeError for a product record that is
   * missing or a text that does not end where its fields do.
   */
  read(text: string): ReplayOrder | null {
    if (text.charCodeAt(0) !== 65 /* A */) return null;
    this.s = text;
    this.i = 1;
    const id = this.str();
    const awarded = this.int();
    const customerType = CUSTOMER_TYPES[this.int()] ?? 'member';
    const tier = this.str();
    const tierId = tier === '' ? null : tier;
    const kind = this.int();
    const order = this.order;
    if (order === null) {
      const facts = kind === 0 ? skippedFacts(id) : this.facts(id, skippedFacts(id), null, []);
      if (this.i !== text.length) throw new TypeError(`order replay: malformed text for order ${id}`);
      return { facts, customerType, tierId, awarded };
    }
    if (kind === 0) {
      this.skipped.id = id;
      order.facts = this.skipped;
    } else {
      this.full = this.facts(id, this.full ?? skippedFacts(id), this.full?.customer ?? null, this.linePool);
      order.facts = this.full;
    }
    if (this.i !== text.length) throw new TypeError(`order replay: malformed text for order ${id}`);
    order.customerType = customerType;
    order.tierId = tierId;
    order.awarded = awarded;
    return order;
  }

  /**
   * Fills `into` (a skipped order's facts, or the previous order's) with the order's fields, its
   * customer into `customer` (a new object when null), its lines into `pool`'s objects (new ones
   * when the pool is short; the pool is only reused with `reuse`).
   */
  private facts(id: string, into: OrderFacts, customer: OrderCustomer | null, pool: OrderLine[]): OrderFacts {
    into.id = id;
    into.createdAt = this.str();
    const part = this.orderPart();
    into.sourceName = part.sourceName;
    into.tags = part.tags;
    into.discountCodes = part.discountCodes;
    into.subtotalMinor = this.int();
    into.totalMinor = this.int();
    into.exponent = this.int();
    into.shippingMinor = this.int();
    into.taxMinor = this.int();
    into.storeCreditMinor = this.int();
    into.itemCount = this.int();
    into.test = false;
    const who = customer ?? { id: '', email: '', firstName: '', lastName: '', tags: EMPTY_LIST, ordersCount: 0, totalSpent: 0 };
    this.customerPart(who);
    who.ordersCount = this.num();
    who.totalSpent = this.num();
    into.customer = who;
    const count = this.int();
    // One array per line count, kept (setting an array's length is a runtime call).
    const lines = (pool === this.linePool ? this.linesByCount[count] : undefined) ?? new Array<OrderLine>(count);
    if (pool === this.linePool) this.linesByCount[count] = lines;
    for (let n = 0; n < count; n++) {
      let line = pool[n];
      if (line === undefined || pool !== this.linePool) {
        line = emptyLine();
        if (pool === this.linePool) pool[n] = line;
      }
      this.line(line);
      lines[n] = line;
    }
    into.lines = lines;
    return into;
  }

  private line(into: OrderLine): void {
    const a = this.product();
    into.productId = a[0] as string | null;
    into.variantId = a[1] as string | null;
    into.title = a[2] as string;
    into.vendor = a[3] as string;
    into.productType = a[4] as string;
    into.sku = a[5] as string;
    into.tags = a[6] as string[];
    into.collectionIds = a[7] as string[];
    into.quantity = this.int();
    into.unitPriceMinor = a[8] as number;
    into.amountMinor = this.int();
    into.price = a[9] as number;
    into.giftCard = a[10] === 1;
    into.subscription = this.int() === 1;
  }

  /**
   * The product record a line names (str of its key), found without cutting the key out of the
   * text: by a hash of its characters, then compared character by character. Throws TypeError
   * when the shop has no such record.
   */
  private product(): ProductAttrs {
    const length = this.int();
    const s = this.s;
    const start = this.i;
    this.i += length;
    let entry = this.productsByHash.get(hashOf(s, start, this.i));
    while (entry !== undefined && !sameText(entry.key, s, start, length)) entry = entry.next;
    if (entry === undefined) throw new TypeError(`order replay: no product record ${s.slice(start, this.i)}`);
    return entry.attrs;
  }

  private orderPart(): { sourceName: string; tags: string[]; discountCodes: string[] } {
    const key = this.segText();
    let part = this.orderParts.get(key);
    if (part === undefined) {
      const [s, i] = [this.s, this.i];
      this.s = key;
      this.i = 0;
      part = { sourceName: this.str(), tags: this.list(), discountCodes: this.list() };
      [this.s, this.i] = [s, i];
      this.orderParts.set(key, part);
    }
    return part;
  }

  /** The customer part into `into`, decoded every time: customers repeat too little for remembering to pay. */
  private customerPart(into: OrderCustomer): void {
    const length = this.int();
    const end = this.i + length;
    into.id = this.str();
    into.email = this.str();
    into.tags = this.list();
    if (this.i !== end) throw new TypeError('order replay: malformed customer');
  }

  private segText(): string {
    const length = this.int();
    const start = this.i;
    this.i += length;
    return this.s.slice(start, this.i);
  }

  private int(): number {
    const s = this.s;
    let c = s.charCodeAt(this.i++);
    let u = 0;
    let scale = 1;
    while (c >= 80) {
      u += (c - 80) * scale;
      scale *= 32;
      c = s.charCodeAt(this.i++);
    }
    if (!(c >= 48)) throw new TypeError('order replay: malformed number');
    u += (c - 48) * scale;
    return u % 2 === 0 ? u / 2 : -(u + 1) / 2;
  }

  private num(): number {
    const k = this.int();
    return this.int() / 10 ** k;
  }

  private str(): string {
    const length = this.int();
    const start = this.i;
    this.i += length;
    if (this.i > this.s.length) throw new TypeError('order replay: malformed text');
    return this.s.slice(start, this.i);
  }

  private list(): string[] {
    const n = this.int();
    if (n === 0) return EMPTY_LIST;
    const out = new Array<string>(n);
    for (let k = 0; k < n; k++) out[k] = this.str();
    return out;
  }
}

/** Product records with the same hash, chained. */
interface ProductEntry {
  key: string;
  attrs: ProductAttrs;
  next: ProductEntry | undefined;
}

/** A 30-bit hash of `s[start, end)` (a small integer: a Map finds it without allocating). */
function hashOf(s: string, start: number, end: number): number {
  let h = 0;
  for (let k = start; k < end; k++) h = (Math.imul(h, 31) + s.charCodeAt(k)) | 0;
  return h & 0x3fffffff;
}

/** Whether `s[start, start + length)` is `key`. */
function sameText(key: string, s: string, start: number, length: number): boolean {
  if (key.length !== length) return false;
  for (let k = 0; k < length; k++) if (key.charCodeAt(k) !== s.charCodeAt(start + k)) return false;
  return true;
}

/** The lines of skipped facts (never filled: `facts` gives an order its own array). */
const EMPTY_LINES: OrderLine[] = [];

/** A line in the shape of unpackFacts's lines (same properties, same order): the fast path sees one line shape. */
function emptyLine(): OrderLine {
  return { id: '', productId: null, variantId: null, title: '', vendor: '', productType: '', sku: '', tags: EMPTY_LIST, collectionIds: EMPTY_LIST, quantity: 0, unitPriceMinor: 0, discountMinor: 0, amountMinor: 0, price: 0, giftCard: false, subscription: false };
}

/** Facts of an order the engine skips whole: only ORDER_SKIP's answer matters (a test order). */
function skippedFacts(id: string): OrderFacts {
  return {
    id,
    name: '',
    createdAt: '',
    currency: '',
    exponent: 2,
    test: true,
    cancelled: false,
    financialStatus: '',
    sourceName: '',
    tags: EMPTY_LIST,
    discountCodes: EMPTY_LIST,
    subtotalMinor: 0,
    totalMinor: 0,
    shippingMinor: 0,
    taxMinor: 0,
    storeCreditMinor: 0,
    itemCount: 0,
    lines: EMPTY_LINES,
    customer: null,
    taxesIncluded: false,
    currencyMismatch: null,
  };
}
