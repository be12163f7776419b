/**
 * Fast path for bulk place-order evaluation (spec 001 §3 Program, §4 Programs; spec 002 §5, §9):
 * replays many orders, such as a shop's past orders, through a set of programs, for example a
 * draft program's "what would this have earned" preview. It compiles the same rule data that
 * `evaluateOrder` (engine/earning.ts) hands to json-rules-engine into plain synchronous closures
 * once, and then decides each order exactly as `evaluateOrder` does: same order-level skips,
 * priority order and stopProcessing, status, store-timezone date window, sales channel, eligible
 * lines, conditions, points and zero_points. It returns decisions without explanations; explain a
 * single order with `evaluateOrder`, which stays the source of truth.
 *
 * tests/unit/fast-path.test.ts compares the two paths on random programs and orders.
 */
import { OPERATORS_BY_NAME } from '../rules/operators/index';
import {
  assertConditionFields,
  compareProgramPriority,
  conditionsRule,
  eligibleLines,
  KNOWN_FACTS,
  ORDER_SKIP,
  orderConditionFact,
  type DenyReason,
  type EarningContext,
  type OrderConditionFact,
  type PlaceOrderProgram,
} from './earning';
import { computePoints, type EarnRate } from './points';
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
   * Denials are shared frozen objects: do not mutate.
   */
  decisions: readonly FastDecision[];
}

/** Programs compiled once for one store timezone; evaluate any number of orders with them. */
export interface CompiledEvaluator {
  /** Program ids in evaluation order. */
  readonly programIds: readonly string[];
  /**
   * Decides one order, synchronously. Throws what `evaluateOrder` would throw, when it would:
   * RangeError for an unknown condition field, an unknown timezone or an unparseable
   * `createdAt`; RuleCatalogError for an unknown operator.
   */
  evaluate(order: OrderFacts): FastOrderResult;
}

type WindowPosition = 'before' | 'within' | 'after';
type Facts = Record<string, unknown>;
/** A compiled condition (or a program's whole condition tree) over the three condition facts. */
type Predicate = (line: Facts, order: Facts, customer: Facts) => boolean;

interface CompiledConditions {
  /** Thrown when an order reaches the conditions: evaluateOrder checks the vocabulary only then. */
  error: unknown;
  test: Predicate;
  /** Any condition reads the `line` fact: conditions are checked once per eligible line. */
  perLine: boolean;
  /** typeProductMatch `all`: every eligible line must pass (else one is enough). */
  everyLine: boolean;
}

interface CompiledProgram {
  id: string;
  program: PlaceOrderProgram;
  active: boolean;
  /** Index into the per-day window positions; -1 when the program has no start or end date. */
  windowIndex: number;
  excludePos: boolean;
  excludeOnline: boolean;
  conditions: CompiledConditions | null;
  rate: EarnRate;
  stopProcessing: boolean;
  deny: Readonly<Record<DenyReason, FastDecision>>;
}

const DENY_REASONS: readonly DenyReason[] = [
  'program_inactive', 'not_started', 'ended', 'test_order', 'cancelled_order', 'voided_order', 'guest_order',
  'excluded_sales_channel', 'no_eligible_lines', 'conditions_not_met', 'zero_points', 'stopped_by_priority',
];

const EMPTY: Facts = Object.freeze({});

/**
 * Compiles place-order programs for bulk evaluation.
 * @param programs `earning.place_order` documents, as for `evaluateOrder` (any status; sorted here
 *   by priority once).
 * @param context the store timezone; `at`, when set, is the instant for every order (otherwise
 *   each order's `createdAt`).
 * @returns an evaluator whose decisions equal `evaluateOrder(programs, order, context)`'s
 *   outcome, points and reason for every program. Never throws itself: errors `evaluateOrder`
 *   would raise for bad rule data are raised by `evaluate` at the same point.
 * @example compilePrograms(docs, { timeZone: 'America/New_York' }).evaluate(order).totalPoints
 */
export function compilePrograms(programs: readonly StoredDocument[], context: EarningContext): CompiledEvaluator {
  const sorted = [...programs].sort(compareProgramPriority);
  let dated = 0;
  const compiled = sorted.map((doc): CompiledProgram => {
    const program = doc.data as unknown as PlaceOrderProgram;
    const hasWindow = Boolean(program.startDate) || Boolean(program.endDate);
    return {
      id: doc.id,
      program,
      active: Boolean(program.status),
      windowIndex: hasWindow ? dated++ : -1,
      excludePos: Boolean(program.excludePOSOrderProducts),
      excludeOnline: Boolean(program.excludeOSOrderProducts),
      conditions: program.statusUseCondition && (program.conditions ?? []).length > 0 ? compileConditions(program) : null,
      rate: {
        earnBy: program.earnBy,
        earnPoint: program.earnPoint,
        rateMoney: program.rateMoney,
        rateItem: program.rateItem,
        roundingMethod: program.roundingMethod,
        earnPointShippingFee: program.earnPointShippingFee === true,
        earnPointTax: program.earnPointTax === true,
      },
      stopProcessing: Boolean(program.stopProcessing),
      deny: denials(doc.id),
    };
  });
  const windows = new StoreDays(context.timeZone, sorted.filter((_, i) => (compiled[i]?.windowIndex ?? -1) >= 0).map((doc) => doc.data as unknown as PlaceOrderProgram));
  const skipped = new Map(ORDER_SKIP.map((s) => [s.reason, Object.freeze(compiled.map((p) => p.deny[s.reason]))]));
  const at = context.at;

  return {
    programIds: compiled.map((p) => p.id),
    evaluate(order: OrderFacts): FastOrderResult {
      for (const s of ORDER_SKIP) {
        if (s.test(order)) return { orderId: order.id, totalPoints: 0, orderSkipped: s.reason, decisions: skipped.get(s.reason) ?? [] };
      }
      const decisions: FastDecision[] = new Array<FastDecision>(compiled.length);
      let positions: readonly WindowPosition[] | null = null;
      let orderFact: OrderConditionFact | null = null;
      let total = 0;
      let stopped = false;
      for (let i = 0; i < compiled.length; i++) {
        const p = compiled[i] as CompiledProgram;
        if (stopped) {
          decisions[i] = p.deny.stopped_by_priority;
          continue;
        }
        if (!p.active) {
          decisions[i] = p.deny.program_inactive;
          continue;
        }
        positions ??= windows.positions(at ? at.getTime() : Date.parse(order.createdAt));
        const position = p.windowIndex < 0 ? 'within' : positions[p.windowIndex];
        if (position === 'before') {
          decisions[i] = p.deny.not_started;
          continue;
        }
        if (position === 'after') {
          decisions[i] = p.deny.ended;
          continue;
        }
        if (order.sourceName === 'pos' ? p.excludePos : p.excludeOnline) {
          decisions[i] = p.deny.excluded_sales_channel;
          continue;
        }
        let lines: OrderLine[] | null = eligibleLines(p.program, order);
        if (lines.length === 0) {
          decisions[i] = p.deny.no_eligible_lines;
          continue;
        }
        const c = p.conditions;
        if (c !== null) {
          if (c.error !== null) throw c.error;
          orderFact ??= orderConditionFact(order);
          const of = orderFact as unknown as Facts;
          const customer = (order.customer ?? EMPTY) as unknown as Facts;
          if (c.perLine) lines = linesMeeting(c, lines, of, customer);
          else if (!c.test(EMPTY, of, customer)) lines = null;
          if (lines === null) {
            decisions[i] = p.deny.conditions_not_met;
            continue;
          }
        }
        const points = computePoints(p.rate, lines, order, order.exponent).points;
        if (points <= 0) {
          decisions[i] = p.deny.zero_points;
          continue;
        }
        decisions[i] = { programId: p.id, outcome: 'award', points, reason: null };
        total += points;
        if (p.stopProcessing) stopped = true;
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
 * The eligible lines that meet per-line conditions, or null when the program's
 * typeProductMatch is not met. As in evaluateOrder, lines are kept by id: a line shares the
 * fate of a passing line with the same id.
 */
function linesMeeting(c: CompiledConditions, lines: OrderLine[], of: Facts, customer: Facts): OrderLine[] | null {
  let passed: OrderLine[] | null = null;
  let failed = false;
  for (const line of lines) {
    if (c.test(line as unknown as Facts, of, customer)) (passed ??= []).push(line);
    else failed = true;
  }
  if (passed === null || (failed && c.everyLine)) return null;
  if (!failed) return lines;
  const ids = passed.map((l) => l.id);
  return lines.filter((l) => ids.includes(l.id));
}

/**
 * Compiles a program's conditions (spec 001 §3 conditions, typeCondition, typeProductMatch) to one
 * predicate: each condition's field is looked up in the fact catalog and its operator in the
 * operator catalog once. Vocabulary errors are kept, to be thrown when an order reaches them.
 */
function compileConditions(program: PlaceOrderProgram): CompiledConditions {
  const conditions = program.conditions ?? [];
  const everyLine = program.typeProductMatch === 'all';
  try {
    assertConditionFields(conditions);
    const rule = conditionsRule(program);
    assertRuleVocabulary(rule, KNOWN_FACTS, rule.name ?? 'rule');
  } catch (error) {
    return { error, test: () => false, perLine: false, everyLine };
  }
  const leaves = conditions.map((c): Predicate => {
    const fact = FACTS.get(c.field);
    const op = OPERATORS_BY_NAME.get(c.typeMatch);
    if (!fact || !op) throw new Error(`fast-path: vocabulary check passed for an unknown field or operator (${c.field} ${c.typeMatch})`);
    const value: unknown = c.content ?? '';
    const path = fact.path;
    if (fact.fact === 'line') return (line) => op.evaluate(line[path], value);
    if (fact.fact === 'order') return (_line, order) => op.evaluate(order[path], value);
    return (_line, _order, customer) => op.evaluate(customer[path], value);
  });
  const test: Predicate =
    program.typeCondition === 'any'
      ? (l, o, c) => {
          for (const leaf of leaves) if (leaf(l, o, c)) return true;
          return false;
        }
      : (l, o, c) => {
          for (const leaf of leaves) if (!leaf(l, o, c)) return false;
          return true;
        };
  return { error: null, test, perLine: conditions.some((c) => FACTS.get(c.field)?.fact === 'line'), everyLine };
}

const HOUR = 3_600_000;
const NO_POSITIONS: readonly WindowPosition[] = Object.freeze([]);
const DAY = 86_400_000;

/** What the store-local date is over one UTC hour: `before` until `switchAt`, `after` from then on. */
interface HourWindows {
  switchAt: number;
  before: readonly WindowPosition[];
  after: readonly WindowPosition[];
}

/**
 * Window positions of the dated programs (spec 002 §9: start and end dates are store-local
 * dates), cached per UTC hour and per store-local date, because formatting a date in a timezone
 * costs about a microsecond. Every position comes from `windowPosition` itself, called with an
 * instant of the same store-local date.
 *
 * An hour is cached when the zone's UTC offset is the same at its first and last millisecond;
 * the local date then changes at most once in it, at local midnight. This assumes no zone changes
 * its offset and back within one hour. Any other hour, and any instant that is not a valid date,
 * is decided per order by `windowPosition`.
 */
class StoreDays {
  private readonly hours = new Map<number, HourWindows | null>();
  private readonly days = new Map<string, readonly WindowPosition[]>();
  private readonly wallClock: Intl.DateTimeFormat | null;

  constructor(
    private readonly timeZone: string,
    private readonly programs: readonly PlaceOrderProgram[],
  ) {
    let wallClock: Intl.DateTimeFormat | null = null;
    try {
      localDate(new Date(0), timeZone);
      wallClock = new Intl.DateTimeFormat('en-US', { timeZone, hourCycle: 'h23', year: 'numeric', month: 'numeric', day: 'numeric', hour: 'numeric', minute: 'numeric', second: 'numeric' });
    } catch {
      // An unknown timezone: every order goes to windowPosition, which throws as evaluateOrder does.
    }
    this.wallClock = wallClock;
  }

  /** Positions of the dated programs at an instant (epoch ms, NaN when invalid), in program order. */
  positions(ms: number): readonly WindowPosition[] {
    if (this.wallClock === null || !Number.isFinite(ms)) return this.exact(new Date(ms));
    if (this.programs.length === 0) return NO_POSITIONS;
    const hour = Math.floor(ms / HOUR);
    let cached = this.hours.get(hour);
    if (cached === undefined) {
      cached = this.hourWindows(hour * HOUR);
      this.hours.set(hour, cached);
    }
    if (cached === null) return this.exact(new Date(ms));
    return ms < cached.switchAt ? cached.before : cached.after;
  }

  /** Positions straight from windowPosition; throws its RangeError for a bad timezone or instant, even with no dated program. */
  private exact(instant: Date): readonly WindowPosition[] {
    localDate(instant, this.timeZone);
    return this.programs.map((p) => windowPosition(instant, this.timeZone, p.startDate, p.endDate));
  }

  private forDay(instant: Date): readonly WindowPosition[] {
    const day = localDate(instant, this.timeZone);
    let positions = this.days.get(day);
    if (!positions) {
      positions = this.exact(instant);
      this.days.set(day, positions);
    }
    return positions;
  }

  private hourWindows(start: number): HourWindows | null {
    const end = start + HOUR - 1;
    const offset = this.offsetAt(start);
    if (offset === null || offset !== this.offsetAt(end)) return null;
    const first = new Date(start);
    const last = new Date(end);
    if (localDate(first, this.timeZone) === localDate(last, this.timeZone)) {
      const positions = this.forDay(first);
      return { switchAt: Infinity, before: positions, after: positions };
    }
    const switchAt = (Math.floor((start + offset) / DAY) + 1) * DAY - offset;
    if (!(switchAt > start && switchAt <= end)) return null;
    return { switchAt, before: this.forDay(new Date(switchAt - 1)), after: this.forDay(new Date(switchAt)) };
  }

  /** UTC offset (ms) of the zone at an instant, from its wall clock; null when it cannot be read. */
  private offsetAt(ms: number): number | null {
    const parts: Record<string, number> = {};
    for (const part of (this.wallClock as Intl.DateTimeFormat).formatToParts(new Date(ms))) {
      if (part.type !== 'literal') parts[part.type] = Number(part.value);
    }
    const { year, month, day, hour, minute, second } = parts;
    if (year === undefined || month === undefined || day === undefined || hour === undefined || minute === undefined || second === undefined) return null;
    if (parts.era !== undefined || year < 1000) return null;
    const wall = Date.UTC(year, month - 1, day, hour, minute, second);
    const offset = wall - (ms - (((ms % 1000) + 1000) % 1000));
    return Number.isFinite(offset) ? offset : null;
  }
}
