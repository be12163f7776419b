/**
 * Fast path for bulk place-order evaluation (spec 001 §3 Program, §4 Programs; spec 002 §4, §5, §9):
 * replays many orders, such as a shop's past orders, through a set of programs, for example to
 * preview what a draft program would have awarded. It compiles the rule data that
 * `evaluateOrder` (engine/earning.ts) hands to json-rules-engine into plain synchronous closures
 * once, then decides each order as `evaluateOrder` does, step for step: order skips, priority
 * order and stopProcessing, status, store-timezone date window, customer eligibility, sales
 * channel, eligible lines, conditions (typeCondition, typeProductMatch), store credit, points,
 * zero_points and per-customer limits. It returns decisions without their explanations;
 * `evaluateOrder` stays the source of truth and explains single orders.
 *
 * What compiling saves (json-rules-engine builds an engine and awaits promises per program, line
 * and condition):
 * - Conditions: each is looked up in the fact catalog (rules/facts.json) and the operator
 *   catalog (rules/operators) once. The operator still decides, but its answer is remembered:
 *   per distinct fact value (vendors, tags, SKUs repeat from order to order), and for the
 *   ordering operators on numbers as the ranges known to pass and to fail (order totals do not
 *   repeat). Conditions on the order and the customer run once per program, not per line.
 * - Eligible lines: programs with the same eligibility settings share one scan per order.
 * - Date windows: decided from the instant unless it is within 16 hours of a bound's midnight.
 * - Points: `computePoints`'s arithmetic without its explanation strings.
 * - Decisions: denials are made once per program and shared.
 *
 * tests/unit/fast-path.test.ts checks that both paths decide alike on random programs and orders.
 */
import { OPERATORS_BY_NAME, type OperatorDefinition } from '../rules/operators/index';
import {
  assertConditionFields,
  compareProgramPriority,
  conditionsRule,
  earnRateOf,
  KNOWN_FACTS,
  lineEligibility,
  ORDER_SKIP,
  orderConditionFact,
  withoutStoreCredit,
  type DenyReason,
  type EarningContext,
  type PlaceOrderProgram,
} from './earning';
import { applyLimit, eligibilityDenial } from './eligibility';
import { capPoints, computePoints, moneyRate, roundFraction, scaledProduct, type EarnRate } from './points';
import { assertRuleVocabulary, FACTS } from './rules-engine';
import { localDate, windowPosition } from './store-time';
import type { OrderFacts, OrderLine } from './order';
import type { StoredDocument } from './types';
import { kindData } from './generated';

/** One program's decision about one order (spec 001 §4): `evaluateOrder`'s decision without the explanation. */
export interface FastDecision {
  readonly programId: string;
  readonly outcome: 'award' | 'deny';
  /** Whole points awarded (after any points limit); 0 when denied. */
  readonly points: number;
  /** Why the program did not award; null for an award. */
  readonly reason: DenyReason | null;
}

/** Everything the fast path decided about one order (spec 002 §5: points are whole points). */
export interface FastOrderResult {
  orderId: string;
  /** Sum of the awards, whole points. */
  totalPoints: number;
  /** Set when the whole order is out of scope (test, cancelled, voided, guest, order limit); then no program ran. */
  orderSkipped: DenyReason | null;
  /**
   * One decision per program, in evaluation order (ascending priority), as in `evaluateOrder`.
   * Denials are shared frozen objects.
   */
  decisions: readonly FastDecision[];
}

/** Programs compiled once for one store and context; evaluates any number of orders (spec 001 §4, spec 002 §9). */
export interface CompiledEvaluator {
  /** Program ids in evaluation order. */
  readonly programIds: readonly string[];
  /**
   * Decides one order, synchronously (not re-entrant: one order at a time per evaluator).
   * Throws what `evaluateOrder` would throw, where it would: RangeError for an unknown condition
   * field, an unknown timezone or an unparseable `createdAt`; RuleCatalogError for an unknown
   * operator; TypeError for points settings computePoints cannot use.
   */
  evaluate(order: OrderFacts): FastOrderResult;
}

type WindowPosition = 'before' | 'within' | 'after';
type Facts = Record<string, unknown>;
/**
 * A compiled condition, or several joined with any/all: on the order and customer facts, or
 * (given the line as `facts`) on the line fact. Classes rather than closures: a call site then
 * sees a few classes, which V8 inlines, instead of many closures, which it cannot.
 */
interface Condition {
  holds(facts: Facts, customer: Facts): boolean;
}
/** Points for the first `count` of `lines` (whole points, before limits). */
export type PointsRule = (lines: readonly OrderLine[], count: number, order: Pick<OrderFacts, 'exponent' | 'shippingMinor' | 'taxMinor'>) => number;

interface CompiledConditions {
  /** Thrown when an order reaches the conditions: evaluateOrder checks their vocabulary only then. */
  error: unknown;
  /** typeCondition `any` (else all). */
  any: boolean;
  /** The conditions on the order and customer facts, joined with any/all; null when none. */
  orderPart: Condition | null;
  /** The conditions on the line fact, joined likewise; null when none (the order then passes or fails once). */
  linePart: Condition | null;
  /** typeProductMatch `all`: every eligible line must pass (else one is enough). */
  everyLine: boolean;
}

interface CompiledProgram {
  id: string;
  settings: PlaceOrderProgram;
  active: boolean;
  /** Index among the dated programs (see StoreDays); -1 without a start or end date. */
  windowIndex: number;
  /** What eligibilityDenial said about `context.customer`: denied, or the error it threw. */
  customerDenied: boolean;
  customerError: unknown;
  excludePos: boolean;
  excludeOnline: boolean;
  excludeStoreCredit: boolean;
  hasLimit: boolean;
  eligible: (line: OrderLine) => boolean;
  /** Programs with the same eligibility settings share one scan of an order's lines (see ELIGIBILITY_FIELDS). */
  eligibilityGroup: number;
  conditions: CompiledConditions | null;
  points: PointsRule;
  stopProcessing: boolean;
  /** The program's denial for each reason (frozen: a denial carries nothing about the order). */
  deny: Readonly<Record<DenyReason, FastDecision>>;
}

const EMPTY: Facts = Object.freeze({});
const NO_ERROR = Symbol('no error');

/**
 * Compiles place-order programs for bulk evaluation; the programs' data is read now, so do not
 * change it while the evaluator is in use.
 * @param programs `earning.place_order` documents, as for `evaluateOrder` (any status).
 * @param context as for `evaluateOrder`, for every order: the store timezone (IANA), and when
 *   set, the fallback instant `at`, the customer profile, the limit history and the allowance.
 * @returns an evaluator whose decisions have `evaluateOrder(programs, order, context)`'s
 *   outcome, points and reason for every program. Compiling does not throw for bad rule data:
 *   `evaluate` throws it when an order reaches it, as `evaluateOrder` does.
 * @example compilePrograms(docs, { timeZone: 'America/New_York' }).evaluate(order).totalPoints
 */
export function compilePrograms(programs: readonly StoredDocument[], context: EarningContext): CompiledEvaluator {
  const sorted = [...programs].sort(compareProgramPriority);
  const dated: PlaceOrderProgram[] = [];
  const groups = new Map<string, number>();
  const compiled = sorted.map((doc) => compileProgram(doc, context, dated, groups));
  // Per eligibility group: the current order's eligible lines, and which order they belong to.
  const groupLines = [...groups.keys()].map((): OrderLine[] => []);
  const groupCount = groupLines.map(() => 0);
  const groupOrder = groupLines.map(() => -1);
  let orderNumber = 0;
  /** How many of `order`'s lines program `p` may count; they are in groupLines[p.eligibilityGroup]. */
  const eligibleCount = (p: CompiledProgram, order: OrderFacts): number => {
    const g = p.eligibilityGroup;
    if (groupOrder[g] === orderNumber) return groupCount[g] as number;
    const found = groupLines[g] as OrderLine[];
    let count = 0;
    for (const line of order.lines) if (p.eligible(line)) found[count++] = line;
    groupOrder[g] = orderNumber;
    groupCount[g] = count;
    return count;
  };
  const days = new StoreDays(context.timeZone, dated);
  const skips = [...ORDER_SKIP, { test: () => Boolean(context.allowance?.disabled), reason: 'order_limit_reached' as const }];
  const skipped = new Map(skips.map((s) => [s.reason, Object.freeze(compiled.map((p) => p.deny[s.reason]))]));
  const history = context.history ?? [];
  // One order's lines and per-line results; evaluate is synchronous, so one buffer serves all orders.
  const lines: OrderLine[] = [];
  const passed: boolean[] = [];

  /** Program `p` on `order` after its status and date window: a denial, or the points before limits. */
  const decide = (p: CompiledProgram, order: OrderFacts, orderFacts: Facts, customer: Facts): FastDecision | number => {
    if (p.customerError !== NO_ERROR) throw p.customerError;
    if (p.customerDenied) return p.deny.customer_not_eligible;
    if (order.sourceName === 'pos' ? p.excludePos : p.excludeOnline) return p.deny.excluded_sales_channel;
    let count = eligibleCount(p, order);
    if (count === 0) return p.deny.no_eligible_lines;
    let counted = groupLines[p.eligibilityGroup] as OrderLine[];
    const c = p.conditions;
    if (c !== null) {
      if (c.error !== NO_ERROR) throw c.error;
      const orderMet = c.orderPart === null ? !c.any : c.orderPart.holds(orderFacts, customer);
      // With `any`, a met order part passes every line, and with `all` an unmet one fails them
      // all; otherwise the line part decides, line by line.
      if (c.linePart === null || orderMet === c.any) {
        if (!orderMet) return p.deny.conditions_not_met;
      } else {
        for (let i = 0; i < count; i++) lines[i] = counted[i] as OrderLine;
        count = linesMeeting(c.linePart, c.everyLine, lines, passed, count);
        if (count === 0) return p.deny.conditions_not_met;
        counted = lines;
      }
    }
    if (!p.excludeStoreCredit) return p.points(counted, count, order);
    const credited = withoutStoreCredit(counted.slice(0, count), order.storeCreditMinor);
    return p.points(credited, credited.length, order);
  };

  return {
    programIds: compiled.map((p) => p.id),
    evaluate(order: OrderFacts): FastOrderResult {
      for (const s of skips) {
        if (s.test(order)) return { orderId: order.id, totalPoints: 0, orderSkipped: s.reason, decisions: skipped.get(s.reason) ?? [] };
      }
      const decisions = new Array<FastDecision>(compiled.length);
      orderNumber++;
      let ms = NaN;
      let positions: readonly WindowPosition[] | null = null;
      let orderFacts: Facts | null = null;
      const customer = (order.customer ?? EMPTY) as unknown as Facts;
      let total = 0;
      let stopped = false;
      for (let i = 0; i < compiled.length; i++) {
        const p = compiled[i] as CompiledProgram;
        let decision: FastDecision | number;
        if (stopped) decision = p.deny.stopped_by_priority;
        else if (!p.active) decision = p.deny.program_inactive;
        else {
          if (Number.isNaN(ms)) {
            ms = order.createdAt ? parseInstant(order.createdAt) : (context.at ?? new Date()).getTime();
            if (!days.valid || !Number.isFinite(ms)) days.exact(new Date(ms));
          }
          let position: WindowPosition | null | undefined = 'within';
          if (p.windowIndex >= 0) {
            position = days.certain(p.windowIndex, ms);
            if (position === null) position = (positions ??= days.exact(new Date(ms)))[p.windowIndex];
          }
          if (position === 'before') decision = p.deny.not_started;
          else if (position === 'after') decision = p.deny.ended;
          else decision = decide(p, order, (orderFacts ??= orderConditionFact(order) as unknown as Facts), customer);
        }
        if (typeof decision === 'number') {
          const limit = decision <= 0 || !p.hasLimit ? null : applyLimit(p.settings, p.id, history, decision, new Date(ms), context.timeZone);
          if (decision <= 0) decision = p.deny.zero_points;
          else if (limit !== null && !limit.allowed) decision = p.deny.limit_reached;
          else {
            const points = limit === null ? decision : limit.points;
            total += points;
            decision = { programId: p.id, outcome: 'award', points, reason: null };
            if (p.stopProcessing) stopped = true;
          }
        }
        decisions[i] = decision;
      }
      return { orderId: order.id, totalPoints: total, orderSkipped: null, decisions };
    },
  };
}

/**
 * The program settings `lineEligibility` (engine/earning.ts) reads. Programs with the same values
 * of these get the same eligible lines, whatever lineEligibility does with them;
 * tests/unit/fast-path.test.ts checks that it reads nothing else.
 */
export const ELIGIBILITY_FIELDS = ['includeProducts', 'excludeProducts', 'appliedPlaceOrderTo', 'excludeGiftCard', 'excludeFreeGift'] as const;

/** The values of ELIGIBILITY_FIELDS as a key: equal keys mean equal values (undefined, null, NaN, 1 and "1" all differ). */
function eligibilityKey(program: PlaceOrderProgram): string {
  return ELIGIBILITY_FIELDS.map((field) => {
    const value: unknown = program[field];
    return typeof value === 'object' && value !== null ? `o${JSON.stringify(value)}` : `${typeof value}:${String(value)}`;
  }).join('\u0000');
}

/**
 * What of a program does not depend on the order, worked out once. `dated` collects dated
 * programs; `groups` numbers the distinct eligibility keys.
 */
function compileProgram(doc: StoredDocument, context: EarningContext, dated: PlaceOrderProgram[], groups: Map<string, number>): CompiledProgram {
  const program: PlaceOrderProgram = kindData(doc, 'earning.place_order');
  const key = eligibilityKey(program);
  if (!groups.has(key)) groups.set(key, groups.size);
  const hasWindow = Boolean(program.startDate) || Boolean(program.endDate);
  if (hasWindow) dated.push(program);
  let customerDenied = false;
  let customerError: unknown = NO_ERROR;
  try {
    customerDenied = context.customer ? eligibilityDenial(context.customer, program.customerEligibility, program.eligibleTiers) !== null : false;
  } catch (error) {
    customerError = error;
  }
  return {
    id: doc.id,
    settings: program,
    active: Boolean(program.status),
    windowIndex: hasWindow ? dated.length - 1 : -1,
    customerDenied,
    customerError,
    excludePos: Boolean(program.excludePOSOrderProducts),
    excludeOnline: Boolean(program.excludeOSOrderProducts),
    excludeStoreCredit: Boolean(program.excludeStoreCredit),
    hasLimit: Boolean(program.hasLimit),
    eligible: lineEligibility(program),
    eligibilityGroup: groups.get(key) as number,
    conditions: program.statusUseCondition && (program.conditions ?? []).length > 0 ? compileConditions(program) : null,
    points: compilePoints(earnRateOf(program)),
    stopProcessing: Boolean(program.stopProcessing),
    deny: denials(doc.id),
  };
}

/**
 * Every reason evaluateOrder can give. A Record over DenyReason, so that the compiler names any
 * reason earning.ts adds and this list lacks; its keys give each program's denials one shape.
 */
const DENY_REASONS: Record<DenyReason, true> = {
  test_order: true, cancelled_order: true, voided_order: true, guest_order: true, currency_mismatch: true, order_limit_reached: true,
  program_inactive: true, not_started: true, ended: true, customer_not_eligible: true, limit_reached: true,
  excluded_sales_channel: true, no_eligible_lines: true, conditions_not_met: true, zero_points: true, stopped_by_priority: true,
};

function denials(programId: string): Record<DenyReason, FastDecision> {
  const out = {} as Record<DenyReason, FastDecision>;
  for (const reason of Object.keys(DENY_REASONS) as DenyReason[]) out[reason] = Object.freeze({ programId, outcome: 'deny', points: 0, reason });
  return out;
}

/**
 * Keeps, in place, those of the first `count` lines that pass `test`; returns how many are kept,
 * 0 when typeProductMatch is not met. As in evaluateOrder, lines are kept by position, so two
 * lines that share an id are judged each on its own.
 */
function linesMeeting(test: Condition, everyLine: boolean, lines: OrderLine[], passed: boolean[], count: number): number {
  let passes = 0;
  for (let i = 0; i < count; i++) if ((passed[i] = test.holds(lines[i] as unknown as Facts, EMPTY))) passes++;
  if (passes === count) return count;
  if (passes === 0 || everyLine) return 0;
  let kept = 0;
  for (let i = 0; i < count; i++) if (passed[i]) lines[kept++] = lines[i] as OrderLine;
  return kept;
}

/**
 * Compiles a program's conditions (spec 001 §3 conditions, typeCondition, typeProductMatch):
 * each condition's field is looked up in the fact catalog and its operator in the operator
 * catalog once. Conditions on the order and customer facts are split from those on the line
 * fact so that they run once per order: any/all over pure conditions may be regrouped.
 */
function compileConditions(program: PlaceOrderProgram): CompiledConditions {
  const conditions = program.conditions ?? [];
  const any = program.typeCondition === 'any';
  const everyLine = program.typeProductMatch === 'all';
  try {
    assertConditionFields(conditions);
    const rule = conditionsRule(program);
    assertRuleVocabulary(rule, KNOWN_FACTS, rule.name ?? 'rule');
  } catch (error) {
    return { error, any, orderPart: null, linePart: null, everyLine };
  }
  const lineTests: Condition[] = [];
  const orderTests: Condition[] = [];
  for (const c of conditions) {
    const fact = FACTS.get(c.field);
    const op = OPERATORS_BY_NAME.get(c.typeMatch);
    if (!fact || !op) throw new Error(`fast-path: "${c.field} ${c.typeMatch}" passed the vocabulary check but is not in the catalogs`);
    const remembered = new Remembered(op, c.content ?? '', fact.path, fact.fact === 'customer');
    (fact.fact === 'line' ? lineTests : orderTests).push(MONOTONE_OPERATORS.has(op.name) ? new Bracketed(remembered) : remembered);
  }
  return { error: NO_ERROR, any, orderPart: combine(orderTests, any), linePart: combine(lineTests, any), everyLine };
}

/** Conditions joined with any (one holds) or all (every one holds); null for none. */
function combine(conditions: Condition[], any: boolean): Condition | null {
  if (conditions.length <= 1) return conditions[0] ?? null;
  return any ? new AnyOf(conditions) : new AllOf(conditions);
}

class AllOf implements Condition {
  constructor(private readonly parts: readonly Condition[]) {}
  holds(facts: Facts, customer: Facts): boolean {
    for (const part of this.parts) if (!part.holds(facts, customer)) return false;
    return true;
  }
}

class AnyOf implements Condition {
  constructor(private readonly parts: readonly Condition[]) {}
  holds(facts: Facts, customer: Facts): boolean {
    for (const part of this.parts) if (part.holds(facts, customer)) return true;
    return false;
  }
}

/** Most distinct fact values remembered per condition; beyond that the operator is simply called. */
const REMEMBER_LIMIT = 4096;

interface ListNode {
  result: boolean | undefined;
  next: Map<unknown, ListNode> | undefined;
}

/**
 * A reader of one fact path. A closure per known path lets V8 compile a plain property load for
 * each condition instead of a keyed load by name over every fact shape; unknown paths are read by
 * name.
 */
function reader(path: string, ofCustomer: boolean): (facts: Facts, customer: Facts) => unknown {
  const known = READERS[path];
  if (known) return ofCustomer ? (_facts, customer) => known(customer) : (facts) => known(facts);
  return ofCustomer ? (_facts, customer) => customer[path] : (facts) => facts[path];
}

/** Property readers for the paths of the fact catalog (rules/facts.json); a test checks they cover it. */
export const READERS: Readonly<Record<string, (f: Facts) => unknown>> = {
  title: (f) => f.title,
  vendor: (f) => f.vendor,
  productType: (f) => f.productType,
  tags: (f) => f.tags,
  sku: (f) => f.sku,
  productId: (f) => f.productId,
  price: (f) => f.price,
  collectionIds: (f) => f.collectionIds,
  subtotalPrice: (f) => f.subtotalPrice,
  totalPrice: (f) => f.totalPrice,
  itemCount: (f) => f.itemCount,
  discountCodes: (f) => f.discountCodes,
  sourceName: (f) => f.sourceName,
  email: (f) => f.email,
  ordersCount: (f) => f.ordersCount,
  totalSpent: (f) => f.totalSpent,
};

/** A primitive that a Map tells apart exactly as the operators can (-0 is not 0 for `Object.is`). */
const isKey = (v: unknown): boolean => typeof v === 'string' || typeof v === 'boolean' || v === undefined || v === null || (typeof v === 'number' && !Object.is(v, -0));

/**
 * The condition `facts[path] <op> value` (`customer[path]` for a customer fact) with the
 * operator's answer remembered per distinct fact value: a string, number, boolean or missing
 * value, or a list of those (tags, collection ids, discount codes; remembered by its elements, in
 * order). Exact because operators are pure functions of their two arguments
 * (rules/operators/types.ts); other values go to the operator every time, and so does every new
 * value once REMEMBER_LIMIT values are remembered.
 */
class Remembered implements Condition {
  private readonly scalars = new Map<unknown, boolean>();
  private readonly lists: ListNode = { result: undefined, next: undefined };
  private size = 0;

  constructor(
    readonly op: OperatorDefinition,
    readonly value: unknown,
    readonly path: string,
    readonly ofCustomer: boolean,
  ) {
    this.read = reader(path, ofCustomer);
  }

  /** Reads this condition's fact: a property load compiled for its path (see `reader`). */
  readonly read: (facts: Facts, customer: Facts) => unknown;

  holds(facts: Facts, customer: Facts): boolean {
    const fact = this.read(facts, customer);
    if (Array.isArray(fact)) return this.list(fact);
    return this.scalars.get(fact) ?? this.scalar(fact);
  }

  private scalar(fact: unknown): boolean {
    const result = this.op.evaluate(fact, this.value);
    if (this.size < REMEMBER_LIMIT && isKey(fact)) {
      this.scalars.set(fact, result);
      this.size++;
    }
    return result;
  }

  private list(fact: readonly unknown[]): boolean {
    if (fact.length === 1) {
      const known = this.lists.next?.get(fact[0])?.result;
      if (known !== undefined) return known;
    }
    let node = this.lists;
    for (let i = 0; i < fact.length; i++) {
      const element = fact[i];
      let child = node.next?.get(element);
      if (child === undefined) {
        if (this.size >= REMEMBER_LIMIT || !isKey(element)) return this.op.evaluate(fact, this.value);
        child = { result: undefined, next: undefined };
        (node.next ??= new Map()).set(element, child);
        this.size++;
      }
      node = child;
    }
    return (node.result ??= this.op.evaluate(fact, this.value));
  }
}

/**
 * The ordering operators of spec 001 §3, whose answer for a number fact is monotone in the
 * number (for a fixed condition value): between two numbers with the same answer, every number
 * has that answer too. tests/unit/fast-path.test.ts checks this of each, and that each is in the
 * operator catalog.
 */
export const MONOTONE_OPERATORS: ReadonlySet<string> = new Set(['greater_than', 'greater_than_or_equal_to', 'less_than', 'less_than_or_equal_to']);

/**
 * A condition with a monotone operator (MONOTONE_OPERATORS): for a number fact, the answer comes
 * from the ranges of numbers already known to pass and to fail ([lowest, highest] of each), which
 * is exact for a monotone operator and needs neither a lookup per distinct number (order totals
 * hardly repeat) nor memory per number. Other numbers and values are `Remembered`.
 */
class Bracketed implements Condition {
  private lowestTrue = Infinity;
  private highestTrue = -Infinity;
  private lowestFalse = Infinity;
  private highestFalse = -Infinity;

  constructor(private readonly other: Remembered) {}

  holds(facts: Facts, customer: Facts): boolean {
    const fact = this.other.read(facts, customer);
    if (typeof fact === 'number') {
      if (fact >= this.lowestTrue && fact <= this.highestTrue) return true;
      if (fact >= this.lowestFalse && fact <= this.highestFalse) return false;
      if (Number.isFinite(fact)) return this.learn(fact);
    }
    return this.other.holds(facts, customer);
  }

  private learn(fact: number): boolean {
    const result = this.other.op.evaluate(fact, this.other.value);
    if (result) {
      this.lowestTrue = Math.min(this.lowestTrue, fact);
      this.highestTrue = Math.max(this.highestTrue, fact);
    } else {
      this.lowestFalse = Math.min(this.lowestFalse, fact);
      this.highestFalse = Math.max(this.highestFalse, fact);
    }
    return result;
  }
}

/**
 * The points of `computePoints` (engine/points.ts; spec 001 §3 earnBy, earnPoint, rateMoney,
 * rateItem, roundingMethod, earnPointShippingFee, earnPointTax) without the explanation it
 * builds, whose number formatting costs more than the arithmetic: the same primitives
 * (moneyRate, scaledProduct, roundFraction) in the same order, with the money rate remembered per
 * currency exponent. An earnBy computePoints does not know goes to computePoints, to fail alike.
 * tests/unit/fast-path.test.ts compares the two directly.
 * @returns points for the first `count` lines (whole points)
 */
export function compilePoints(rate: EarnRate): PointsRule {
  const rule = compileUncappedPoints(rate);
  return (lines, count, order) => capPoints(rule(lines, count, order));
}

function compileUncappedPoints(rate: EarnRate): PointsRule {
  const { earnPoint, roundingMethod } = rate;
  let exponent = NaN;
  let money = { scale: 1, units: 1 };
  // computePoints works out the money rate for every earnBy, so a rateMoney it rejects fails here too.
  const moneyAt = (e: number) => {
    if (e !== exponent) {
      money = moneyRate(rate.rateMoney, e);
      exponent = e;
    }
    return money;
  };
  switch (rate.earnBy) {
    case 'fixed_order':
      return (_lines, count, order) => {
        moneyAt(order.exponent);
        return count > 0 ? earnPoint : 0;
      };
    case 'quantity': {
      const denominator = Math.max(1, rate.rateItem);
      return (lines, count, order) => {
        moneyAt(order.exponent);
        let items = 0;
        for (let i = 0; i < count; i++) items += (lines[i] as OrderLine).quantity;
        return roundFraction(items * earnPoint, denominator, roundingMethod);
      };
    }
    case 'price':
      return (lines, count, order) => {
        const { scale, units } = moneyAt(order.exponent);
        let amount = 0;
        let points = 0;
        for (let i = 0; i < count; i++) {
          const amountMinor = (lines[i] as OrderLine).amountMinor;
          amount += amountMinor;
          points += roundFraction(scaledProduct(amountMinor, earnPoint, scale), units, roundingMethod);
        }
        scaledProduct(amount, earnPoint, scale); // computePoints's explanation: it throws where this throws
        return points;
      };
    case 'order':
      return (lines, count, order) => {
        const { scale, units } = moneyAt(order.exponent);
        const shippingMinor = rate.earnPointShippingFee ? order.shippingMinor : 0;
        const taxMinor = rate.earnPointTax ? order.taxMinor : 0;
        let amount = 0;
        for (let i = 0; i < count; i++) amount += (lines[i] as OrderLine).amountMinor;
        amount += count > 0 ? shippingMinor + taxMinor : 0;
        return roundFraction(scaledProduct(amount, earnPoint, scale), units, roundingMethod);
      };
    default:
      return (lines, count, order) => computePoints(rate, lines.slice(0, count), order, order.exponent).points;
  }
}

const DAY = 86_400_000;

/** Days since 1970-01-01 of a proleptic Gregorian date (H. Hinnant's days_from_civil). */
function daysFromCivil(year: number, month: number, day: number): number {
  const y = month <= 2 ? year - 1 : year;
  const era = Math.floor(y / 400);
  const yearOfEra = y - era * 400;
  const dayOfYear = Math.floor((153 * (month + (month > 2 ? -3 : 9)) + 2) / 5) + day - 1;
  return era * 146_097 + yearOfEra * 365 + Math.floor(yearOfEra / 4) - Math.floor(yearOfEra / 100) + dayOfYear - 719_468;
}

const digit = (text: string, at: number): number => text.charCodeAt(at) - 48;
const pair = (text: string, at: number): number => {
  const tens = digit(text, at);
  const ones = digit(text, at + 1);
  return tens >= 0 && tens <= 9 && ones >= 0 && ones <= 9 ? tens * 10 + ones : NaN;
};

/**
 * `Date.parse(text)`: epoch milliseconds, NaN when invalid. Reads the platform's `created_at`
 * (`2026-03-08T01:30:00-05:00`, `2026-03-08T06:30:00.000Z`; spec 002 §9 dates follow the moment
 * the order was placed) without the general parser, which costs more than deciding a program:
 * only a full date-time with seconds, optional milliseconds and `Z` or a `±HH:MM` offset, every
 * field in range, is read here; anything else goes to Date.parse.
 */
export function parseInstant(text: string): number {
  const n = text.length;
  const millis = n === 24 || n === 29;
  if (!(n === 20 || n === 25 || millis) || text[4] !== '-' || text[7] !== '-' || text[10] !== 'T' || text[13] !== ':' || text[16] !== ':') return Date.parse(text);
  const year = pair(text, 0) * 100 + pair(text, 2);
  const month = pair(text, 5);
  const day = pair(text, 8);
  const hour = pair(text, 11);
  const minute = pair(text, 14);
  const second = pair(text, 17);
  let at = 19;
  let ms = 0;
  if (millis) {
    const hundreds = digit(text, 20);
    ms = text[19] === '.' && hundreds >= 0 && hundreds <= 9 ? hundreds * 100 + pair(text, 21) : NaN;
    at = 23;
  }
  let offset = 0;
  if (text[at] !== 'Z' || at + 1 !== n) {
    const sign = text[at] === '+' ? 1 : text[at] === '-' ? -1 : NaN;
    const hours = pair(text, at + 1);
    const minutes = pair(text, at + 4);
    offset = text[at + 3] === ':' && at + 6 === n && hours <= 23 && minutes <= 59 ? sign * (hours * 60 + minutes) : NaN;
  }
  const monthDays = month === 2 ? (year % 4 === 0 && (year % 100 !== 0 || year % 400 === 0) ? 29 : 28) : 30 + ((month + (month >> 3)) & 1);
  if (!(month >= 1 && month <= 12 && day >= 1 && day <= monthDays && hour <= 23 && minute <= 59 && second <= 59 && ms >= 0 && Number.isFinite(offset))) return Date.parse(text);
  return daysFromCivil(year, month, day) * DAY + ((hour * 60 + minute - offset) * 60 + second) * 1000 + ms;
}

/**
 * No timezone's UTC offset has ever reached 16 hours: tzdb's largest is Asia/Manila's local mean
 * time until 1844, -15:56 (checked against every zone Intl knows, 1600–2100).
 */
const MAX_OFFSET = 16 * 3_600_000;
/** Store-local days from 1001-01-01 to 9998-12-31 print as YYYY-MM-DD (localDate's format). */
const FIRST_DAY = Date.UTC(1001, 0, 1) / DAY;
const LAST_DAY = Date.UTC(9998, 11, 31) / DAY;

/** A window bound as a UTC day number; null when absent (no bound); NaN when not an existing YYYY-MM-DD date. */
function boundDay(date: unknown): number | null {
  if (!date) return null;
  if (typeof date !== 'string' || !/^\d{4}-\d{2}-\d{2}$/.test(date)) return NaN;
  const ms = Date.parse(`${date}T00:00:00Z`);
  return Number.isFinite(ms) && new Date(ms).toISOString().startsWith(date) ? ms / DAY : NaN;
}

/**
 * Window positions of the dated programs (spec 002 §9: start and end dates are store-local
 * calendar dates, both inclusive). Formatting an instant in a timezone costs about a microsecond,
 * so a position is first decided from the instant alone: every zone's UTC offset is under 16
 * hours (MAX_OFFSET), so an instant more than 16 hours away from a bound's UTC midnight is on a
 * known side of it in every zone. Instants nearer a bound get `windowPosition` itself,
 * remembered per store-local date.
 */
class StoreDays {
  /** Start and end of each dated program, as boundDay gives them. */
  private readonly starts: readonly (number | null)[];
  private readonly ends: readonly (number | null)[];
  private readonly byDate = new Map<string, readonly WindowPosition[]>();
  /** False for an unknown timezone: then `exact` throws for every order, as evaluateOrder does. */
  readonly valid: boolean;

  constructor(
    private readonly timeZone: string,
    private readonly programs: readonly PlaceOrderProgram[],
  ) {
    this.starts = programs.map((p) => boundDay(p.startDate));
    this.ends = programs.map((p) => boundDay(p.endDate));
    let valid = true;
    try {
      localDate(new Date(0), timeZone);
    } catch {
      valid = false;
    }
    this.valid = valid;
  }

  /** Where dated program `index` stands at `ms` (a valid instant), or null when only the store-local date can tell. */
  certain(index: number, ms: number): WindowPosition | null {
    const start = this.starts[index];
    const end = this.ends[index];
    // The earliest and latest store-local day the instant can fall on, whatever the zone.
    const earliest = Math.floor((ms - MAX_OFFSET) / DAY);
    const latest = Math.floor((ms + MAX_OFFSET) / DAY);
    if (start === undefined || end === undefined || Number.isNaN(start) || Number.isNaN(end) || earliest < FIRST_DAY || latest > LAST_DAY) return null;
    if (start !== null) {
      if (latest < start) return 'before';
      if (earliest < start) return null;
    }
    if (end === null) return 'within';
    if (earliest > end) return 'after';
    return latest <= end ? 'within' : null;
  }

  /**
   * Positions of all dated programs at an instant, from `windowPosition`, remembered per
   * store-local date. Throws its RangeError for an unknown timezone or an invalid instant.
   */
  exact(instant: Date): readonly WindowPosition[] {
    const date = localDate(instant, this.timeZone);
    let positions = this.byDate.get(date);
    if (!positions) {
      positions = this.programs.map((p) => windowPosition(instant, this.timeZone, p.startDate, p.endDate));
      this.byDate.set(date, positions);
    }
    return positions;
  }
}
