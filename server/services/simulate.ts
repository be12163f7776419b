/**
 * Preview before saving (issue 15 "What would this change have done?"): replays the shop's stored
 * orders of the last 30 or 90 days with a draft place-order program, together with the shop's other
 * place-order programs, on the compiled fast path (engine/fast-path.ts), and compares with the same
 * replay of the programs as saved now.
 *
 * Order facts: `ingestOrder` (server/services/orders.ts) keeps every new order's normalised facts
 * with the customer's type and tier and the points it was awarded (`order_facts`, migration 0023,
 * via `recordOrderFacts`). Orders ingested before that migration have no facts and are not replayed.
 *
 * What is compared: `before` is the programs as saved now and `after` the same set with the draft
 * in place of (or beside) the saved program, both replayed the same way, so every difference is the
 * draft's doing; `awarded` is what the orders were really awarded when they came (tier multipliers
 * and the programs as they were then included), for reference. Customer eligibility uses the
 * customer's type and tier stored with the order; per-customer limits count the awards of the
 * replay itself (earlier orders of the window), not awards before the window. The changed orders'
 * explanations (before and after) come from `evaluateOrder` (engine/earning.ts, json-rules-engine).
 *
 * Cost: points ÷ the shop's points exchange rate (settings `order.exchangeRate`, points per one
 * major currency unit; SHELL's `shopSettings`), in minor units of the shop's currency.
 */
import { createHash } from 'node:crypto';
import { evaluateOrder, type OrderEvaluation, type ProgramDecision } from '../../engine/earning';
import type { CustomerProfile, PastAward } from '../../engine/eligibility';
import { compilePrograms, type CompiledEvaluator, type FastDecision } from '../../engine/fast-path';
import { currencyExponent } from '../../engine/money';
import type { OrderCustomer, OrderFacts, OrderLine } from '../../engine/order';
import type { JsonObject, StoredDocument } from '../../engine/types';
import type { AppDeps } from '../deps';
import { CompiledOnce } from '../db/compiled';
import type { Db } from '../db/database';
import { ApiError, notFound } from '../errors';
import { findDocument, listDocuments } from '../store/documents';
import { findShop } from '../store/shops';
import { kindOrThrow, validateOrThrow } from './documents';
import { shopSettings } from './settings';
import { shopContext } from './shop-context';
import { encodeReplay, ReplayReader, type ReplayOrder } from './simulate-compact';

export const PLACE_ORDER = 'earning.place_order';
/** The windows a preview may replay, in days. */
export const SIMULATE_WINDOWS = [30, 90] as const;
/** Changed orders answered with their explanations (the count of all changed orders is exact). */
export const CHANGED_ORDERS_SHOWN = 20;

/**
 * Keeps an ingested order's facts for previews, in the ingest's transaction: the full facts
 * (`order_facts`, packed; products apart) and the replay form (`order_replay`,
 * server/services/simulate-compact.ts). A second call for the same order changes nothing.
 * @param awardedPoints whole points the order's place-order programs awarded
 * @param receivedAt ISO instant, used when the order does not say when it was placed
 */
export async function recordOrderFacts(tx: Db, shopId: string, order: OrderFacts, profile: CustomerProfile | null, awardedPoints: number, receivedAt: string): Promise<void> {
  const placed = order.createdAt ? new Date(order.createdAt) : new Date(receivedAt);
  const placedAt = Number.isNaN(placed.getTime()) ? receivedAt : placed.toISOString();
  const { packed, products } = packFacts(order);
  if (products.size > 0) {
    const entries = [...products];
    for (let i = 0; i < entries.length; i += COMPILED_PRODUCT_ROWS) {
      const part = entries.slice(i, i + COMPILED_PRODUCT_ROWS);
      const values: Record<string, unknown> = { shop: shopId };
      part.forEach(([key, attrs], k) => {
        values[`key${k}`] = key;
        values[`attrs${k}`] = attrs;
      });
      await INSERT_LINE_PRODUCTS.run(tx, String(part.length), values);
    }
  }
  const kept = await INSERT_ORDER_FACTS.run(tx, 'one', {
    shop: shopId,
    order: order.id,
    placed: placedAt,
    customer: order.customer?.id ?? null,
    type: profile?.type ?? 'member',
    tier: profile?.tierId ?? null,
    points: awardedPoints,
    facts: JSON.stringify(packed),
  });
  if (Number(kept.numAffectedRows ?? 0n) === 0) return;
  await INSERT_ORDER_REPLAY.run(tx, 'one', { shop: shopId, placed: placedAt, order: order.id, customer: order.customer?.id ?? null, replay: encodeReplay(order, lineProductKeys(packed), profile, awardedPoints) });
}

/** Product records inserted per statement (an order's distinct products; more go in further statements). */
const COMPILED_PRODUCT_ROWS = 16;
// The statements every ingested order runs, compiled once (server/db/compiled.ts).
const INSERT_LINE_PRODUCTS = new CompiledOnce<string>((db, p, key) =>
  db
    .insertInto('order_line_products')
    .values(Array.from({ length: Number(key) }, (_, k) => ({ shop_id: p.shop!, key: p[`key${k}`]!, attrs: p[`attrs${k}`]! })))
    .onConflict((oc) => oc.columns(['shop_id', 'key']).doNothing()),
);
const INSERT_ORDER_FACTS = new CompiledOnce<'shop' | 'order' | 'placed' | 'customer' | 'type' | 'tier' | 'points' | 'facts'>((db, p) =>
  db
    .insertInto('order_facts')
    .values({ shop_id: p.shop, order_id: p.order, placed_at: p.placed, customer_id: p.customer, customer_type: p.type, tier_id: p.tier, awarded_points: p.points, facts: p.facts })
    .onConflict((oc) => oc.columns(['shop_id', 'order_id']).doNothing()),
);
const INSERT_ORDER_REPLAY = new CompiledOnce<'shop' | 'placed' | 'order' | 'customer' | 'replay'>((db, p) =>
  db.insertInto('order_replay').values({ shop_id: p.shop, placed_at: p.placed, order_id: p.order, customer_id: p.customer, replay: p.replay }),
);

/** The product record key of each line of packFacts's array, in line order. */
export function lineProductKeys(packed: ReturnType<typeof packFacts>['packed']): string[] {
  return (packed[17] as Packed[]).map((l) => l[1] as string);
}

type Packed = (string | number | null | string[] | Packed)[];

/** What a line says about its product (the same on every order of that product at that price), positional. */
function productAttrs(l: OrderLine): Packed {
  return [l.productId, l.variantId, l.title, l.vendor, l.productType, l.sku, l.tags, l.collectionIds, l.unitPriceMinor, l.price, l.giftCard ? 1 : 0];
}

/** A product record's key: a short hash of its attributes' JSON text (content-addressed, so an attribute change is a new record). */
export function productKey(attrsJson: string): string {
  return createHash('sha1').update(attrsJson).digest('base64url').slice(0, 16);
}

/**
 * OrderFacts as a positional JSON array (format 2), the product side of each line (ids, title,
 * vendor, type, SKU, tags, collections, unit price, gift card) moved to shop-wide product records
 * (`order_line_products`, keyed by `productKey`) that orders share. Loading 100,000 orders for a
 * preview costs mostly JSON parsing; this parses about a third of the object form's text.
 * `unpackFacts` is its inverse (tests/api/simulate.test.ts checks the round trip).
 * @returns the order's array and its product records (key → attributes' JSON text)
 */
export function packFacts(o: OrderFacts): { packed: Packed; products: Map<string, string> } {
  const flags = (o.test ? 1 : 0) | (o.cancelled ? 2 : 0) | (o.taxesIncluded ? 4 : 0);
  const c = o.customer;
  const products = new Map<string, string>();
  const lines = o.lines.map((l): Packed => {
    const attrs = JSON.stringify(productAttrs(l));
    const key = productKey(attrs);
    products.set(key, attrs);
    return [l.id, key, l.quantity, l.discountMinor, l.amountMinor, l.subscription ? 1 : 0];
  });
  const packed: Packed = [
    2, o.id, o.name, o.createdAt, o.currency, o.exponent, flags, o.financialStatus, o.sourceName, o.tags, o.discountCodes,
    o.subtotalMinor, o.totalMinor, o.shippingMinor, o.taxMinor, o.storeCreditMinor, o.itemCount,
    lines,
    c ? [c.id, c.email, c.firstName, c.lastName, c.tags, c.ordersCount, c.totalSpent] : null,
    o.currencyMismatch ? [o.currencyMismatch.orderCurrency, o.currencyMismatch.shopCurrency] : null,
  ];
  return { packed, products };
}

/**
 * The OrderFacts of `packFacts`'s array (objects built in normalizeOrder's shape), with `products`
 * the shop's product records (key → parsed attributes). Lines of one product share its tags and
 * collection arrays (the engine only reads them). Throws TypeError for another format or a
 * product record that is missing.
 */
export function unpackFacts(p: unknown[], products: ReadonlyMap<string, unknown[]>): OrderFacts {
  if (p[0] !== 2) throw new TypeError('order facts: unknown packed format');
  const flags = p[6] as number;
  const lines = (p[17] as unknown[][]).map((l): OrderLine => {
    const a = products.get(l[1] as string);
    if (!a) throw new TypeError(`order facts: no product record ${String(l[1])}`);
    return {
      id: l[0] as string,
      productId: a[0] as string | null,
      variantId: a[1] as string | null,
      title: a[2] as string,
      vendor: a[3] as string,
      productType: a[4] as string,
      sku: a[5] as string,
      tags: a[6] as string[],
      collectionIds: a[7] as string[],
      quantity: l[2] as number,
      unitPriceMinor: a[8] as number,
      discountMinor: l[3] as number,
      amountMinor: l[4] as number,
      price: a[9] as number,
      giftCard: a[10] === 1,
      subscription: l[5] === 1,
    };
  });
  const c = p[18] as unknown[] | null;
  const customer: OrderCustomer | null = c
    ? { id: c[0] as string, email: c[1] as string, firstName: c[2] as string, lastName: c[3] as string, tags: c[4] as string[], ordersCount: c[5] as number, totalSpent: c[6] as number }
    : null;
  const mismatch = p[19] as [string, string] | null;
  return {
    id: p[1] as string,
    name: p[2] as string,
    createdAt: p[3] as string,
    currency: p[4] as string,
    exponent: p[5] as number,
    test: (flags & 1) !== 0,
    cancelled: (flags & 2) !== 0,
    financialStatus: p[7] as string,
    sourceName: p[8] as string,
    tags: p[9] as string[],
    discountCodes: p[10] as string[],
    subtotalMinor: p[11] as number,
    totalMinor: p[12] as number,
    shippingMinor: p[13] as number,
    taxMinor: p[14] as number,
    storeCreditMinor: p[15] as number,
    itemCount: p[16] as number,
    lines,
    customer,
    taxesIncluded: (flags & 4) !== 0,
    currencyMismatch: mismatch ? { orderCurrency: mismatch[0], shopCurrency: mismatch[1] } : null,
  };
}

/** What the admin asks: the draft data of a place-order program, its id when editing, the window. */
export interface SimulateInput {
  data: unknown;
  id?: unknown;
  windowDays?: unknown;
}

/** One decision as a preview shows it (the engine's explanation, without condition details). */
export interface PreviewDecision {
  programId: string;
  programTitle: string;
  outcome: 'award' | 'deny';
  points: number;
  reason: string | null;
  message: string;
}

/** One order whose outcome the draft changes. */
export interface ChangedOrder {
  orderId: string;
  orderName: string;
  placedAt: string;
  customerId: string | null;
  before: { points: number; decisions: PreviewDecision[] };
  after: { points: number; decisions: PreviewDecision[] };
}

/** The preview's answer. Points are whole points; money is minor units of `currency`. */
export interface SimulateResult {
  windowDays: number;
  /** ISO instant: orders placed at or after it were replayed. */
  since: string;
  ordersReplayed: number;
  /** Points the replayed orders were really awarded when they came. */
  awardedPoints: number;
  /** The programs as saved now, replayed. */
  pointsBefore: number;
  /** With the draft, replayed. */
  pointsAfter: number;
  /** pointsAfter − pointsBefore. */
  pointsDelta: number;
  /** Orders whose points change. */
  ordersChanged: number;
  /** Distinct customers of the changed orders. */
  customersAffected: number;
  currency: string;
  /** Points per one major unit of the currency (settings `order.exchangeRate`). */
  exchangeRate: number;
  costBeforeMinor: number;
  costAfterMinor: number;
  costDeltaMinor: number;
  /** Up to CHANGED_ORDERS_SHOWN changed orders, the largest changes first. */
  changedOrders: ChangedOrder[];
  /** Milliseconds: loading the orders, replaying them, and everything. */
  timings: { loadMs: number; replayMs: number; totalMs: number };
}

/** An order as the preview replays it (see ReplayOrder). */
export type StoredOrder = ReplayOrder;

/** The shop's product records (key → attributes), each parsed once. */
async function loadProducts(db: Db, shopId: string): Promise<Map<string, unknown[]>> {
  const rows = await db.selectFrom('order_line_products').select(['key', 'attrs']).where('shop_id', '=', shopId).execute();
  return new Map(rows.map((r) => [r.key, JSON.parse(r.attrs) as unknown[]]));
}

/** A stored order from its full facts, and when it was placed (order_facts.placed_at). */
interface FullOrder {
  order: StoredOrder;
  placedAt: string;
}

/** The given orders of the shop from their full facts (`order_facts`), by order id; ids without facts are left out. */
async function loadFullOrders(db: Db, shopId: string, orderIds: readonly string[], products: ReadonlyMap<string, unknown[]>): Promise<Map<string, FullOrder>> {
  const out = new Map<string, FullOrder>();
  for (let start = 0; start < orderIds.length; start += 500) {
    const rows = await db
      .selectFrom('order_facts')
      .select(['order_id', 'placed_at', 'customer_type', 'tier_id', 'awarded_points', 'facts'])
      .where('shop_id', '=', shopId)
      .where('order_id', 'in', orderIds.slice(start, start + 500))
      .execute();
    for (const r of rows) {
      const customerType = r.customer_type === 'guest' || r.customer_type === 'left' ? r.customer_type : 'member';
      const facts = unpackFacts(JSON.parse(r.facts) as unknown[], products);
      out.set(r.order_id, { order: { facts, customerType, tierId: r.tier_id, awarded: Number(r.awarded_points) }, placedAt: r.placed_at });
    }
  }
  return out;
}

/**
 * The stored orders of a window, oldest first (placed_at, then order id), read lazily: `at(i)`
 * decodes order i's replay text when the replay reaches it, so the orders are never all in memory
 * as objects. Orders with the `F` marker (stored before migration 0024, or with a value the replay
 * form cannot carry) are read from their full facts up front, and their replay form is written
 * back (`upgrade`) so that the next preview reads them fast.
 */
export class StoredOrders {
  private constructor(
    private readonly texts: readonly string[],
    private readonly reader: ReplayReader,
    private readonly full: ReadonlyMap<string, FullOrder>,
    readonly products: ReadonlyMap<string, unknown[]>,
  ) {}

  /**
   * Reads the window's replay texts (and the full facts of `F` rows).
   * @param reuse `at` refills one order object (ReplayReader's `reuse`): for a replay that is done
   *   with each order before it asks for the next
   */
  static async load(db: Db, shopId: string, sinceIso: string, reuse = false): Promise<StoredOrders> {
    const products = await loadProducts(db, shopId);
    const rows = await db
      .selectFrom('order_replay')
      .select('replay')
      .where('shop_id', '=', shopId)
      .where('placed_at', '>=', sinceIso)
      .orderBy('placed_at')
      .orderBy('order_id')
      .execute();
    const texts = rows.map((r) => r.replay);
    const reader = new ReplayReader(products, reuse);
    const marked = texts.filter((t) => t.charCodeAt(0) !== 65 /* A */).map((t) => reader.orderId(t));
    const full = marked.length > 0 ? await loadFullOrders(db, shopId, marked, products) : new Map<string, FullOrder>();
    return new StoredOrders(texts, reader, full, products);
  }

  get length(): number {
    return this.texts.length;
  }

  /** Order `index` (0 ≤ index < length). Throws TypeError when its facts cannot be read. With `reuse`, valid until the next call. */
  at(index: number): StoredOrder {
    const text = this.texts[index];
    if (text === undefined) throw new RangeError(`stored orders: no order ${index}`);
    const order = this.reader.read(text);
    if (order) return order;
    const id = this.reader.orderId(text);
    const found = this.full.get(id);
    if (!found) throw new TypeError(`order replay: no stored facts for order ${id}`);
    return found.order;
  }

  /** The order id of order `index`. */
  orderId(index: number): string {
    return this.reader.orderId(this.texts[index] ?? 'F');
  }

  /** Writes the replay form of the orders read from their full facts (see the class comment). Throws the database's error. */
  async upgrade(db: Db, shopId: string): Promise<void> {
    if (this.full.size === 0) return;
    const rows = [...this.full.values()].map(({ order, placedAt }) => {
      const { packed } = packFacts(order.facts);
      const profile: CustomerProfile = { id: order.facts.customer?.id ?? '', type: order.customerType, tierId: order.tierId };
      return { placedAt, id: order.facts.id, replay: encodeReplay(order.facts, lineProductKeys(packed), profile, order.awarded) };
    });
    for (let start = 0; start < rows.length; start += 1000) {
      await db.transaction().execute(async (tx) => {
        for (const r of rows.slice(start, start + 1000)) {
          if (r.replay.charCodeAt(0) !== 65 /* A */) continue;
          await tx.updateTable('order_replay').set({ replay: r.replay }).where('shop_id', '=', shopId).where('placed_at', '=', r.placedAt).where('order_id', '=', r.id).execute();
        }
      });
    }
  }
}

/** The stored orders of the window, oldest first, all read (tests and tools; a preview reads them lazily). */
export async function loadOrderFacts(db: Db, shopId: string, sinceIso: string): Promise<StoredOrder[]> {
  const stored = await StoredOrders.load(db, shopId, sinceIso);
  return Array.from({ length: stored.length }, (_, i) => stored.at(i));
}

/** The request's window in days (30 by default), or ApiError 422 at `/windowDays`. */
function windowOf(value: unknown): number {
  if (value === undefined || value === null) return 30;
  if (typeof value === 'number' && (SIMULATE_WINDOWS as readonly number[]).includes(value)) return value;
  throw new ApiError(422, 'validation_failed', 'Some fields need attention', [{ path: '/windowDays', message: `Must be one of ${SIMULATE_WINDOWS.join(', ')}` }]);
}

/** What a replay found: points of both sides, the orders whose points change, their customers. */
export interface ReplayOutcome {
  pointsBefore: number;
  pointsAfter: number;
  /** Points the orders were really awarded. */
  awarded: number;
  /** Orders whose points change, by index in `orders`, oldest first. */
  changed: { index: number; before: number; after: number }[];
  /** Customer ids of the changed orders. */
  customers: Set<string>;
}

/** The evaluators of one customer profile: the saved programs, the draft alone, the programs with the draft. */
interface Evaluators {
  before: CompiledEvaluator;
  draft: CompiledEvaluator | null;
  after: CompiledEvaluator | null;
  /** The profile they were compiled for. */
  customer: CustomerProfile;
}

/**
 * Replays `orders` through the `before` and `after` program sets on the fast path, one order at
 * a time: evaluators per customer profile (type and tier), per-customer limit history from the
 * replay itself (each side its own).
 *
 * When `after` is `before` with one program replaced or added (the draft), the after side is not
 * evaluated whole: programs decide independently of each other (a program's limit counts only its
 * own awards) except through stopProcessing, so while no stop-processing program awards on
 * either side, the after side's decisions are the before side's with the replaced program's
 * decision swapped for the draft's, and only the draft is evaluated. An order where a
 * stop-processing program awards (before, or the draft after) gets the whole after set, and with
 * limits so do the customer's later orders (the sides' limit histories may differ from then on).
 * tests/unit/simulate-replay.test.ts checks this against evaluating both sides whole.
 * Exported for the benchmark and tests. Pure apart from the clock (orders without a placing time).
 */
export function replay(
  orders: { readonly length: number; at(index: number): StoredOrder | undefined },
  before: readonly StoredDocument[],
  after: readonly StoredDocument[],
  timeZone: string,
): ReplayOutcome {
  const withLimits = [...before, ...after].some((d) => Boolean(d.data.hasLimit));
  const added = after.filter((d) => !before.includes(d));
  const removed = before.filter((d) => !after.includes(d));
  const draft = added.length === 1 && removed.length <= 1 ? added[0] : undefined;
  const replaced = draft ? removed[0] : undefined;
  const stops = (docs: readonly StoredDocument[]) => new Set(docs.filter((d) => Boolean(d.data.stopProcessing)).map((d) => d.id));
  const stopsBefore = stops(before);
  const draftStops = Boolean(draft?.data.stopProcessing);
  // The evaluators read `history` by reference (the array given at compile time): with limits,
  // it is refilled with the current customer's replayed awards before each order. The draft alone
  // and the whole after set read the after side's history.
  const historyBefore: PastAward[] = [];
  const historyAfter: PastAward[] = [];
  const sets = new Map<string, Evaluators>();
  const pastBefore = new Map<string, PastAward[]>();
  const pastAfter = new Map<string, PastAward[]>();
  /** Customers whose orders get the whole after set (see below). */
  const diverged = new Set<string>();
  let replacedIndex = -2;
  /** Per program of the before side, in evaluation order: whether it stops processing. */
  let stopAt: boolean[] = [];
  let lastSet: Evaluators | null = null;
  let lastType: CustomerProfile['type'] | null = null;
  let lastTier: string | null = null;
  /** Whether a stop-processing program of the before side awarded. */
  const stopFired = (decisions: readonly FastDecision[]) => {
    for (let d = 0; d < decisions.length; d++) if (stopAt[d] === true && decisions[d]!.outcome === 'award') return true;
    return false;
  };
  let pointsBefore = 0;
  let pointsAfter = 0;
  let awarded = 0;
  const changed: { index: number; before: number; after: number }[] = [];
  const customers = new Set<string>();
  const record = (past: Map<string, PastAward[]>, customerId: string, programId: string, points: number, at: string) => {
    const list = past.get(customerId) ?? [];
    list.push({ programId, points, at });
    past.set(customerId, list);
  };
  for (let i = 0; i < orders.length; i++) {
    const o = orders.at(i)!;
    awarded += o.awarded;
    // Most orders have the previous order's profile: its evaluators are at hand.
    let set: Evaluators | null = lastSet;
    if (set === null || o.customerType !== lastType || o.tierId !== lastTier) {
      const key = `${o.customerType}\u0000${o.tierId ?? ''}`;
      set = sets.get(key) ?? null;
      if (set === null) {
        const customer: CustomerProfile = { id: '', type: o.customerType, tierId: o.tierId };
        set = {
          before: compilePrograms(before, { timeZone, customer, history: historyBefore }),
          draft: draft ? compilePrograms([draft], { timeZone, customer, history: historyAfter }) : null,
          after: null,
          customer,
        };
        sets.set(key, set);
        if (replacedIndex === -2) {
          replacedIndex = replaced ? set.before.programIds.indexOf(replaced.id) : -1;
          stopAt = set.before.programIds.map((id) => stopsBefore.has(id));
        }
      }
      [lastSet, lastType, lastTier] = [set, o.customerType, o.tierId];
    }
    const customer = set.customer;
    const customerId = o.facts.customer?.id ?? '';
    if (withLimits) {
      historyBefore.length = 0;
      historyAfter.length = 0;
      historyBefore.push(...(pastBefore.get(customerId) ?? []));
      historyAfter.push(...(pastAfter.get(customerId) ?? []));
    }
    const rb = set.before.evaluate(o.facts);
    // The after side: the before side's decisions with the draft's in place of the replaced program's.
    let afterPoints = 0;
    let afterDecisions: readonly FastDecision[] | null = null;
    let draftDecision: FastDecision | null = null;
    let composed = false;
    if (rb.orderSkipped !== null) composed = true;
    else if (set.draft && !(withLimits && diverged.has(customerId)) && !stopFired(rb.decisions)) {
      draftDecision = set.draft.evaluate(o.facts).decisions[0] ?? null;
      if (draftDecision && !(draftStops && draftDecision.outcome === 'award')) {
        composed = true;
        afterPoints = rb.totalPoints - (replacedIndex >= 0 ? (rb.decisions[replacedIndex]?.points ?? 0) : 0) + draftDecision.points;
      }
    }
    if (!composed) {
      set.after ??= compilePrograms(after, { timeZone, customer, history: historyAfter });
      const ra = set.after.evaluate(o.facts);
      afterPoints = ra.totalPoints;
      afterDecisions = ra.decisions;
      // A stop may have kept a limited program from awarding on one side only: from now on this
      // customer's limit histories may differ, and only the whole after set decides alike.
      if (withLimits && customerId) diverged.add(customerId);
    }
    pointsBefore += rb.totalPoints;
    pointsAfter += afterPoints;
    if (withLimits && customerId && rb.orderSkipped === null) {
      const at = o.facts.createdAt || new Date(0).toISOString();
      for (let d = 0; d < rb.decisions.length; d++) {
        const decision = rb.decisions[d]!;
        if (decision.outcome !== 'award') continue;
        record(pastBefore, customerId, decision.programId, decision.points, at);
        if (afterDecisions === null && d !== replacedIndex) record(pastAfter, customerId, decision.programId, decision.points, at);
      }
      if (afterDecisions === null && draftDecision?.outcome === 'award') record(pastAfter, customerId, draftDecision.programId, draftDecision.points, at);
      for (const decision of afterDecisions ?? []) if (decision.outcome === 'award') record(pastAfter, customerId, decision.programId, decision.points, at);
    }
    if (rb.totalPoints !== afterPoints) {
      changed.push({ index: i, before: rb.totalPoints, after: afterPoints });
      if (customerId) customers.add(customerId);
    }
  }
  return { pointsBefore, pointsAfter, awarded, changed, customers };
}

const preview = (d: ProgramDecision): PreviewDecision => ({ programId: d.programId, programTitle: d.programTitle, outcome: d.outcome, points: d.points, reason: d.reason, message: d.message });

/**
 * Previews a draft place-order program over the shop's stored orders of the last `windowDays`
 * days (issue 15). Throws ApiError 422 `validation_failed` (field paths) when the draft is not a
 * valid program or the window is not 30 or 90, 404 `not_found` when `id` names no place-order
 * program of the shop.
 */
export async function simulateProgram(deps: AppDeps, shopId: string, input: SimulateInput): Promise<SimulateResult> {
  const started = performance.now();
  const windowDays = windowOf(input.windowDays);
  const kind = kindOrThrow(deps, PLACE_ORDER);
  const data: JsonObject = (() => {
    try {
      return validateOrThrow(kind, input.data);
    } catch (e) {
      if (e instanceof ApiError && e.details) throw new ApiError(e.status, e.code, e.message, e.details.map((d) => ({ ...d, path: `/data${d.path}` })));
      throw e;
    }
  })();
  const shopRow = await findShop(deps.db, shopId);
  if (!shopRow) throw notFound('unknown_shop', `The shop ${shopId} has not installed the app`);
  const shop = shopContext(shopRow);
  const now = (deps.now ?? (() => new Date()))();
  const saved = await listDocuments(deps.db, shopId, [PLACE_ORDER]);
  let existing: StoredDocument | undefined;
  if (input.id !== undefined && input.id !== null && input.id !== '') {
    existing = typeof input.id === 'string' ? await findDocument(deps.db, shopId, input.id) : undefined;
    if (!existing || existing.kind !== PLACE_ORDER) throw notFound('not_found', 'This program does not exist or was deleted');
  }
  const draft: StoredDocument = existing
    ? { ...existing, data, version: existing.version + 1 }
    : { id: 'draft', kind: PLACE_ORDER, schemaVersion: kind.version, version: 1, data, createdAt: now.toISOString(), updatedAt: now.toISOString() };
  const after = existing ? saved.map((d) => (d.id === existing.id ? draft : d)) : [...saved, draft];

  const since = new Date(now.getTime() - windowDays * 86_400_000).toISOString();
  const loadStarted = performance.now();
  const orders = await StoredOrders.load(deps.db, shopId, since, true);
  const loadMs = performance.now() - loadStarted;
  const replayStarted = performance.now();
  const outcome = replay(orders, saved, after, shop.timeZone);
  const replayMs = performance.now() - replayStarted;

  const settings = await shopSettings(deps.db, shopId);
  const exchangeRate = settings.order.exchangeRate > 0 ? settings.order.exchangeRate : 1;
  const scale = 10 ** currencyExponent(shop.currency);
  const cost = (points: number) => Math.round((points * scale) / exchangeRate);

  // The orders shown are explained from their full facts, by the engine itself.
  const shown = [...outcome.changed].sort((x, y) => Math.abs(y.after - y.before) - Math.abs(x.after - x.before) || x.index - y.index).slice(0, CHANGED_ORDERS_SHOWN);
  const full = await loadFullOrders(deps.db, shopId, shown.map((c) => orders.orderId(c.index)), orders.products);
  const changedOrders: ChangedOrder[] = [];
  for (const c of shown) {
    const o = full.get(orders.orderId(c.index))?.order;
    if (!o) continue;
    const context = { timeZone: shop.timeZone, customer: { id: o.facts.customer?.id ?? '', type: o.customerType, tierId: o.tierId } };
    const b: OrderEvaluation = await evaluateOrder(saved, o.facts, context);
    const a: OrderEvaluation = await evaluateOrder(after, o.facts, context);
    changedOrders.push({
      orderId: o.facts.id,
      orderName: o.facts.name,
      placedAt: o.facts.createdAt,
      customerId: o.facts.customer?.id ?? null,
      before: { points: c.before, decisions: b.decisions.map(preview) },
      after: { points: c.after, decisions: a.decisions.map(preview) },
    });
  }
  // Best effort: the answer stands without it, and the next preview tries again.
  await orders.upgrade(deps.db, shopId).catch(() => undefined);
  return {
    windowDays,
    since,
    ordersReplayed: orders.length,
    awardedPoints: outcome.awarded,
    pointsBefore: outcome.pointsBefore,
    pointsAfter: outcome.pointsAfter,
    pointsDelta: outcome.pointsAfter - outcome.pointsBefore,
    ordersChanged: outcome.changed.length,
    customersAffected: outcome.customers.size,
    currency: shop.currency,
    exchangeRate,
    costBeforeMinor: cost(outcome.pointsBefore),
    costAfterMinor: cost(outcome.pointsAfter),
    costDeltaMinor: cost(outcome.pointsAfter) - cost(outcome.pointsBefore),
    changedOrders,
    timings: { loadMs: Math.round(loadMs), replayMs: Math.round(replayMs), totalMs: Math.round(performance.now() - started) },
  };
}
