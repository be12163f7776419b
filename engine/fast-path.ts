/**
 * Fast path for bulk place-order evaluation (spec 001 §3 Program, §4 Programs; spec 002 §5, §9):
 * replays many orders, such as a shop's past orders, through a set of programs, for example to
 * preview what a draft program would have awarded. It compiles the rule data `evaluateOrder`
 * (engine/earning.ts) hands to json-rules-engine into plain synchronous closures once, then
 * decides each order exactly as `evaluateOrder` does: same order-level skips, priority order and
 * stopProcessing, status, store-timezone date window, sales channel, eligible lines, conditions
 * (typeCondition, typeProductMatch), points and zero_points. It returns the decisions without
 * their explanations; `evaluateOrder` stays the source of truth and explains single orders.
 *
 * Where the time goes, and what compiling saves:
 * - Conditions: each one is looked up in the fact catalog (rules/facts.json) and the operator
 *   catalog (rules/operators) once, and its operator's answer is remembered per distinct fact
 *   value (vendors, tags, prices repeat across orders). Operators are pure, so this is exact.
 *   Conditions on the order or customer are decided once per order, not once per line.
 * - Date windows: decided from the UTC day unless the order is within a day of a bound (see StoreDays).
 * - Points: the arithmetic of `computePoints` without its explanation strings.
 *
 * tests/unit/fast-path.test.ts compares both paths on random programs and orders.
 */
import { OPERATORS_BY_NAME, type OperatorDefinition } from '../rules/operators/index';
import {
  assertConditionFields,
  compareProgramPriority,
  conditionsRule,
  KNOWN_FACTS,
  lineEligibility,
  ORDER_SKIP,
  orderConditionFact,
  type DenyReason,
  type EarningContext,
  type PlaceOrderProgram,
} from './earning';
import { computePoints, roundFraction, type EarnRate } from './points';
import { assertRuleVocabulary, FACTS } from './rules-engine';
import { localDate, windowPosition } from './store-time';
import type { OrderFacts, OrderLine } from './order';
import type { StoredDocument } from './types';

/** One program's decision about one order: `evaluateOrder`'s decision without the explanation. */
export interface FastDecision {
  readonly programId: string;
  readonly outcome: 'award' | 'deny';
  /** Whole points awarded; 0 when denied. */
  readonly points: number;
  /** Why the program did not award; null for an award. */
  readonly reason: DenyReason | null;
}

/** Everything the fast path decided about one order. */
export interface FastOrderResult {
  orderId: string;
  /** Sum of the awards, whole points. */
  totalPoints: number;
  /** Set when the whole order is out of scope (test, cancelled, voided, guest); then no program ran. */
  orderSkipped: DenyReason | null;
  /**
   * One decision per program, in evaluation order (ascending priority), as in `evaluateOrder`.
   * Denials are shared frozen objects.
   */
  decisions: readonly FastDecision[];
}

/** Programs compiled once for one store; evaluates any number of orders. */
export interface CompiledEvaluator {
  /** Program ids in evaluation order. */
  readonly programIds: readonly string[];
  /**
   * Decides one order, synchronously (not re-entrant: one evaluator, one order at a time).
   * Throws what `evaluateOrder` would throw, at the same point: RangeError for an unknown
   * condition field, an unknown timezone or an unparseable `createdAt`; RuleCatalogError for an
   * unknown operator.
   */
  evaluate(order: OrderFacts): FastOrderResult;
}

type WindowPosition = 'before' | 'within' | 'after';
type Facts = Record<string, unknown>;
/** A condition (or several, combined) on the line fact; `_unused` keeps one shape with OrderTest. */
type LineTest = (line: Facts, _unused: Facts) => boolean;
/** A condition (or several, combined) on the order and customer facts. */
type OrderTest = (order: Facts, customer: Facts) => boolean;
/** Points for the first `count` lines of `lines` (whole points). */
type PointsRule = (lines: readonly OrderLine[], count: number, order: OrderFacts) => number;

interface CompiledConditions {
  /** Thrown when an order reaches the conditions: evaluateOrder checks their vocabulary only then. */
  error: unknown;
  /** typeCondition `any` (else all). */
  any: boolean;
  /** The conditions on the order and customer facts, combined with any/all; null when none. */
  orderPart: OrderTest | null;
  /** The conditions on the line fact; null when none (then the whole order passes or fails once). */
  linePart: LineTest | null;
  /** typeProductMatch `all`: every eligible line must pass (else one is enough). */
  everyLine: boolean;
}

interface CompiledProgram {
  id: string;
  active: boolean;
  /** Index into the window positions of dated programs; -1 when the program has no start or end date. */
  windowIndex: number;
  excludePos: boolean;
  excludeOnline: boolean;
  eligible: (line: OrderLine) => boolean;
  conditions: CompiledConditions | null;
  points: PointsRule;
  stopProcessing: boolean;
  deny: Readonly<Record<DenyReason, FastDecision>>;
}

const DENY_REASONS: readonly DenyReason[] = [
  'program_inactive', 'not_started', 'ended', 'test_order', 'cancelled_order', 'voided_order', 'guest_order',
  'excluded_sales_channel', 'no_eligible_lines', 'conditions_not_met', 'zero_points', 'stopped_by_priority',
];

const EMPTY: Facts = Object.freeze({});

/**
 * Compiles place-order programs for bulk evaluation. The programs' data is read now: do not
 * change it while the evaluator is in use.
 * @param programs `earning.place_order` documents, as for `evaluateOrder` (any status).
 * @param context the store timezone (IANA); `at`, when set, is the instant of every order,
 *   otherwise each order's `createdAt` is.
 * @returns an evaluator whose decisions equal `evaluateOrder(programs, order, context)`'s
 *   outcome, points and reason for every program. Compiling never throws for bad rule data:
 *   `evaluate` throws it when an order reaches it, as `evaluateOrder` does.
 * @example compilePrograms(docs, { timeZone: 'America/New_York' }).evaluate(order).totalPoints
 */
export function compilePrograms(programs: readonly StoredDocument[], context: EarningContext): CompiledEvaluator {
  const sorted = [...programs].sort(compareProgramPriority);
  const dated: PlaceOrderProgram[] = [];
  const compiled = sorted.map((doc): CompiledProgram => {
    const program = doc.data as unknown as PlaceOrderProgram;
    const hasWindow = Boolean(program.startDate) || Boolean(program.endDate);
    if (hasWindow) dated.push(program);
    return {
      id: doc.id,
      active: Boolean(program.status),
      windowIndex: hasWindow ? dated.length - 1 : -1,
      excludePos: Boolean(program.excludePOSOrderProducts),
      excludeOnline: Boolean(program.excludeOSOrderProducts),
      eligible: lineEligibility(program),
      conditions: program.statusUseCondition && (program.conditions ?? []).length > 0 ? compileConditions(program) : null,
      points: compilePoints({
        earnBy: program.earnBy,
        earnPoint: program.earnPoint,
        rateMoney: program.rateMoney,
        rateItem: program.rateItem,
        roundingMethod: program.roundingMethod,
        earnPointShippingFee: program.earnPointShippingFee === true,
        earnPointTax: program.earnPointTax === true,
      }),
      stopProcessing: Boolean(program.stopProcessing),
      deny: denials(doc.id),
    };
  });
  const days = new StoreDays(context.timeZone, dated);
  const skipped = new Map(ORDER_SKIP.map((s) => [s.reason, Object.freeze(compiled.map((p) => p.deny[s.reason]))]));
  const at = context.at;
  // Scratch space for one order's lines; evaluate is synchronous, so one buffer serves all orders.
  const lines: OrderLine[] = [];
  const passed: boolean[] = [];

  /** How program `p` decides `order` (lines and window already known): a decision, or its points. */
  const decide = (p: CompiledProgram, order: OrderFacts, orderFacts: Facts, customer: Facts): FastDecision | number => {
    if (order.sourceName === 'pos' ? p.excludePos : p.excludeOnline) return p.deny.excluded_sales_channel;
    const c = p.conditions;
    // Conditions are pure, so they may run before the lines are collected; only the reason
    // must stay evaluateOrder's: no eligible line comes before unmet conditions.
    const orderMet = c === null || c.orderPart === null ? c === null || !c.any : c.orderPart(orderFacts, customer);
    if (!orderMet && c !== null && (c.linePart === null || !c.any)) {
      return order.lines.some(p.eligible) ? p.deny.conditions_not_met : p.deny.no_eligible_lines;
    }
    let count = 0;
    for (const line of order.lines) if (p.eligible(line)) lines[count++] = line;
    if (count === 0) return p.deny.no_eligible_lines;
    if (c !== null) {
      if (c.error !== null) throw c.error;
      // With `any`, a met order part passes every line; with `all`, the line part decides.
      if (c.linePart !== null && orderMet !== c.any) {
        count = linesMeeting(c.linePart, c.everyLine, lines, passed, count);
        if (count === 0) return p.deny.conditions_not_met;
      }
    }
    return p.points(lines, count, order);
  };

  return {
    programIds: compiled.map((p) => p.id),
    evaluate(order: OrderFacts): FastOrderResult {
      for (const s of ORDER_SKIP) {
        if (s.test(order)) return { orderId: order.id, totalPoints: 0, orderSkipped: s.reason, decisions: skipped.get(s.reason) ?? [] };
      }
      const decisions = new Array<FastDecision>(compiled.length);
      let utcDay = NaN;
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
          if (Number.isNaN(utcDay)) {
            const ms = at ? at.getTime() : Date.parse(order.createdAt);
            if (!days.valid || !Number.isFinite(ms)) days.exact(new Date(ms));
            utcDay = Math.floor(ms / DAY);
          }
          let position: WindowPosition | null | undefined = 'within';
          if (p.windowIndex >= 0) {
            position = days.certain(p.windowIndex, utcDay);
            if (position === null) position = (positions ??= days.exact(at ?? new Date(order.createdAt)))[p.windowIndex];
          }
          if (position === 'before') decision = p.deny.not_started;
          else if (position === 'after') decision = p.deny.ended;
          else decision = decide(p, order, (orderFacts ??= orderConditionFact(order) as unknown as Facts), customer);
        }
        if (typeof decision === 'number') {
          if (decision <= 0) decision = p.deny.zero_points;
          else {
            total += decision;
            decision = { programId: p.id, outcome: 'award', points: decision, reason: null };
            if (p.stopProcessing) stopped = true;
          }
        }
        decisions[i] = decision;
      }
      return { orderId: order.id, totalPoints: total, orderSkipped: null, decisions };
    },
  };
}

/** The frozen denial of each reason for one program (a denial carries no per-order data). */
function denials(programId: string): Record<DenyReason, FastDecision> {
  const out = {} as Record<DenyReason, FastDecision>;
  for (const reason of DENY_REASONS) out[reason] = Object.freeze({ programId, outcome: 'deny', points: 0, reason });
  return out;
}

/**
 * Keeps the first `count` lines that pass `test`, in place; returns how many are kept, 0 when
 * typeProductMatch is not met. As in evaluateOrder, lines are kept by id: a failing line stays
 * when a passing line has the same id.
 */
function linesMeeting(test: LineTest, everyLine: boolean, lines: OrderLine[], passed: boolean[], count: number): number {
  let passes = 0;
  for (let i = 0; i < count; i++) if ((passed[i] = test(lines[i] as unknown as Facts, EMPTY))) passes++;
  if (passes === count) return count;
  if (passes === 0 || everyLine) return 0;
  const passedIds = new Set<string>();
  for (let i = 0; i < count; i++) if (passed[i]) passedIds.add((lines[i] as OrderLine).id);
  let kept = 0;
  for (let i = 0; i < count; i++) {
    const line = lines[i] as OrderLine;
    if (passedIds.has(line.id)) lines[kept++] = line;
  }
  return kept;
}

/**
 * Compiles a program's conditions (spec 001 §3 conditions, typeCondition, typeProductMatch):
 * each condition's field is looked up in the fact catalog and its operator in the operator
 * catalog once. The conditions on the order and customer facts are split from those on the line
 * fact, so that they run once per order: and/or over pure conditions can be regrouped freely.
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
  const lineTests: LineTest[] = [];
  const orderTests: OrderTest[] = [];
  for (const c of conditions) {
    const fact = FACTS.get(c.field);
    const op = OPERATORS_BY_NAME.get(c.typeMatch);
    if (!fact || !op) throw new Error(`fast-path: "${c.field} ${c.typeMatch}" passed the vocabulary check but is not in the catalogs`);
    const test = remembered(op, c.content ?? '', fact.path);
    if (fact.fact === 'line' || fact.fact === 'order') (fact.fact === 'line' ? lineTests : orderTests).push(test);
    else orderTests.push((_order, customer) => test(customer, EMPTY));
  }
  return { error: null, any, orderPart: combine(orderTests, any), linePart: combine(lineTests, any), everyLine };
}

/** Tests joined with any (some holds) or all (every one holds); null for none. */
function combine(tests: OrderTest[], any: boolean): OrderTest | null {
  const [first, second] = tests;
  if (first === undefined) return null;
  if (second === undefined) return first;
  if (tests.length === 2) return any ? (a, b) => first(a, b) || second(a, b) : (a, b) => first(a, b) && second(a, b);
  return any
    ? (a, b) => {
        for (const t of tests) if (t(a, b)) return true;
        return false;
      }
    : (a, b) => {
        for (const t of tests) if (!t(a, b)) return false;
        return true;
      };
}

/** Most distinct fact values remembered per condition; beyond that the operator is simply called. */
const REMEMBER_LIMIT = 4096;

interface ListNode {
  result: boolean | undefined;
  next: Map<unknown, ListNode> | undefined;
}

/** A primitive whose identity is its value for Map keys (SameValueZero), so a remembered answer is exact. */
const isKey = (v: unknown): boolean => (typeof v === 'string' || typeof v === 'boolean' || v === undefined || v === null || (typeof v === 'number' && !Object.is(v, -0)));

/**
 * The condition `<facts>[path] <op> value` with the operator's answer remembered per distinct fact
 * value: a string, number, boolean or missing value, or a list of those (tags, collection ids,
 * discount codes; remembered by its elements, in order). Exact because operators are pure
 * functions of their two arguments (rules/operators/types.ts); other values go to the operator
 * every time, and so does every new value once REMEMBER_LIMIT values are remembered.
 */
function remembered(op: OperatorDefinition, value: unknown, path: string): OrderTest {
  const scalars = new Map<unknown, boolean>();
  const lists: ListNode = { result: undefined, next: undefined };
  let size = 0;
  const list = (fact: readonly unknown[]): boolean => {
    let node = lists;
    for (const element of fact) {
      let child = node.next?.get(element);
      if (child === undefined) {
        if (size >= REMEMBER_LIMIT || !isKey(element)) return op.evaluate(fact, value);
        child = { result: undefined, next: undefined };
        (node.next ??= new Map()).set(element, child);
        size++;
      }
      node = child;
    }
    return (node.result ??= op.evaluate(fact, value));
  };
  const scalar = (fact: unknown): boolean => {
    const result = op.evaluate(fact, value);
    if (size < REMEMBER_LIMIT && isKey(fact)) {
      scalars.set(fact, result);
      size++;
    }
    return result;
  };
  return (facts) => {
    const fact = facts[path];
    if (Array.isArray(fact)) return list(fact);
    return scalars.get(fact) ?? scalar(fact);
  };
}

/**
 * The points of `computePoints` (engine/points.ts, spec 001 §3 earnBy, earnPoint, rateMoney,
 * rateItem, roundingMethod) without the explanation it builds, whose number formatting costs more
 * than the arithmetic. Same expressions, same order, same rounding (`roundFraction`); the rate in
 * minor units is remembered per currency exponent. An earnBy computePoints does not know goes to
 * computePoints, to fail the same way.
 */
function compilePoints(rate: EarnRate): PointsRule {
  const { earnPoint, roundingMethod } = rate;
  let exponent = NaN;
  let rateMinor = NaN;
  const minorRate = (e: number): number => {
    if (e !== exponent) {
      rateMinor = Math.max(1, Math.round(rate.rateMoney * 10 ** e));
      exponent = e;
    }
    return rateMinor;
  };
  switch (rate.earnBy) {
    case 'fixed_order':
      return (_lines, count) => (count > 0 ? earnPoint : 0);
    case 'quantity': {
      const denominator = Math.max(1, rate.rateItem);
      return (lines, count) => {
        let items = 0;
        for (let i = 0; i < count; i++) items += (lines[i] as OrderLine).quantity;
        return roundFraction(items * earnPoint, denominator, roundingMethod);
      };
    }
    case 'price':
      return (lines, count, order) => {
        const denominator = minorRate(order.exponent);
        let points = 0;
        for (let i = 0; i < count; i++) points += roundFraction((lines[i] as OrderLine).amountMinor * earnPoint, denominator, roundingMethod);
        return points;
      };
    case 'order':
      return (lines, count, order) => {
        const denominator = minorRate(order.exponent);
        const extra = (rate.earnPointShippingFee ? order.shippingMinor : 0) + (rate.earnPointTax ? order.taxMinor : 0);
        let amount = 0;
        for (let i = 0; i < count; i++) amount += (lines[i] as OrderLine).amountMinor;
        return roundFraction((amount + (count > 0 ? extra : 0)) * earnPoint, denominator, roundingMethod);
      };
    default:
      return (lines, count, order) => computePoints(rate, lines.slice(0, count), order, order.exponent).points;
  }
}

const DAY = 86_400_000;
/** UTC day numbers of 1001-01-02 and 9998-12-30: local dates around them still print as YYYY-MM-DD. */
const FIRST_DAY = Date.UTC(1001, 0, 2) / DAY;
const LAST_DAY = Date.UTC(9998, 11, 30) / DAY;

/** A program window bound: absent (no bound), a UTC day number, or NaN when not a plain YYYY-MM-DD date. */
function boundDay(date: unknown): number | null {
  if (!date) return null;
  if (typeof date !== 'string' || !/^\d{4}-\d{2}-\d{2}$/.test(date)) return NaN;
  const day = Date.UTC(Number(date.slice(0, 4)), Number(date.slice(5, 7)) - 1, Number(date.slice(8, 10))) / DAY;
  // Only dates that exist: "2026-02-30" compares as text in windowPosition, not as a day.
  return new Date(day * DAY).toISOString().slice(0, 10) === date ? day : NaN;
}

/**
 * Window positions of the dated programs (spec 002 §9: start and end dates are store-local
 * calendar dates, both inclusive). Formatting an instant in a timezone costs about a
 * microsecond, so positions are first decided from the UTC day alone: every zone's offset is
 * under 24 hours, so the store-local date is the UTC date, the day before or the day after, and
 * an instant more than a day away from a bound is on a known side of it. Instants near a bound
 * get the real thing: `windowPosition`, remembered per store-local date.
 */
class StoreDays {
  /** [start, end] per dated program, as for boundDay. */
  private readonly bounds: readonly (readonly [number | null, number | null])[];
  private readonly days = new Map<string, readonly WindowPosition[]>();
  /** False for an unknown timezone: then `exact` throws for every order, as evaluateOrder does. */
  readonly valid: boolean;

  constructor(
    private readonly timeZone: string,
    private readonly programs: readonly PlaceOrderProgram[],
  ) {
    this.bounds = programs.map((p) => [boundDay(p.startDate), boundDay(p.endDate)] as const);
    let valid = true;
    try {
      localDate(new Date(0), timeZone);
    } catch {
      valid = false;
    }
    this.valid = valid;
  }

  /**
   * Where dated program `index` stands on UTC day `utcDay` (an integer), or null when the
   * store-local date decides (within a day of a bound, or a bound that is not a plain date).
   */
  certain(index: number, utcDay: number): WindowPosition | null {
    const [start, end] = this.bounds[index] ?? [NaN, NaN];
    if (Number.isNaN(start) || Number.isNaN(end) || utcDay < FIRST_DAY || utcDay > LAST_DAY) return null;
    if (start !== null) {
      if (utcDay + 1 < start) return 'before';
      if (utcDay - 1 < start) return null;
    }
    if (end === null || utcDay - 1 > end) return end === null ? 'within' : 'after';
    return utcDay + 1 <= end ? 'within' : null;
  }

  /**
   * Positions of all dated programs at an instant, from `windowPosition`, remembered per
   * store-local date. Throws windowPosition's RangeError for an unknown timezone or an invalid
   * instant, even when no program is dated.
   */
  exact(instant: Date): readonly WindowPosition[] {
    const day = localDate(instant, this.timeZone);
    let positions = this.days.get(day);
    if (!positions) {
      positions = this.programs.map((p) => windowPosition(instant, this.timeZone, p.startDate, p.endDate));
      this.days.set(day, positions);
    }
    return positions;
  }
}
