/**
 * Every ledger entry reads in plain words from its stored explanation (issue 10: "Place an order:
 * 12 points = $125.50 ÷ $100 × 10, rounded down"), whatever wrote it.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import type { ActivityEntry } from '../../ui/api/endpoints';
import { loadAllEnglish, t } from '../../ui/i18n';
import { describeEntry } from '../../ui/areas/customers/format';

// The activity screen's texts are not among those bundled for the landing screens (scripts/english-split.ts).
beforeAll(() => loadAllEnglish());

const entry = (over: Partial<ActivityEntry>): ActivityEntry => ({
  entry: 'ledger',
  actor: null,
  id: 'e1',
  type: 'earn_point',
  points: 0,
  sourceType: 'order',
  sourceId: 's1',
  programId: null,
  programKind: null,
  reversesId: null,
  explanation: {},
  createdAt: '2026-06-15T12:00:00Z',
  availableAt: null,
  ...over,
});

describe('activity in plain words', () => {
  it('states an order award with its working', () => {
    const e = entry({ points: 12, explanation: { decision: { programTitle: 'Place an order', working: { earnBy: 'order', base: 12550, roundingMethod: 'roundingDown', rate: { earnPoint: 10, rateMoney: 100, rateItem: 1 } } } } });
    expect(describeEntry(e, t, 'USD').text).toBe('Place an order: 12 points = $125.50 ÷ $100.00 × 10, rounded down');
  });

  it('states an admin adjustment with both notes', () => {
    expect(describeEntry(entry({ sourceType: 'admin_adjustment', points: -5, explanation: { adminNote: 'double award', customerNote: 'Corrected' } }), t, 'USD')).toEqual({ text: 'Adjusted by staff: double award', note: 'Note to the customer: Corrected' });
  });

  it('states a review award with the program and the product', () => {
    expect(describeEntry(entry({ sourceType: 'review', points: 70, explanation: { productTitle: 'Merino scarf', decision: { programTitle: 'Product reviews' } } }), t, 'USD').text).toBe('Product reviews: 70 points for a review — Merino scarf');
    expect(describeEntry(entry({ sourceType: 'review', points: 50, explanation: { decision: { programTitle: 'Reviews' } } }), t, 'USD').text).toBe('Reviews: 50 points for a review');
  });

  it('states an expiry with the dates the expired points were earned', () => {
    const e = entry({ sourceType: 'expiry', type: 'minus_point', points: -30, explanation: { consumed: [{ creditId: 'a', points: 20, earnedOn: '2025-06-01' }, { creditId: 'b', points: 10, earnedOn: '2025-06-03' }] } });
    expect(describeEntry(e, t, 'USD').text).toBe('30 points expired (earned on 2025-06-01, 2025-06-03)');
  });

  it('states a tier entry reward, a pending conversion and an import', () => {
    expect(describeEntry(entry({ sourceType: 'tier_entry_reward', points: 200, explanation: { tierName: 'Gold' } }), t, 'USD').text).toBe('Entry reward for reaching Gold: 200 points');
    expect(describeEntry(entry({ sourceType: 'pending_conversion', type: 'pending_convert', points: 40 }), t, 'USD').text).toBe('40 pending points made available when pending points were turned off');
    expect(describeEntry(entry({ sourceType: 'import', points: 500, explanation: { import: { fileName: 'customers.csv', row: 7 } } }), t, 'USD').text).toBe('Imported from customers.csv, row 7');
  });
});
