import { describe, expect, it } from 'vitest';
import { balances } from '../../engine/pending';

const now = new Date('2026-06-15T12:00:00Z');
const later = '2026-06-29T12:00:00Z';

describe('balances with converted pending awards', () => {
  it('counts a pending award as pending until its availability date', () => {
    expect(balances([{ points: 40, availableAt: later }], now)).toEqual({ available: 0, pending: 40 });
  });

  it('makes a converted award available now: its deduction cancels the pending points and the conversion is available', () => {
    const entries = [
      { points: 40, availableAt: later },
      { points: -40, availableAt: later }, // pending_deduct, carrying the award's date
      { points: 40, availableAt: null }, // pending_convert
    ];
    expect(balances(entries, now)).toEqual({ available: 40, pending: 0 });
    // After the original date the award and its deduction net to zero: still 40, never 80.
    expect(balances(entries, new Date('2026-07-01T00:00:00Z'))).toEqual({ available: 40, pending: 0 });
  });

  it('still takes an ordinary deduction from the available balance', () => {
    expect(balances([{ points: 100 }, { points: 40, availableAt: later }, { points: -30 }], now)).toEqual({ available: 70, pending: 40 });
  });
});
