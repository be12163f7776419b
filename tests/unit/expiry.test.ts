/**
 * Point expiry in the engine (spec 002 §1, §9): FIFO consumption of credits by debits, what expires
 * on a store-local date and from which credits, and the reminders due before.
 */
import { describe, expect, it } from 'vitest';
import { dueReminders, expiringOn, replay } from '../../engine/expiry';
import { startOfLocalDay } from '../../engine/store-time';

const YEAR = { afterValue: 1, afterUnit: 'year' as const };

describe('replay (FIFO)', () => {
  it('takes spending from the oldest credits first', () => {
    const states = replay(
      [
        { id: 'a', points: 100, at: '2025-01-10T12:00:00Z' },
        { id: 'b', points: 50, at: '2025-03-10T12:00:00Z' },
      ],
      [{ id: 's', points: 120, at: '2025-04-01T12:00:00Z' }],
      YEAR,
      'UTC',
    );
    expect(states.map((s) => [s.id, s.remaining])).toEqual([
      ['a', 0],
      ['b', 30],
    ]);
  });

  it('takes a reversal from the award it reverses, and lets later credits pay an overdraft', () => {
    const states = replay(
      [
        { id: 'a', points: 100, at: '2025-01-10T12:00:00Z' },
        { id: 'b', points: 40, at: '2025-02-10T12:00:00Z' },
        { id: 'c', points: 80, at: '2025-06-10T12:00:00Z' },
      ],
      [
        { id: 'r', points: 40, at: '2025-02-11T12:00:00Z', reversesId: 'b' },
        { id: 's', points: 130, at: '2025-03-01T12:00:00Z' },
      ],
      YEAR,
      'UTC',
    );
    expect(states.map((s) => [s.id, s.remaining])).toEqual([
      ['a', 0],
      ['b', 0],
      ['c', 50],
    ]);
  });
});

describe('expiringOn', () => {
  it('expires what is left of each credit on its expiry date, naming the credits consumed', () => {
    const d = expiringOn(
      [
        { id: 'a', points: 100, at: '2025-01-10T12:00:00Z' },
        { id: 'b', points: 50, at: '2025-01-20T12:00:00Z' },
      ],
      [{ id: 's', points: 30, at: '2025-02-01T12:00:00Z' }],
      YEAR,
      'UTC',
      '2026-01-10',
    );
    expect(d).toEqual({ points: 70, consumed: [{ creditId: 'a', points: 70, earnedOn: '2025-01-10', expiresOn: '2026-01-10' }] });
  });

  it('dates credits by the store-local day they were earned', () => {
    // 02:00 UTC on 11 January is still 10 January in New York.
    const d = expiringOn([{ id: 'a', points: 10, at: '2025-01-11T02:00:00Z' }], [], YEAR, 'America/New_York', '2026-01-10');
    expect(d.points).toBe(10);
    expect(expiringOn([{ id: 'a', points: 10, at: '2025-01-11T02:00:00Z' }], [], YEAR, 'UTC', '2026-01-10').points).toBe(0);
  });

  it('does not expire again what an earlier expiry consumed', () => {
    const credits = [{ id: 'a', points: 100, at: '2025-01-10T12:00:00Z' }];
    const debits = [{ id: 'x', points: 100, at: '2026-01-10T05:00:00Z', allocations: [{ creditId: 'a', points: 100 }] }];
    expect(expiringOn(credits, debits, YEAR, 'UTC', '2026-01-11').points).toBe(0);
  });
});

describe('dueReminders', () => {
  it('answers the points expiring 7 and 3 days ahead', () => {
    const credits = [
      { id: 'a', points: 100, at: '2025-01-17T12:00:00Z' },
      { id: 'b', points: 20, at: '2025-01-13T12:00:00Z' },
    ];
    expect(dueReminders(credits, [], { enabled: true, ...YEAR, reminderDaysBefore: [3, 7] }, 'UTC', '2026-01-10')).toEqual([
      { expiresOn: '2026-01-17', daysBefore: 7, points: 100 },
      { expiresOn: '2026-01-13', daysBefore: 3, points: 20 },
    ]);
  });
});

describe('startOfLocalDay', () => {
  it('is local midnight as a UTC instant, across DST', () => {
    expect(startOfLocalDay('2026-06-15', 'America/New_York')).toBe('2026-06-15T04:00:00.000Z');
    expect(startOfLocalDay('2026-01-15', 'America/New_York')).toBe('2026-01-15T05:00:00.000Z');
    expect(startOfLocalDay('2026-03-08', 'America/New_York')).toBe('2026-03-08T05:00:00.000Z');
    expect(startOfLocalDay('2026-03-09', 'America/New_York')).toBe('2026-03-09T04:00:00.000Z');
    expect(startOfLocalDay('2026-06-15', 'Asia/Tokyo')).toBe('2026-06-14T15:00:00.000Z');
  });
});
