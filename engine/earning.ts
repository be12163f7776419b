/**
 * Place-order earning (spec 001 §3 Program, §4 Programs, §9; spec 002 §4, §5, §9): decides which
 * of a shop's place-order programs award points for an order, and how many, with an explanation
 * for every decision. Pure: takes documents and facts, returns decisions; the server writes.
 *
 * Policy decisions (README "Decisions"): test, cancelled and voided orders earn nothing; an order
 * without a customer earns nothing (guests have no balance); programs run in ascending
 * `priorityPlaceOrder` (ties by creation time), each awarding independently, until an awarding
 * program has `stopProcessing`.
 */
import type { RuleProperties } from 'json-rules-engine';
import { FACTS, leafOutcomes, sharedRulesRunner, type ConditionOutcome } from './rules-engine';
import { allocate, computePoints, type EarnRate, type PointsWorking } from './points';
import { applyLimit, eligibilityDenial, type CustomerProfile, type PastAward } from './eligibility';
import { windowPosition } from './store-time';
import type { OrderFacts, OrderLine } from './order';
import type { StoredDocument } from './types';
import { kindData, type EarningPlaceOrder } from './generated';

/** One earning condition as stored in a program (spec 001 §3: field, typeMatch, content). */
export interface ProgramCondition {
  field: string;
  typeMatch: string;
  content?: string;
}

/**
 * The data of an `earning.place_order` document, generated from its template
 * (schemas/earning/place_order merged onto its base; `npm run schemas:types`, engine/generated).
 */
export type PlaceOrderProgram = EarningPlaceOrder;

/** Why a program did not award. */
export type DenyReason =
  | 'program_inactive'
  | 'not_started'
  | 'ended'
  | 'test_order'
  | 'cancelled_order'
  | 'voided_order'
  | 'guest_order'
  | 'currency_mismatch'
  | 'order_limit_reached'
  | 'customer_not_eligible'
  | 'limit_reached'
  | 'excluded_sales_channel'
  | 'no_eligible_lines'
  | 'conditions_not_met'
  | 'zero_points'
  | 'stopped_by_priority';

/** Conditions evaluated for one line (product criteria) or for the order as a whole. */
export interface ConditionCheck {
  /** Line id for per-line checks; null when the program has no product conditions. */
  lineId: string | null;
  passed: boolean;
  conditions: (ConditionOutcome & { field: string })[];
}

/** A program's decision about one order; stored with every ledger entry it awards as its explanation (without `conditionChecks`, which stay in the order's stored evaluation). */
export interface ProgramDecision {
  programId: string;
  programVersion: number;
  programTitle: string;
  kind: 'earning.place_order';
  outcome: 'award' | 'deny';
  points: number;
  reason: DenyReason | null;
  /** Human sentence naming the program and, for a failed condition, the field, operator and value seen. */
  message: string;
  eligibleLineIds: string[];
  conditionChecks: ConditionCheck[];
  working: PointsWorking | null;
  /**
   * How the awarded points split over the order's lines (largest remainder; shipping and tax
   * shares are not on any line), so a refund takes back exactly what its lines earned.
   */
  lineAllocations: LineAllocation[];
  /** The program's autoRemovePoints when it awarded: refunds follow this, even if the program changed since. */
  autoRemovePoints: boolean;
  /** Set when a per-customer points limit reduced the award. */
  cappedByLimit?: boolean;
  /**
   * Set when the customer's VIP tier multiplies earning (a `points_multiplier` perk, engine/tiers.ts
   * applyTierMultiplier): `points` and `lineAllocations` are already multiplied; `basePoints` is what
   * the program alone awarded.
   */
  tierMultiplier?: { tierId: string; tierName: string; multiplier: number; basePoints: number };
}

/** Points one order line earned, for refunds: `quantity` units earned `points` together. */
export interface LineAllocation {
  lineId: string;
  quantity: number;
  points: number;
}

/** Everything the engine decided about one order. */
export interface OrderEvaluation {
  orderId: string;
  totalPoints: number;
  /** Set when the whole order is out of scope (test, cancelled, voided, guest); then no program ran. */
  orderSkipped: DenyReason | null;
  decisions: ProgramDecision[];
}

/** Where and when the order is evaluated. */
export interface EarningContext {
  /** The store's IANA timezone, for start and end dates. */
  timeZone: string;
  /**
   * When the order arrived: used for program dates only when the order carries no `created_at`
   * (dates always follow the moment the order was placed, however late its webhook comes).
   */
  at?: Date;
  /** The customer's loyalty profile (type and tier); defaults to a member without a tier. */
  customer?: CustomerProfile;
  /** The customer's past awards (from the ledger), for per-customer limits. */
  history?: readonly PastAward[];
  /**
   * The shop's monthly order allowance state (spec 002 §9, spec 001 §4 order limit banners):
   * when `disabled`, no program runs for this order.
   */
  allowance?: { disabled: boolean; message: string };
}

/** Order-level skips (README "Decisions"), checked in this order; the first that matches skips every program. */
export const ORDER_SKIP: { test: (o: OrderFacts) => boolean; reason: DenyReason; message: string }[] = [
  { test: (o) => o.test, reason: 'test_order', message: 'Test orders do not earn points.' },
  { test: (o) => o.cancelled, reason: 'cancelled_order', message: 'Cancelled orders do not earn points.' },
  { test: (o) => o.financialStatus === 'voided', reason: 'voided_order', message: 'Voided orders do not earn points.' },
  { test: (o) => o.customer === null, reason: 'guest_order', message: 'Orders without a customer do not earn points.' },
  {
    test: (o) => o.currencyMismatch !== null,
    reason: 'currency_mismatch',
    message: "The order's amounts are not in the shop's currency, so they cannot be turned into points.",
  },
];

/**
 * Evaluates an order against place-order programs.
 * @param programs the shop's `earning.place_order` documents (any status; inactive ones are explained too)
 * @returns decisions in evaluation order; `totalPoints` is the sum of awards (whole points)
 */
export async function evaluateOrder(programs: readonly StoredDocument[], order: OrderFacts, context: EarningContext): Promise<OrderEvaluation> {
  const skip: { reason: DenyReason; message: string } | undefined =
    ORDER_SKIP.find((s) => s.test(order)) ?? (context.allowance?.disabled ? { reason: 'order_limit_reached', message: context.allowance.message } : undefined);
  const sorted = [...programs].sort(compareProgramPriority);
  if (skip) {
    return {
      orderId: order.id,
      totalPoints: 0,
      orderSkipped: skip.reason,
      decisions: sorted.map((doc) => deny(doc, skip.reason, skip.message)),
    };
  }
  const at = order.createdAt ? new Date(order.createdAt) : (context.at ?? new Date());
  const decisions: ProgramDecision[] = [];
  let stoppedBy: string | null = null;
  for (const doc of sorted) {
    if (stoppedBy !== null) {
      decisions.push(deny(doc, 'stopped_by_priority', `"${title(doc)}" did not run: "${stoppedBy}" has a higher priority and stops processing.`));
      continue;
    }
    const decision = await evaluateProgram(doc, order, context, at);
    decisions.push(decision);
    if (decision.outcome === 'award' && kindData(doc, 'earning.place_order').stopProcessing) stoppedBy = decision.programTitle;
  }
  return { orderId: order.id, totalPoints: decisions.reduce((n, d) => n + d.points, 0), orderSkipped: null, decisions };
}

/**
 * Evaluation order of place-order programs: ascending `priorityPlaceOrder` (99 when unset), then
 * creation time, then id. A comparator for `Array.prototype.sort`.
 */
export function compareProgramPriority(a: StoredDocument, b: StoredDocument): number {
  return Number(a.data.priorityPlaceOrder ?? 99) - Number(b.data.priorityPlaceOrder ?? 99) || a.createdAt.localeCompare(b.createdAt) || a.id.localeCompare(b.id);
}

function title(doc: StoredDocument): string {
  return typeof doc.data.title === 'string' ? doc.data.title : doc.id;
}

function deny(doc: StoredDocument, reason: DenyReason, message: string, extra: Partial<ProgramDecision> = {}): ProgramDecision {
  return {
    programId: doc.id,
    programVersion: doc.version,
    programTitle: title(doc),
    kind: 'earning.place_order',
    outcome: 'deny',
    points: 0,
    reason,
    message,
    eligibleLineIds: [],
    conditionChecks: [],
    working: null,
    lineAllocations: [],
    autoRemovePoints: (doc.data as { autoRemovePoints?: unknown }).autoRemovePoints !== false,
    ...extra,
  };
}

/** Lines the program's exclusions and product lists leave in (before conditions). */
export function eligibleLines(program: PlaceOrderProgram, order: OrderFacts): OrderLine[] {
  return order.lines.filter(lineEligibility(program));
}

/** The test `eligibleLines` applies to each line; build it once per program to reuse its product-id sets. */
export function lineEligibility(program: PlaceOrderProgram): (line: OrderLine) => boolean {
  const include = new Set(program.includeProducts ?? []);
  const exclude = new Set(program.excludeProducts ?? []);
  const applied = program.appliedPlaceOrderTo ?? 'both_purchase';
  const { excludeGiftCard, excludeFreeGift } = program;
  return (line) => {
    if (line.quantity <= 0) return false;
    if (excludeGiftCard && line.giftCard) return false;
    if (excludeFreeGift && line.amountMinor === 0) return false;
    if (exclude.size > 0 && line.productId !== null && exclude.has(line.productId)) return false;
    if (include.size > 0 && (line.productId === null || !include.has(line.productId))) return false;
    if (applied === 'one_time_purchase' && line.subscription) return false;
    if (applied === 'subscription_purchase' && !line.subscription) return false;
    return true;
  };
}

/** The json-rules-engine rule a program's conditions compile to (one leaf per condition). */
export function conditionsRule(program: PlaceOrderProgram): RuleProperties {
  const leaves = (program.conditions ?? []).map((c) => {
    const fact = FACTS.get(c.field);
    return { fact: fact?.fact ?? c.field, path: fact?.path ?? c.field, operator: c.typeMatch, value: c.content ?? '' };
  });
  const conditions = program.typeCondition === 'any' ? { any: leaves } : { all: leaves };
  return { name: 'program-conditions', conditions, event: { type: 'eligible' } };
}

/** Throws RangeError naming the first condition whose field is not in the fact catalog (rules/facts.json). */
export function assertConditionFields(conditions: readonly ProgramCondition[]): void {
  for (const c of conditions) if (!FACTS.has(c.field)) throw new RangeError(`unknown condition field "${c.field}"`);
}

/** The json-rules-engine facts earning conditions may name (rules/facts.json `fact`). */
export const KNOWN_FACTS: ReadonlySet<string> = new Set(['line', 'order', 'customer']);

/** The `order` fact conditions read (rules/facts.json paths); money in major units of the order currency. */
export interface OrderConditionFact {
  subtotalPrice: number;
  totalPrice: number;
  itemCount: number;
  discountCodes: string[];
  tags: string[];
  sourceName: string;
}

/** The `order` fact of an order, as earning conditions see it. */
export function orderConditionFact(order: OrderFacts): OrderConditionFact {
  return {
    subtotalPrice: order.subtotalMinor / 10 ** order.exponent,
    totalPrice: order.totalMinor / 10 ** order.exponent,
    itemCount: order.itemCount,
    discountCodes: order.discountCodes,
    tags: order.tags,
    sourceName: order.sourceName,
  };
}

async function checkConditions(program: PlaceOrderProgram, order: OrderFacts, lines: OrderLine[]): Promise<ConditionCheck[]> {
  const conds = program.conditions ?? [];
  assertConditionFields(conds);
  const run = sharedRulesRunner([conditionsRule(program)], KNOWN_FACTS);
  const orderFact = orderConditionFact(order);
  const perLine = conds.some((c) => FACTS.get(c.field)?.fact === 'line');
  const targets: (OrderLine | null)[] = perLine ? lines : [null];
  const checks: ConditionCheck[] = [];
  for (const line of targets) {
    const result = await run({ line: line ?? {}, order: orderFact, customer: order.customer ?? {} });
    const ruleResult = result.results[0] ?? result.failureResults[0];
    const outcomes = ruleResult ? leafOutcomes(ruleResult.conditions) : [];
    checks.push({
      lineId: line?.id ?? null,
      passed: result.results.length > 0,
      conditions: outcomes.map((o, i) => ({ ...o, field: conds[i]?.field ?? o.fact })),
    });
  }
  return checks;
}

function failedConditionMessage(programTitle: string, checks: ConditionCheck[]): string {
  const failed = checks.flatMap((c) => c.conditions).find((c) => !c.result);
  if (!failed) return `"${programTitle}": the order does not meet the program's conditions.`;
  return `"${programTitle}": condition ${failed.field} ${failed.operator} "${String(failed.value ?? '')}" failed; the value seen was ${JSON.stringify(failed.factValue ?? null)}.`;
}

/** Lines with the store-credit payment taken off their amounts, proportionally (spec 001 §3 excludeStoreCredit). */
export function withoutStoreCredit(lines: OrderLine[], creditMinor: number): OrderLine[] {
  if (creditMinor <= 0) return lines;
  const total = lines.reduce((n, l) => n + l.amountMinor, 0);
  const shares = allocate(Math.min(creditMinor, total), lines.map((l) => l.amountMinor));
  return lines.map((l, i) => ({ ...l, amountMinor: l.amountMinor - (shares[i] ?? 0) }));
}

/** The points settings of a place-order program (spec 001 §3 earnBy, earnPoint, rateMoney, rateItem, rounding, fee and tax options). */
export function earnRateOf(program: PlaceOrderProgram): EarnRate {
  return {
    earnBy: program.earnBy,
    earnPoint: program.earnPoint,
    rateMoney: program.rateMoney,
    rateItem: program.rateItem,
    roundingMethod: program.roundingMethod,
    earnPointShippingFee: program.earnPointShippingFee === true,
    earnPointTax: program.earnPointTax === true,
  };
}

/**
 * Splits awarded points over lines (see ProgramDecision.lineAllocations): by each line's own
 * points for `price`, by quantity for `quantity`, else by amount with shipping and tax as shares
 * that belong to no line.
 */
function allocateToLines(rate: EarnRate, awarded: number, lines: readonly OrderLine[], working: PointsWorking, exponent: number): LineAllocation[] {
  const weights =
    rate.earnBy === 'price'
      ? lines.map((l) => computePoints(rate, [l], { shippingMinor: 0, taxMinor: 0 }, exponent).points)
      : rate.earnBy === 'quantity'
        ? lines.map((l) => l.quantity)
        : [...lines.map((l) => l.amountMinor), working.shippingMinor, working.taxMinor];
  const parts = allocate(awarded, weights);
  return lines.map((l, i) => ({ lineId: l.id, quantity: l.quantity, points: parts[i] ?? 0 }));
}

async function evaluateProgram(doc: StoredDocument, order: OrderFacts, context: EarningContext, at: Date): Promise<ProgramDecision> {
  const program: PlaceOrderProgram = kindData(doc, 'earning.place_order');
  const name = title(doc);
  if (!program.status) return deny(doc, 'program_inactive', `"${name}" is turned off.`);
  const position = windowPosition(at, context.timeZone, program.startDate, program.endDate);
  if (position === 'before') return deny(doc, 'not_started', `"${name}" starts on ${program.startDate ?? ''} (store time).`);
  if (position === 'after') return deny(doc, 'ended', `"${name}" ended on ${program.endDate ?? ''} (store time).`);
  if (context.customer) {
    const denial = eligibilityDenial(context.customer, program.customerEligibility, program.eligibleTiers);
    if (denial) return deny(doc, 'customer_not_eligible', `"${name}": ${denial}`);
  }
  const pos = order.sourceName === 'pos';
  if ((pos && program.excludePOSOrderProducts) || (!pos && program.excludeOSOrderProducts)) {
    return deny(doc, 'excluded_sales_channel', `"${name}" excludes orders from ${pos ? 'POS' : 'the online store'}.`);
  }
  let lines = eligibleLines(program, order);
  if (lines.length === 0) return deny(doc, 'no_eligible_lines', `"${name}": no product in the order is eligible (exclusions, product lists or purchase type).`);
  let conditionChecks: ConditionCheck[] = [];
  if (program.statusUseCondition && (program.conditions ?? []).length > 0) {
    conditionChecks = await checkConditions(program, order, lines);
    const perLine = conditionChecks.length > 0 && conditionChecks[0]?.lineId !== null;
    const met = perLine
      ? program.typeProductMatch === 'all'
        ? conditionChecks.every((c) => c.passed)
        : conditionChecks.some((c) => c.passed)
      : conditionChecks.every((c) => c.passed);
    if (!met) return deny(doc, 'conditions_not_met', failedConditionMessage(name, conditionChecks), { conditionChecks });
    // Checks run one per line, in line order: keep lines by position (two lines may share an id).
    if (perLine) lines = lines.filter((_, i) => conditionChecks[i]?.passed === true);
  }
  if (program.excludeStoreCredit) lines = withoutStoreCredit(lines, order.storeCreditMinor);
  const rate = earnRateOf(program);
  const working = computePoints(rate, lines, order, order.exponent);
  const eligibleLineIds = lines.map((l) => l.id);
  if (working.points <= 0) {
    return deny(doc, 'zero_points', `"${name}": the eligible amount earns 0 points after ${program.roundingMethod}.`, { conditionChecks, working, eligibleLineIds });
  }
  const limit = applyLimit(program, doc.id, context.history ?? [], working.points, at, context.timeZone);
  if (!limit.allowed) return deny(doc, 'limit_reached', `"${name}": ${limit.message}`, { conditionChecks, working, eligibleLineIds });
  return {
    programId: doc.id,
    programVersion: doc.version,
    programTitle: name,
    kind: 'earning.place_order',
    outcome: 'award',
    points: limit.points,
    reason: null,
    message: limit.capped
      ? `"${name}" awards ${limit.points} points (${program.earnBy}; ${working.points} capped by the points limit).`
      : `"${name}" awards ${limit.points} points (${program.earnBy}).`,
    eligibleLineIds,
    conditionChecks,
    working,
    lineAllocations: allocateToLines(rate, limit.points, lines, working, order.exponent),
    autoRemovePoints: program.autoRemovePoints !== false,
    ...(limit.capped ? { cappedByLimit: true } : {}),
  };
}
