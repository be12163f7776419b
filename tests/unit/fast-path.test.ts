import { join } from 'node:path';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { orderAllowance } from '../../engine/allowance';
import type { CustomerProfile, PastAward } from '../../engine/eligibility';
import { toDocs, type FixtureProgram } from '../../engine/fixture-checks/support';
import { listFixtureFiles, readFixture, registryPreparer } from '../../engine/fixture-files';
import { evaluateOrder, lineEligibility, type EarningContext, type PlaceOrderProgram } from '../../engine/earning';
import { compilePoints, compilePrograms, ELIGIBILITY_FIELDS, MONOTONE_OPERATORS, parseInstant } from '../../engine/fast-path';
import { normalizeOrder, type OrderFacts, type OrderLine } from '../../engine/order';
import { computePoints, type EarnRate } from '../../engine/points';
import { FACTS, RuleCatalogError } from '../../engine/rules-engine';
import { OPERATORS, OPERATORS_BY_NAME } from '../../rules/operators/index';
import type { JsonObject, StoredDocument } from '../../engine/types';
import { repoRegistry, ROOT } from '../support/app';
import { orderBody, placeOrderDoc } from '../support/factories';

const ctx = { timeZone: 'America/New_York' };
const order = (o: Record<string, unknown> = {}, lines?: Parameters<typeof orderBody>[1]) => normalizeOrder(orderBody(o, lines));

type Evaluation = { totalPoints: number; orderSkipped: string | null; decisions: readonly { programId: string; outcome: string; points: number; reason: string | null }[] };

/** What both paths give (outcome, points and reason per program, the totals), or the error thrown. */
async function settle(run: () => Evaluation | Promise<Evaluation>) {
  try {
    const r = await run();
    return { totalPoints: r.totalPoints, orderSkipped: r.orderSkipped, decisions: r.decisions.map(({ programId, outcome, points, reason }) => ({ programId, outcome, points, reason })) };
  } catch (error) {
    return { error: `${(error as Error).name}: ${(error as Error).message}` };
  }
}

async function bothPaths(programs: StoredDocument[], facts: OrderFacts, context: EarningContext) {
  return { slow: await settle(() => evaluateOrder(programs, facts, context)), fast: await settle(() => compilePrograms(programs, context).evaluate(facts)) };
}

describe('fast path: examples', () => {
  it('awards what evaluateOrder awards: 1 point per $1 on $30 + $70 is 100 points', () => {
    const program = placeOrderDoc({ earnBy: 'price', earnPoint: 1, rateMoney: 1 });
    const result = compilePrograms([program], ctx).evaluate(order({}, [{ price: '30.00' }, { price: '70.00' }]));
    expect(result).toMatchObject({ totalPoints: 100, orderSkipped: null, decisions: [{ programId: program.id, outcome: 'award', points: 100, reason: null }] });
  });

  it('denies with conditions_not_met when the order total is not above the condition value', () => {
    const program = placeOrderDoc({ statusUseCondition: true, conditions: [{ field: 'order.total_price', typeMatch: 'greater_than', content: '500' }] });
    const result = compilePrograms([program], ctx).evaluate(order());
    expect(result.decisions).toEqual([{ programId: program.id, outcome: 'deny', points: 0, reason: 'conditions_not_met' }]);
  });

  it('counts only the lines that meet product conditions, like evaluateOrder', async () => {
    const program = placeOrderDoc({ earnPoint: 1, rateMoney: 1, statusUseCondition: true, conditions: [{ field: 'product.vendor', typeMatch: 'equal', content: 'acme' }] });
    const { slow, fast } = await bothPaths([program], order({}, [{ vendor: 'Acme', price: '30.00' }, { vendor: 'Other', price: '70.00' }]), ctx);
    expect(fast).toEqual(slow);
    expect(fast).toMatchObject({ totalPoints: 30 });
  });

  it('compiles a program with an unknown operator, and throws RuleCatalogError only when an order reaches its conditions', () => {
    const program = placeOrderDoc({ statusUseCondition: true, conditions: [{ field: 'order.tag', typeMatch: 'matches_regex', content: 'x' }] });
    const evaluator = compilePrograms([program], ctx);
    expect(evaluator.evaluate(order({ test: true })).orderSkipped).toBe('test_order');
    expect(() => evaluator.evaluate(order())).toThrow(RuleCatalogError);
  });

  it('throws evaluateOrder\'s RangeError for an unknown field even when typeCondition any would fail the order', async () => {
    const program = placeOrderDoc({ statusUseCondition: true, typeCondition: 'any', conditions: [{ field: 'order.weather', typeMatch: 'equal', content: 'sunny' }] });
    const { slow, fast } = await bothPaths([program], order(), ctx);
    expect(fast).toEqual(slow);
    expect(fast).toEqual({ error: 'RangeError: unknown condition field "order.weather"' });
  });
});

// ---------------------------------------------------------------------------------------------
// The QA order fixtures (fixtures/rules, `check: "order"`), hand-picked edge cases, through both paths.

interface OrderFixture {
  check: string;
  facts: { shop?: { timezone?: string; currency?: string; plan?: string; monthlyOrderCount?: number }; programs?: FixtureProgram[]; order: JsonObject; now?: string; customer?: CustomerProfile; history?: PastAward[] };
}

const fixtureFiles = listFixtureFiles(join(ROOT, 'fixtures', 'rules'), ROOT).filter((file) => (readFixture(join(ROOT, file)) as OrderFixture).check === 'order');

describe('fast path: QA order fixtures', () => {
  const prepare = registryPreparer(repoRegistry());
  it('finds the order fixtures', () => expect(fixtureFiles.length).toBeGreaterThan(100));

  it.each(fixtureFiles)('decides %s like evaluateOrder', async (file) => {
    // The context as the fixture runner builds it (engine/fixture-checks/order.ts).
    const { facts } = readFixture(join(ROOT, file)) as OrderFixture;
    const shop = facts.shop ?? {};
    const allowance = shop.plan !== undefined && shop.monthlyOrderCount !== undefined ? orderAllowance(shop.plan, shop.monthlyOrderCount) : null;
    const context: EarningContext = {
      timeZone: shop.timezone ?? 'UTC',
      ...(facts.now ? { at: new Date(facts.now) } : {}),
      ...(facts.customer ? { customer: facts.customer } : {}),
      ...(facts.history ? { history: facts.history } : {}),
      ...(allowance ? { allowance: { disabled: allowance.state === 'reached', message: allowance.message ?? '' } } : {}),
    };
    const { slow, fast } = await bothPaths(toDocs(facts.programs ?? [], { prepare }, '/facts/programs'), normalizeOrder(facts.order, shop.currency ?? 'USD'), context);
    expect(fast).toEqual(slow);
  });
});

// ---------------------------------------------------------------------------------------------
// Differential test: random programs and random platform orders through both paths.

const PRODUCT_IDS = ['7000000000000000001', '7000000000000000002', '9007199254740993', '42'];
const COLLECTION_IDS = ['1001', '1002', '9007199254740993'];
const WORDS = ['Acme', ' acme ', 'ACME Corp', 'Globex', 'Snowboard', 'snow', 'vip', 'VIP', 'gold', 'summer', 'sale', 'SUB-1', 'SKU-007', '007', '7', '10', '10.0', '25.50', '-3', '0', '', ' ', 'ada@example.com', 'web', 'pos', 'shopify_draft_order', 'LAUNCH', ...PRODUCT_IDS.slice(2), COLLECTION_IDS[0] as string];
const TIME_ZONES = ['America/New_York', 'Asia/Kolkata', 'Pacific/Auckland', 'Australia/Lord_Howe', 'Pacific/Chatham', 'America/St_Johns', 'UTC', 'Pacific/Kiritimati', 'Pacific/Pago_Pago'];
const DATES = ['2026-02-28', '2026-03-01', '2026-03-08', '2026-03-09', '2026-03-15', '2026-03-29', '2026-04-01', '2026-04-05'];
const FROM = Date.parse('2026-02-26T00:00:00Z');
const TO = Date.parse('2026-04-07T00:00:00Z');

/** `value` four times in five. */
const mostly = (value: boolean) => fc.oneof({ arbitrary: fc.constant(value), weight: 4 }, { arbitrary: fc.constant(!value), weight: 1 });
/** `value` about once in `n`. */
const rarely = <T>(value: T, otherwise: fc.Arbitrary<T>, n = 25) => fc.oneof({ arbitrary: otherwise, weight: n - 1 }, { arbitrary: fc.constant(value), weight: 1 });
/** An optional setting: absent (undefined, dropped by `defined`) `absent` times for `present` times present. */
const maybe = <T>(arb: fc.Arbitrary<T>, absent = 1, present = 1) => fc.oneof({ arbitrary: fc.constant(undefined), weight: absent }, { arbitrary: arb, weight: present });
/** The object without its undefined properties, as JSON would have it. */
const defined = <T extends object>(o: T): T => Object.fromEntries(Object.entries(o).filter(([, v]) => v !== undefined)) as T;

const word = fc.constantFrom(...WORDS);
/** Amounts as the platform sends them: 2 decimals (0.00 included), some with a half cent to round. */
const money = fc.oneof(
  { arbitrary: fc.integer({ min: 0, max: 30_000 }).map((c) => `${Math.floor(c / 100)}.${String(c % 100).padStart(2, '0')}`), weight: 6 },
  { arbitrary: fc.constantFrom('0.00', '0.50', '0.005', '1.005', '2.495', '12.345', '99.995', '0.01'), weight: 1 },
);
const content = fc.oneof(word, fc.array(word, { minLength: 1, maxLength: 3 }).map((w) => w.join(', ')), money, fc.integer({ min: -5, max: 20 }).map(String));

const condition = fc
  .record({
    // Now and then a field or operator outside the catalogs, which both paths must refuse alike.
    field: rarely('order.weather', fc.constantFrom(...FACTS.keys()), 300),
    typeMatch: rarely('matches_regex', fc.constantFrom(...OPERATORS.map((o) => o.name)), 300),
    content: maybe(content, 1, 5),
  })
  .map(defined);

const programData = fc
  .record({
    title: word,
    status: mostly(true),
    earnBy: fc.constantFrom('order', 'price', 'quantity', 'fixed_order'),
    earnPoint: fc.oneof({ arbitrary: fc.integer({ min: 0, max: 20 }), weight: 9 }, { arbitrary: fc.constant(1_000_000), weight: 1 }),
    rateMoney: fc.constantFrom(0.01, 0.5, 1, 2.5, 3, 7.5, 10, 100, 0.333333, 1_000_000),
    rateItem: fc.integer({ min: 1, max: 5 }),
    roundingMethod: fc.constantFrom('roundingNearest', 'roundingUp', 'roundingDown'),
    earnPointShippingFee: maybe(fc.boolean()),
    earnPointTax: maybe(fc.boolean()),
    excludeGiftCard: maybe(fc.boolean()),
    excludeFreeGift: maybe(fc.boolean()),
    excludeStoreCredit: maybe(fc.boolean()),
    excludePOSOrderProducts: maybe(mostly(false)),
    excludeOSOrderProducts: maybe(mostly(false)),
    includeProducts: maybe(fc.subarray(PRODUCT_IDS, { maxLength: 2 }), 3),
    excludeProducts: maybe(fc.subarray(PRODUCT_IDS, { maxLength: 1 }), 3),
    appliedPlaceOrderTo: maybe(fc.constantFrom('one_time_purchase', 'subscription_purchase', 'both_purchase')),
    statusUseCondition: maybe(mostly(true), 1, 4),
    typeCondition: maybe(fc.constantFrom('all', 'any')),
    typeProductMatch: maybe(fc.constantFrom('all', 'any')),
    conditions: fc.array(condition, { maxLength: 5 }),
    startDate: maybe(fc.constantFrom(...DATES), 2),
    endDate: maybe(fc.constantFrom(...DATES), 2),
    priorityPlaceOrder: fc.integer({ min: 1, max: 5 }),
    stopProcessing: maybe(mostly(false)),
    hasLimit: maybe(mostly(false), 2),
    limitInterval: maybe(fc.integer({ min: 0, max: 2 })),
    limitUnit: maybe(fc.constantFrom('minute', 'hour', 'day', 'week', 'month', 'year', 'lifetime')),
    earnPointsLimit: maybe(fc.integer({ min: 0, max: 50 })),
    customerEligibility: maybe(fc.constantFrom('all_members', 'everyone', 'vip_members', 'specific_tiers'), 2),
    eligibleTiers: maybe(fc.subarray(['gold', 'silver'])),
  })
  .map(defined);

const programs = fc.array(fc.tuple(programData, fc.integer({ min: 0, max: 2 })), { minLength: 1, maxLength: 10 }).map((list) =>
  list.map(
    ([data, created], i): StoredDocument => ({
      id: `p${i}`,
      kind: 'earning.place_order',
      schemaVersion: 1,
      version: 1,
      data: data as JsonObject,
      // Few distinct creation times, so that equal priorities fall back to creation time and id.
      createdAt: new Date(Date.UTC(2026, 0, 1 + created)).toISOString(),
      updatedAt: '2026-01-01T00:00:00.000Z',
    }),
  ),
);

const line = fc
  .record({
    // Lines get unique ids below unless they have one here: L1 and L2 may repeat within an order.
    id: maybe(fc.constantFrom('L1', 'L2'), 5),
    product_id: maybe(fc.constantFrom(...PRODUCT_IDS), 1, 5),
    variant_id: fc.constant(1),
    title: word,
    vendor: word,
    product_type: word,
    sku: word,
    tags: maybe(fc.oneof(fc.array(word, { maxLength: 3 }).map((w) => w.join(', ')), fc.array(word, { maxLength: 3 })), 1, 3),
    collection_ids: maybe(fc.subarray(COLLECTION_IDS), 1, 3),
    price: money,
    quantity: fc.oneof({ arbitrary: fc.integer({ min: 1, max: 4 }), weight: 9 }, { arbitrary: fc.constant(0), weight: 1 }),
    gift_card: rarely(true, fc.constant(false), 10),
    discount_allocations: maybe(fc.array(fc.record({ amount: money }), { minLength: 1, maxLength: 1 }), 4),
    selling_plan_allocation: maybe(fc.constantFrom({ selling_plan: { id: 1 } }, null), 2),
  })
  .map(defined);

/** Instants in the programs' date range, written as the platform does (with an offset) or as UTC. */
const createdAt = fc.oneof(
  { arbitrary: fc.tuple(fc.integer({ min: FROM, max: TO }), fc.constantFrom(0, -4, -5, 5.5, 13)).map(([ms, hours]) => isoWithOffset(ms, hours)), weight: 60 },
  { arbitrary: fc.constantFrom('', 'not a date'), weight: 1 },
);

function isoWithOffset(ms: number, hours: number): string {
  if (hours === 0) return new Date(ms).toISOString();
  const local = new Date(ms + hours * 3_600_000).toISOString().slice(0, 19);
  const sign = hours < 0 ? '-' : '+';
  const abs = Math.abs(hours);
  return `${local}${sign}${String(Math.floor(abs)).padStart(2, '0')}:${String((abs % 1) * 60).padStart(2, '0')}`;
}

const orderRaw = fc
  .record({
    created_at: createdAt,
    currency: fc.oneof({ arbitrary: fc.constant('USD'), weight: 8 }, { arbitrary: fc.constantFrom('JPY', 'KWD'), weight: 1 }),
    test: rarely(true, fc.constant(false)),
    cancelled_at: rarely('2026-03-02T10:00:00Z', fc.constant(null)),
    financial_status: rarely('voided', fc.constantFrom('paid', 'refunded', 'pending')),
    source_name: maybe(fc.constantFrom('web', 'pos', 'POS', 'shopify_draft_order', '', 'iphone'), 1, 5),
    subtotal_price: money,
    total_price: money,
    total_tax: money,
    total_shipping_price_set: maybe(money.map((amount) => ({ shop_money: { amount, currency_code: 'USD' } })), 1, 2),
    tags: maybe(fc.array(word, { maxLength: 3 }).map((w) => w.join(', ')), 1, 3),
    discount_codes: maybe(fc.array(word.map((code) => ({ code })), { maxLength: 2 }), 1, 2),
    transactions: maybe(fc.array(fc.record({ gateway: fc.constantFrom('shopify_store_credit', 'visa'), kind: fc.constantFrom('sale', 'refund'), status: fc.constant('success'), amount: money }), { maxLength: 2 }), 2),
    line_items: fc.array(line, { minLength: 1, maxLength: 6 }),
    customer: rarely(
      null,
      fc.record({ id: fc.constantFrom('6000000000000000001', 42), email: word, first_name: word, last_name: word, tags: fc.array(word, { maxLength: 3 }).map((w) => w.join(',')), orders_count: fc.integer({ min: 0, max: 20 }), total_spent: money }),
    ),
  })
  .map(defined);

const context = fc
  .record({
    timeZone: fc.constantFrom(...TIME_ZONES),
    at: maybe(fc.integer({ min: FROM, max: TO }).map((ms) => new Date(ms))),
    customer: maybe(fc.record({ id: fc.constant('c1'), type: rarely('left' as const, fc.constantFrom('member' as const, 'guest' as const), 10), tierId: fc.constantFrom('gold', 'silver', null), excluded: rarely(true, fc.constant(false), 10) }), 2),
    history: maybe(fc.array(fc.record({ programId: fc.constantFrom('p0', 'p1', 'p2'), points: fc.integer({ min: 0, max: 30 }), at: fc.integer({ min: FROM, max: TO }).map((ms) => new Date(ms).toISOString()) }), { maxLength: 4 })),
    allowance: maybe(rarely({ disabled: true, message: 'Order limit reached.' }, fc.constant({ disabled: false, message: '' }), 10), 2),
  })
  .map(defined) as fc.Arbitrary<EarningContext>;

const RUNS = 400;
const ORDERS_PER_RUN = 25;

describe('fast path: differential test against evaluateOrder', () => {
  it(`decides ${RUNS * ORDERS_PER_RUN} random orders like evaluateOrder: same outcome, points and reason per program, same totals`, async () => {
    let compared = 0;
    await fc.assert(
      fc.asyncProperty(programs, fc.array(orderRaw, { minLength: ORDERS_PER_RUN, maxLength: ORDERS_PER_RUN }), context, async (docs, raws, earningContext) => {
        const evaluator = compilePrograms(docs, earningContext);
        for (const [i, raw] of raws.entries()) {
          const lineItems = (raw.line_items as Record<string, unknown>[]).map((l, n) => ({ id: `${i}-${n}`, ...l }));
          // normalizeOrder refuses a created_at that is not a date (a 400 at the webhook); facts built
          // another way may still carry one, and both paths must then fail alike.
          const badDate = raw.created_at === 'not a date';
          const normalized = normalizeOrder({ ...raw, ...(badDate ? { created_at: '' } : {}), id: `${5000 + i}`, name: `#${i}`, line_items: lineItems });
          const facts = badDate ? { ...normalized, createdAt: 'not a date' } : normalized;
          // One evaluator for the whole run, as a replay uses it: what it remembers must not leak between orders.
          expect(await settle(() => evaluator.evaluate(facts))).toEqual(await settle(() => evaluateOrder(docs, facts, earningContext)));
          compared++;
        }
      }),
      { numRuns: RUNS },
    );
    expect(compared).toBe(RUNS * ORDERS_PER_RUN);
  }, 120_000);
});

// ---------------------------------------------------------------------------------------------

const rate = fc.record({
  earnBy: fc.constantFrom('order', 'price', 'quantity', 'fixed_order'),
  earnPoint: fc.oneof(fc.integer({ min: 0, max: 50 }), fc.integer({ min: 0, max: 1_000_000 })),
  rateMoney: fc.oneof(fc.constantFrom(0.01, 0.5, 2.5, 100, 0.333333, 1_000_000), fc.integer({ min: 1, max: 10_000_000 }).map((n) => n / 1000)),
  rateItem: fc.integer({ min: 1, max: 10 }),
  roundingMethod: fc.constantFrom('roundingNearest', 'roundingUp', 'roundingDown'),
  earnPointShippingFee: fc.boolean(),
  earnPointTax: fc.boolean(),
}) as fc.Arbitrary<EarnRate>;

const amountLine = fc.record({ amountMinor: fc.oneof(fc.integer({ min: 0, max: 100_000 }), fc.integer({ min: 0, max: 2 ** 50 })), quantity: fc.integer({ min: 1, max: 5 }) });

describe('fast path: points', () => {
  it('computes the points of computePoints for any rate, lines and currency exponent', () => {
    fc.assert(
      fc.property(rate, fc.array(amountLine, { maxLength: 6 }), fc.constantFrom(0, 2, 3), fc.nat(10_000), fc.nat(10_000), (r, amounts, exponent, shippingMinor, taxMinor) => {
        const lines = amounts.map((a, i) => ({ id: `${i}`, ...a }) as unknown as OrderLine);
        const order = { exponent, shippingMinor, taxMinor };
        expect(compilePoints(r)(lines, lines.length, order)).toBe(computePoints(r, lines, order, exponent).points);
      }),
      { numRuns: 2_000 },
    );
  });
});

describe('fast path: what its shortcuts rely on', () => {
  const two = (max: number) => fc.integer({ min: 0, max }).map((n) => String(n).padStart(2, '0'));
  const timestamp = fc
    .tuple(fc.integer({ min: 0, max: 9999 }), two(13), two(32), two(25), two(61), two(61), fc.constantFrom('', '.000', '.5', '.123', '.9999'), fc.constantFrom('Z', 'z', '', '+00:00', '-05:00', '+05:30', '+14:00', '-24:00', '+23:59', '+0530', '-00:60'))
    .map(([y, mo, d, h, mi, sec, frac, zone]) => `${String(y).padStart(4, '0')}-${mo}-${d}T${h}:${mi}:${sec}${frac}${zone}`);

  it('reads timestamps exactly as Date.parse does', () => {
    fc.assert(
      fc.property(fc.oneof(timestamp, fc.string()), (text) => {
        expect(parseInstant(text)).toBe(Date.parse(text));
      }),
      { numRuns: 20_000 },
    );
  });

  it('groups programs by exactly the settings lineEligibility reads', () => {
    const read = new Set<string>();
    const data = { title: 'p', includeProducts: ['1'], excludeProducts: ['2'], appliedPlaceOrderTo: 'one_time_purchase', excludeGiftCard: true, excludeFreeGift: true, excludeStoreCredit: true };
    const spy = new Proxy(data, { get: (target, key) => (read.add(String(key)), Reflect.get(target, key)) }) as unknown as PlaceOrderProgram;
    const eligible = lineEligibility(spy);
    for (const line of order({}, [{ price: '0.00' }, { gift_card: true }, { selling_plan_allocation: {} }, { quantity: 0 }]).lines) eligible(line);
    expect([...read].sort()).toEqual([...ELIGIBILITY_FIELDS].sort());
  });

  it('treats as monotone only operators of the catalog that are monotone on numbers', () => {
    const number = fc.oneof(fc.double({ noNaN: true, noDefaultInfinity: true }), fc.integer({ min: -1000, max: 1000 }).map((n) => n / 4), fc.constantFrom(0, -0, 2 ** 53, 2 ** 53 + 2, -(2 ** 60)));
    const bound = fc.oneof(content, fc.constantFrom('9007199254740993', '-9007199254740993', '0.1', '+5', ' 7 ', '1e3', '.5', '-0'));
    for (const name of MONOTONE_OPERATORS) {
      const op = OPERATORS_BY_NAME.get(name);
      expect(op, name).toBeDefined();
      fc.assert(
        fc.property(bound, fc.array(number, { minLength: 3, maxLength: 3 }), (value, xs) => {
          const [low, middle, high] = [...xs].sort((a, b) => a - b) as [number, number, number];
          const answer = op!.evaluate(low, value);
          if (op!.evaluate(high, value) === answer) expect(op!.evaluate(middle, value)).toBe(answer);
        }),
        { numRuns: 3_000 },
      );
    }
  });
});

describe('fast path fact readers', () => {
  it('has a compiled property reader for every path of the fact catalog', async () => {
    const { READERS } = await import('../../engine/fast-path');
    const { FACTS } = await import('../../engine/rules-engine');
    const paths = [...new Set([...FACTS.values()].map((f) => f.path))].sort();
    expect(Object.keys(READERS).sort()).toEqual(paths);
    const sample = Object.fromEntries(paths.map((p, i) => [p, `value-${i}`]));
    for (const [i, p] of paths.entries()) expect(READERS[p]!(sample)).toBe(`value-${i}`);
  });
});
