/**
 * Points arithmetic for place-order programs (spec 001 §3 Program: earnBy, earnPoint, rateMoney,
 * rateItem, roundingMethod, earnPointShippingFee, earnPointTax). Exact integer arithmetic: amounts
 * are minor currency units, points are whole points, rounding is applied to an exact fraction.
 */
import type { OrderLine } from './order';

export type EarnBy = 'order' | 'price' | 'quantity' | 'fixed_order';
export type RoundingMethod = 'roundingNearest' | 'roundingUp' | 'roundingDown';

/** The place-order settings the arithmetic reads. */
export interface EarnRate {
  earnBy: EarnBy;
  /** Points per rate unit (whole points, ≥ 0). */
  earnPoint: number;
  /** Amount spent per `earnPoint`, in major currency units (> 0). */
  rateMoney: number;
  /** Items per `earnPoint` (≥ 1). */
  rateItem: number;
  roundingMethod: RoundingMethod;
  earnPointShippingFee: boolean;
  earnPointTax: boolean;
}

/**
 * The most points one award may give: one billion. An order beyond it is capped (its working says
 * so) rather than written as an inexact or astronomically large number.
 */
export const MAX_POINTS_PER_AWARD = 1_000_000_000;

/** `points` capped at MAX_POINTS_PER_AWARD (whole points). */
export function capPoints(points: number): number {
  return points > MAX_POINTS_PER_AWARD ? MAX_POINTS_PER_AWARD : points;
}

/** How points were computed, stored in the explanation of every award. */
export interface PointsWorking {
  earnBy: EarnBy;
  /** What was multiplied: an amount in minor units (order/price), an item count (quantity), or 1 (fixed_order). */
  base: number;
  /** Minor units included for shipping and tax (order only). */
  shippingMinor: number;
  taxMinor: number;
  /** The exact fraction before rounding, as "numerator/denominator". */
  exact: string;
  roundingMethod: RoundingMethod;
  points: number;
  /** Present when the exact result exceeded MAX_POINTS_PER_AWARD and `points` is the cap. */
  capped?: true;
  /** The program's rate, for explaining the award in plain words (absent on awards stored before it was kept). */
  rate?: { earnPoint: number; rateMoney: number; rateItem: number };
}

/**
 * Rounds numerator/denominator (non-negative integers, denominator > 0) to a whole number.
 * roundingNearest rounds halves up (2.5 → 3).
 */
export function roundFraction(numerator: number | bigint, denominator: number | bigint, method: RoundingMethod): number {
  if (typeof numerator === 'number' && typeof denominator === 'number' && Number.isSafeInteger(numerator) && Number.isSafeInteger(denominator)) {
    if (denominator <= 0) throw new RangeError('roundFraction: denominator must be > 0');
    const q = Math.floor(numerator / denominator);
    const r = numerator - q * denominator;
    if (r === 0 || method === 'roundingDown') return q;
    if (method === 'roundingUp') return q + 1;
    return r * 2 >= denominator ? q + 1 : q;
  }
  const n = BigInt(numerator);
  const d = BigInt(denominator);
  if (d <= 0n) throw new RangeError('roundFraction: denominator must be > 0');
  const quotient = n / d;
  const remainder = n - quotient * d;
  if (remainder === 0n || method === 'roundingDown') return Number(quotient);
  if (method === 'roundingUp') return Number(quotient + 1n);
  return Number(remainder * 2n >= d ? quotient + 1n : quotient);
}

/**
 * `rateMoney` (major units, up to 6 decimals) as an exact fraction of minor units:
 * amountMinor ÷ rate = amountMinor × `scale` ÷ `units`. 2.5 JPY → scale 10, units 25; 100 USD →
 * scale 1, units 10000.
 */
export function moneyRate(rateMoney: number, exponent: number): { scale: number; units: number } {
  const text = rateMoney.toFixed(6).replace(/0+$/, '').replace(/\.$/, '');
  const decimals = text.includes('.') ? (text.split('.')[1] ?? '').length : 0;
  const scaled = Number(text.replace('.', ''));
  return { scale: 10 ** decimals, units: (scaled > 0 ? scaled : 1) * 10 ** exponent };
}

/** amount × earnPoint × scale, exact: a number while it is a safe integer, else a BigInt. */
export function scaledProduct(amountMinor: number, earnPoint: number, scale: number): number | bigint {
  const product = amountMinor * earnPoint * scale;
  return Number.isSafeInteger(product) ? product : BigInt(amountMinor) * BigInt(earnPoint) * BigInt(scale);
}

/**
 * Points for the eligible lines of one order under one rate.
 * - `order`: (Σ line amounts + shipping? + tax?) ÷ rateMoney × earnPoint, rounded once.
 * - `price`: each line's amount ÷ rateMoney × earnPoint, rounded per line, then summed.
 * - `quantity`: Σ quantities ÷ rateItem × earnPoint, rounded once.
 * - `fixed_order`: earnPoint when at least one line is eligible.
 * The result is capped at MAX_POINTS_PER_AWARD (`capped: true`).
 * @param exponent minor digits of the order currency (2 for USD), to turn rateMoney into minor units.
 */
export function computePoints(rate: EarnRate, lines: readonly OrderLine[], order: { shippingMinor: number; taxMinor: number }, exponent: number): PointsWorking {
  const working = uncappedPoints(rate, lines, order, exponent);
  return working.points > MAX_POINTS_PER_AWARD ? { ...working, points: MAX_POINTS_PER_AWARD, capped: true } : working;
}

function uncappedPoints(rate: EarnRate, lines: readonly OrderLine[], order: { shippingMinor: number; taxMinor: number }, exponent: number): PointsWorking {
  const { scale, units } = moneyRate(rate.rateMoney, exponent);
  const perMoney = (amountMinor: number): number | bigint => scaledProduct(amountMinor, rate.earnPoint, scale);
  const base = { earnBy: rate.earnBy, shippingMinor: 0, taxMinor: 0, roundingMethod: rate.roundingMethod, rate: { earnPoint: rate.earnPoint, rateMoney: rate.rateMoney, rateItem: rate.rateItem } };
  switch (rate.earnBy) {
    case 'fixed_order': {
      const points = lines.length > 0 ? rate.earnPoint : 0;
      return { ...base, base: lines.length > 0 ? 1 : 0, exact: `${points}/1`, points };
    }
    case 'quantity': {
      const items = lines.reduce((n, l) => n + l.quantity, 0);
      const numerator = items * rate.earnPoint;
      const denominator = Math.max(1, rate.rateItem);
      return { ...base, base: items, exact: `${numerator}/${denominator}`, points: roundFraction(numerator, denominator, rate.roundingMethod) };
    }
    case 'price': {
      const amount = lines.reduce((n, l) => n + l.amountMinor, 0);
      const points = lines.reduce((n, l) => n + roundFraction(perMoney(l.amountMinor), units, rate.roundingMethod), 0);
      return { ...base, base: amount, exact: `${perMoney(amount)}/${units}`, points };
    }
    case 'order': {
      const shippingMinor = rate.earnPointShippingFee ? order.shippingMinor : 0;
      const taxMinor = rate.earnPointTax ? order.taxMinor : 0;
      const amount = lines.reduce((n, l) => n + l.amountMinor, 0) + (lines.length > 0 ? shippingMinor + taxMinor : 0);
      const numerator = perMoney(amount);
      return { ...base, base: amount, shippingMinor, taxMinor, exact: `${numerator}/${units}`, points: roundFraction(numerator, units, rate.roundingMethod) };
    }
  }
}

/**
 * Splits `total` whole points over weights by the largest-remainder method: the parts are whole,
 * never negative, and add up to `total` exactly (all zero weights give everything to the first).
 * @example allocate(10, [1, 1, 1]) // [4, 3, 3]
 */
export function allocate(total: number, weights: readonly number[]): number[] {
  if (weights.length === 0) return [];
  const w = weights.map((x) => BigInt(Math.max(0, Math.trunc(x))));
  const sum = w.reduce((n, x) => n + x, 0n);
  if (sum === 0n) return weights.map((_, i) => (i === 0 ? total : 0));
  const t = BigInt(total);
  const parts = w.map((x) => (t * x) / sum);
  const remainders = w.map((x, i) => [(t * x) % sum, i] as const).sort((a, b) => (a[0] === b[0] ? a[1] - b[1] : a[0] > b[0] ? -1 : 1));
  let left = t - parts.reduce((n, x) => n + x, 0n);
  for (const [, i] of remainders) {
    if (left <= 0n) break;
    parts[i] = (parts[i] ?? 0n) + 1n;
    left -= 1n;
  }
  return parts.map(Number);
}
