import { describe, expect, it } from 'vitest';
import { evaluateOrder } from '../../engine/earning';
import { normalizeOrder } from '../../engine/order';
import { roundFraction } from '../../engine/points';
import { orderBody, placeOrderDoc } from '../support/factories';

const ctx = { timeZone: 'America/New_York' };

async function pointsFor(program: Record<string, string | number | boolean>, lines: Parameters<typeof orderBody>[1], order: Record<string, unknown> = {}): Promise<number> {
  const evaluation = await evaluateOrder([placeOrderDoc(program)], normalizeOrder(orderBody(order, lines)), ctx);
  return evaluation.totalPoints;
}

describe('roundFraction', () => {
  it('rounds halves up with roundingNearest, and never moves exact values', () => {
    expect(roundFraction(5, 2, 'roundingNearest')).toBe(3);
    expect(roundFraction(49, 10, 'roundingNearest')).toBe(5);
    expect(roundFraction(44, 10, 'roundingNearest')).toBe(4);
    expect(roundFraction(40, 10, 'roundingUp')).toBe(4);
    expect(roundFraction(41, 10, 'roundingUp')).toBe(5);
    expect(roundFraction(49, 10, 'roundingDown')).toBe(4);
  });
  it('refuses a zero denominator', () => {
    expect(() => roundFraction(1, 0, 'roundingDown')).toThrow(RangeError);
  });
});

// Two lines of $45.50 and $44.50; 10 points per $100; 3 items at 5 points per 2 items.
const twoLines = [{ price: '45.50' }, { price: '44.50' }];

describe.each([
  // earnBy, rounding, extra settings, lines, expected points
  ['order', 'roundingDown', {}, [{ price: '125.50' }], 12],
  ['order', 'roundingUp', {}, [{ price: '125.50' }], 13],
  ['order', 'roundingNearest', {}, [{ price: '125.50' }], 13],
  ['order', 'roundingNearest', {}, [{ price: '124.90' }], 12],
  ['order', 'roundingNearest', {}, [{ price: '125.00' }], 13],
  ['price', 'roundingDown', {}, twoLines, 8],
  ['price', 'roundingUp', {}, twoLines, 10],
  ['price', 'roundingNearest', {}, twoLines, 9],
  ['order', 'roundingDown', {}, twoLines, 9],
  ['quantity', 'roundingDown', { earnPoint: 5, rateItem: 2 }, [{ quantity: 3 }], 7],
  ['quantity', 'roundingUp', { earnPoint: 5, rateItem: 2 }, [{ quantity: 3 }], 8],
  ['quantity', 'roundingNearest', { earnPoint: 5, rateItem: 2 }, [{ quantity: 3 }], 8],
  ['fixed_order', 'roundingDown', { earnPoint: 25 }, twoLines, 25],
  ['fixed_order', 'roundingUp', { earnPoint: 25 }, [{ quantity: 4 }], 25],
  ['fixed_order', 'roundingNearest', { earnPoint: 25 }, [{ price: '0.01' }], 25],
] as const)('earnBy %s with %s', (earnBy, roundingMethod, extra, lines, expected) => {
  it(`awards ${expected} points`, async () => {
    expect(await pointsFor({ earnBy, roundingMethod, ...extra }, [...lines])).toBe(expected);
  });
});

describe('amounts counted by earnBy order', () => {
  it('adds shipping and tax only when the program says so', async () => {
    const base = { earnBy: 'order', earnPoint: 1, rateMoney: 1 };
    expect(await pointsFor(base, [{ price: '100.00' }])).toBe(100);
    expect(await pointsFor({ ...base, earnPointShippingFee: true }, [{ price: '100.00' }])).toBe(105);
    expect(await pointsFor({ ...base, earnPointShippingFee: true, earnPointTax: true }, [{ price: '100.00' }])).toBe(110);
  });
  it('subtracts discounts allocated to lines', async () => {
    expect(await pointsFor({ earnPoint: 1, rateMoney: 1 }, [{ price: '100.00', discount_allocations: [{ amount: '20.00' }] }])).toBe(80);
  });
  it('multiplies the unit price by the quantity', async () => {
    expect(await pointsFor({ earnPoint: 1, rateMoney: 1 }, [{ price: '19.99', quantity: 3 }])).toBe(59);
  });
  it('counts currencies without minor units (JPY) exactly', async () => {
    expect(await pointsFor({ earnPoint: 1, rateMoney: 100 }, [{ price: '1250' }], { currency: 'JPY' })).toBe(12);
  });
});
