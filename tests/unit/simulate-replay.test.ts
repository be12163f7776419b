import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { CustomerProfile, PastAward } from '../../engine/eligibility';
import { compilePrograms, type CompiledEvaluator } from '../../engine/fast-path';
import { normalizeOrder } from '../../engine/order';
import { FACTS } from '../../engine/rules-engine';
import type { JsonObject, StoredDocument } from '../../engine/types';
import { OPERATORS } from '../../rules/operators/index';
import { lineProductKeys, packFacts, replay, type StoredOrder } from '../../server/services/simulate';
import { encodeReplay, factsMarker, ReplayReader } from '../../server/services/simulate-compact';
import { orderBody } from '../support/factories';

// Random programs and orders in the manner of tests/unit/fast-path.test.ts.
const PRODUCT_IDS = ['7000000000000000001', '7000000000000000002', '9007199254740993', '42'];
const COLLECTION_IDS = ['1001', '1002', '9007199254740993'];
const WORDS = ['Acme', ' acme ', 'Globex', 'Snowboard', 'snow', 'vip', 'gold', 'sale', 'SUB-1', '007', '10', '25.50', '-3', '0', '', ' ', 'ada@example.com', 'web', 'pos', 'LAUNCH', 'Ünïcødé 🎉', '1001'];
const DATES = ['2026-02-28', '2026-03-01', '2026-03-08', '2026-03-15', '2026-04-01'];
const FROM = Date.parse('2026-02-26T00:00:00Z');
const TO = Date.parse('2026-04-07T00:00:00Z');

const mostly = (value: boolean) => fc.oneof({ arbitrary: fc.constant(value), weight: 4 }, { arbitrary: fc.constant(!value), weight: 1 });
const rarely = <T>(value: T, otherwise: fc.Arbitrary<T>, n = 25) => fc.oneof({ arbitrary: otherwise, weight: n - 1 }, { arbitrary: fc.constant(value), weight: 1 });
const maybe = <T>(arb: fc.Arbitrary<T>, absent = 1, present = 1) => fc.oneof({ arbitrary: fc.constant(undefined), weight: absent }, { arbitrary: arb, weight: present });
const defined = <T extends object>(o: T): T => Object.fromEntries(Object.entries(o).filter(([, v]) => v !== undefined)) as T;
const word = fc.constantFrom(...WORDS);
const money = fc.oneof(
  { arbitrary: fc.integer({ min: 0, max: 30_000 }).map((c) => `${Math.floor(c / 100)}.${String(c % 100).padStart(2, '0')}`), weight: 6 },
  { arbitrary: fc.constantFrom('0.00', '0.005', '1.005', '12.345', '99.995', '-0.00', '1234567.891'), weight: 1 },
);
const condition = fc.record({ field: fc.constantFrom(...FACTS.keys()), typeMatch: fc.constantFrom(...OPERATORS.map((o) => o.name)), content: fc.oneof(word, money) });

const programData = fc
  .record({
    status: mostly(true),
    earnBy: fc.constantFrom('order', 'price', 'quantity', 'fixed_order'),
    earnPoint: fc.integer({ min: 0, max: 20 }),
    rateMoney: fc.constantFrom(0.5, 1, 2.5, 10),
    rateItem: fc.integer({ min: 1, max: 3 }),
    roundingMethod: fc.constantFrom('roundingNearest', 'roundingUp', 'roundingDown'),
    earnPointShippingFee: maybe(fc.boolean()),
    excludeGiftCard: maybe(fc.boolean()),
    excludeFreeGift: maybe(fc.boolean()),
    excludeStoreCredit: maybe(fc.boolean()),
    excludePOSOrderProducts: maybe(mostly(false)),
    includeProducts: maybe(fc.subarray(PRODUCT_IDS, { maxLength: 2 }), 3),
    appliedPlaceOrderTo: maybe(fc.constantFrom('one_time_purchase', 'subscription_purchase', 'both_purchase')),
    statusUseCondition: maybe(mostly(true), 1, 4),
    typeCondition: maybe(fc.constantFrom('all', 'any')),
    typeProductMatch: maybe(fc.constantFrom('all', 'any')),
    conditions: fc.array(condition, { maxLength: 3 }),
    startDate: maybe(fc.constantFrom(...DATES), 2),
    endDate: maybe(fc.constantFrom(...DATES), 2),
    priorityPlaceOrder: fc.integer({ min: 1, max: 4 }),
    stopProcessing: maybe(mostly(false)),
    hasLimit: maybe(mostly(false), 2),
    limitInterval: maybe(fc.integer({ min: 0, max: 2 })),
    limitUnit: maybe(fc.constantFrom('day', 'week', 'lifetime')),
    earnPointsLimit: maybe(fc.integer({ min: 0, max: 50 })),
    customerEligibility: maybe(fc.constantFrom('all_members', 'everyone', 'vip_members', 'specific_tiers'), 2),
    eligibleTiers: maybe(fc.subarray(['gold', 'silver'])),
  })
  .map(defined);

const doc = (data: object, i: number, created: number): StoredDocument => ({
  id: `p${i}`,
  kind: 'earning.place_order',
  schemaVersion: 1,
  version: 1,
  data: data as JsonObject,
  createdAt: new Date(Date.UTC(2026, 0, 1 + created)).toISOString(),
  updatedAt: '2026-01-01T00:00:00.000Z',
});
const programs = fc.array(fc.tuple(programData, fc.integer({ min: 0, max: 2 })), { minLength: 0, maxLength: 6 }).map((list) => list.map(([data, created], i) => doc(data, i, created)));

const line = fc
  .record({
    product_id: maybe(fc.constantFrom(...PRODUCT_IDS), 1, 5),
    variant_id: fc.constant(1),
    title: word,
    vendor: word,
    product_type: word,
    sku: word,
    tags: maybe(fc.array(word, { maxLength: 3 }).map((w) => w.join(', ')), 1, 3),
    collection_ids: maybe(fc.subarray(COLLECTION_IDS), 1, 3),
    price: money,
    quantity: fc.oneof({ arbitrary: fc.integer({ min: 1, max: 4 }), weight: 6 }, { arbitrary: fc.constant(0), weight: 1 }),
    gift_card: rarely(true, fc.constant(false), 10),
    discount_allocations: maybe(fc.array(fc.record({ amount: money }), { minLength: 1, maxLength: 1 }), 4),
    selling_plan_allocation: maybe(fc.constant({ selling_plan: { id: 1 } }), 2),
  })
  .map(defined);

const orderRaw = fc
  .record({
    created_at: fc.oneof({ arbitrary: fc.integer({ min: FROM, max: TO }).map((ms) => new Date(ms).toISOString()), weight: 30 }, { arbitrary: fc.constantFrom('2026-03-08T01:30:00-05:00', ''), weight: 1 }),
    currency: fc.oneof({ arbitrary: fc.constant('USD'), weight: 8 }, { arbitrary: fc.constantFrom('JPY', 'EUR'), weight: 1 }),
    test: rarely(true, fc.constant(false)),
    cancelled_at: rarely('2026-03-02T10:00:00Z', fc.constant(null)),
    financial_status: rarely('voided', fc.constantFrom('paid', 'refunded')),
    source_name: maybe(fc.constantFrom('web', 'pos', 'shopify_draft_order', ''), 1, 5),
    subtotal_price: money,
    total_price: money,
    total_tax: money,
    total_shipping_price_set: maybe(money.map((amount) => ({ shop_money: { amount, currency_code: 'USD' } })), 1, 2),
    tags: maybe(fc.array(word, { maxLength: 3 }).map((w) => w.join(', ')), 1, 3),
    discount_codes: maybe(fc.array(word.map((code) => ({ code })), { maxLength: 2 }), 1, 2),
    transactions: maybe(fc.array(fc.record({ gateway: fc.constantFrom('shopify_store_credit', 'visa'), kind: fc.constant('sale'), status: fc.constant('success'), amount: money }), { maxLength: 2 }), 2),
    line_items: fc.array(line, { minLength: 1, maxLength: 4 }),
    customer: rarely(
      null,
      fc.record({ id: fc.constantFrom('6000000000000000001', '42', '43'), email: word, first_name: word, last_name: word, tags: fc.array(word, { maxLength: 2 }).map((w) => w.join(',')), orders_count: fc.integer({ min: 0, max: 20 }), total_spent: money }),
      10,
    ),
  })
  .map(defined);

const profile = fc.record({ id: fc.constant(''), type: rarely('left' as const, fc.constantFrom('member' as const, 'guest' as const), 8), tierId: fc.constantFrom('gold', 'silver', null) });

/** Random platform orders, normalised as ingestion does, each with the profile and award it was stored with. */
const storedOrders = fc.array(fc.tuple(orderRaw, profile, fc.integer({ min: 0, max: 500 })), { minLength: 1, maxLength: 30 }).map((list) =>
  list.map(([raw, p, awarded], i): StoredOrder => {
    const lineItems = (raw.line_items as Record<string, unknown>[]).map((l, n) => ({ id: `${i}-${n}`, ...l }));
    return { facts: normalizeOrder({ ...raw, id: `${5000 + i}`, name: `#${i}`, line_items: lineItems }, 'USD'), customerType: p.type, tierId: p.tierId, awarded };
  }),
);

/** The replay form of a stored order, read back; null when it was stored as the marker. */
function roundTrip(o: StoredOrder): StoredOrder | null {
  const { packed, products } = packFacts(o.facts);
  const text = encodeReplay(o.facts, lineProductKeys(packed), { id: '', type: o.customerType, tierId: o.tierId }, o.awarded);
  const reader = new ReplayReader(new Map([...products].map(([k, v]) => [k, JSON.parse(v) as unknown[]])));
  expect(reader.orderId(text)).toBe(o.facts.id);
  return reader.read(text);
}

type Evaluation = ReturnType<CompiledEvaluator['evaluate']>;
function settle(run: () => Evaluation) {
  try {
    const r = run();
    return { totalPoints: r.totalPoints, orderSkipped: r.orderSkipped !== null, decisions: r.orderSkipped === null ? r.decisions : [] };
  } catch (error) {
    return { error: `${(error as Error).name}: ${(error as Error).message}` };
  }
}

describe('order replay form', () => {
  it('gives the fast path the same decisions as the full facts, for random programs, orders and profiles', () => {
    let encoded = 0;
    fc.assert(
      fc.property(programs, storedOrders, (docs, orders) => {
        for (const o of orders) {
          const back = roundTrip(o);
          if (!back) continue;
          encoded++;
          expect([back.customerType, back.tierId, back.awarded]).toEqual([o.customerType, o.tierId, o.awarded]);
          const context = { timeZone: 'America/New_York', customer: { id: '', type: o.customerType, tierId: o.tierId } };
          // Which order skip applies is not kept (all count nothing); everything else is.
          expect(settle(() => compilePrograms(docs, context).evaluate(back.facts))).toEqual(settle(() => compilePrograms(docs, context).evaluate(o.facts)));
        }
      }),
      { numRuns: 300 },
    );
    expect(encoded).toBeGreaterThan(1000);
  });

  it('keeps the values the fast path reads exactly, and leaves out lines without a positive quantity', () => {
    const facts = normalizeOrder(
      orderBody({ tags: 'spring, sale', source_name: 'pos', customer: { id: 7, email: 'ünï@example.com', tags: 'vip', orders_count: 3, total_spent: '1234.57' } }, [
        { price: '12.50', quantity: 2, tags: 'new' },
        { price: '3.00', quantity: 0 },
      ]),
      'USD',
    );
    const back = roundTrip({ facts, customerType: 'member', tierId: 'gold', awarded: 25 });
    expect(back?.facts).toMatchObject({ id: facts.id, createdAt: facts.createdAt, sourceName: 'pos', tags: ['spring', 'sale'], subtotalMinor: facts.subtotalMinor, totalMinor: facts.totalMinor, itemCount: facts.itemCount });
    expect(back?.facts.customer).toMatchObject({ id: '7', email: 'ünï@example.com', tags: ['vip'], ordersCount: 3, totalSpent: 1234.57 });
    expect(back?.facts.lines).toHaveLength(1);
    expect(back?.facts.lines[0]).toMatchObject({ quantity: 2, amountMinor: facts.lines[0]!.amountMinor, price: 12.5, tags: ['new'] });
    expect(back).toMatchObject({ customerType: 'member', tierId: 'gold', awarded: 25 });
  });

  it('stores the marker for what it cannot carry exactly, and refuses a product record that is missing', () => {
    const facts = normalizeOrder(orderBody({ customer: { id: 7, email: 'a\u0000b@example.com' } }), 'USD');
    const { packed } = packFacts(facts);
    expect(encodeReplay(facts, lineProductKeys(packed), null, 0)).toBe(factsMarker(facts.id));
    const reader = new ReplayReader(new Map());
    expect(reader.read(factsMarker('123'))).toBeNull();
    expect(reader.orderId(factsMarker('123'))).toBe('123');
    const fine = normalizeOrder(orderBody({ customer: { id: 7 } }), 'USD');
    expect(() => reader.read(encodeReplay(fine, lineProductKeys(packFacts(fine).packed), null, 0))).toThrow(TypeError);
  });
});

/** The replay as it was before the draft was evaluated alone: both sides whole, for every order. */
function replayWhole(orders: readonly StoredOrder[], before: readonly StoredDocument[], after: readonly StoredDocument[], timeZone: string) {
  const historyBefore: PastAward[] = [];
  const historyAfter: PastAward[] = [];
  const past: [Map<string, PastAward[]>, Map<string, PastAward[]>] = [new Map(), new Map()];
  let pointsBefore = 0;
  let pointsAfter = 0;
  const changed: { index: number; before: number; after: number }[] = [];
  const customers = new Set<string>();
  orders.forEach((o, index) => {
    const customer: CustomerProfile = { id: '', type: o.customerType, tierId: o.tierId };
    const id = o.facts.customer?.id ?? '';
    historyBefore.splice(0, historyBefore.length, ...(past[0].get(id) ?? []));
    historyAfter.splice(0, historyAfter.length, ...(past[1].get(id) ?? []));
    const rb = compilePrograms(before, { timeZone, customer, history: historyBefore }).evaluate(o.facts);
    const ra = compilePrograms(after, { timeZone, customer, history: historyAfter }).evaluate(o.facts);
    pointsBefore += rb.totalPoints;
    pointsAfter += ra.totalPoints;
    if (id) {
      for (const [r, side] of [[rb, past[0]], [ra, past[1]]] as const) {
        for (const d of r.decisions) if (d.outcome === 'award') side.set(id, [...(side.get(id) ?? []), { programId: d.programId, points: d.points, at: o.facts.createdAt || new Date(0).toISOString() }]);
      }
    }
    if (rb.totalPoints !== ra.totalPoints) {
      changed.push({ index, before: rb.totalPoints, after: ra.totalPoints });
      if (id) customers.add(id);
    }
  });
  return { pointsBefore, pointsAfter, changed, customers };
}

describe('preview replay', () => {
  it('replays a limited program whole for a customer once a stop-processing draft kept it from one side', () => {
    // The saved program stops processing and awards once a lifetime; the draft stops processing,
    // comes first and starts on Feb 28: it takes the Feb 28 order, so the saved program's one
    // award goes to a later order on the after side only.
    const saved = doc({ status: true, earnBy: 'fixed_order', earnPoint: 3, rateMoney: 1, rateItem: 1, roundingMethod: 'roundingDown', priorityPlaceOrder: 2, stopProcessing: true, hasLimit: true, limitUnit: 'lifetime', limitInterval: 1 }, 0, 0);
    const draft = doc({ status: true, earnBy: 'fixed_order', earnPoint: 1, rateMoney: 1, rateItem: 1, roundingMethod: 'roundingDown', priorityPlaceOrder: 1, stopProcessing: true, startDate: '2026-02-28' }, 1, 0);
    const at = (createdAt: string, i: number): StoredOrder => ({ facts: normalizeOrder(orderBody({ id: 5000 + i, created_at: createdAt, customer: { id: 7 } }), 'USD'), customerType: 'member', tierId: null, awarded: 0 });
    const orders = [at('2026-02-28T05:00:00Z', 0), at('2026-02-26T00:00:00Z', 1)];
    const { pointsBefore, pointsAfter, changed, customers } = replay(orders, [saved], [saved, draft], 'America/New_York');
    expect({ pointsBefore, pointsAfter, changed, customers }).toEqual(replayWhole(orders, [saved], [saved, draft], 'America/New_York'));
    expect([pointsBefore, pointsAfter]).toEqual([3, 4]);
  });

  it('evaluating the draft alone gives what evaluating both sides whole gives (stop processing and limits included)', () => {
    fc.assert(
      fc.property(programs, programData, fc.boolean(), fc.boolean(), fc.integer({ min: -1, max: 5 }), storedOrders, (before, edited, tweak, limited, replacedAt, orders) => {
        const replaced = before[replacedAt];
        // Half the drafts are the replaced program with another rate, as a merchant edits one; half
        // have a lifetime limit, which counts the draft's own awards of the replay (not the replaced program's).
        const base = tweak && replaced ? { ...replaced.data, earnPoint: Number(replaced.data.earnPoint) + 1 } : edited;
        const draftData = limited ? { ...base, hasLimit: true, limitUnit: 'lifetime', limitInterval: 2 } : base;
        const draft: StoredDocument = replaced ? { ...replaced, data: draftData as JsonObject, version: 2 } : doc(draftData, 99, 1);
        const after = replaced ? before.map((d) => (d === replaced ? draft : d)) : [...before, draft];
        const timeZone = 'America/New_York';
        let whole: ReturnType<typeof replayWhole> | { error: string };
        try {
          whole = replayWhole(orders, before, after, timeZone);
        } catch (error) {
          whole = { error: String(error) };
        }
        if ('error' in whole) {
          expect(() => replay(orders, before, after, timeZone)).toThrow();
          return;
        }
        const { pointsBefore, pointsAfter, changed, customers } = replay(orders, before, after, timeZone);
        expect({ pointsBefore, pointsAfter, changed, customers }).toEqual(whole);
      }),
      { numRuns: 400 },
    );
  });
});
