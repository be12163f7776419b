/**
 * engine/store-time.ts localDate: the store-local calendar date of an instant, kept per timezone
 * for its minute; these cases cross midnight and alternate zones so a kept answer is never reused
 * for another minute or another zone.
 */
import { describe, expect, it } from 'vitest';
import { localDate } from '../../engine/store-time';

describe('localDate', () => {
  it("changes at the store's midnight, not at UTC midnight", () => {
    expect(localDate(new Date('2026-04-06T03:59:59.999Z'), 'America/New_York')).toBe('2026-04-05');
    expect(localDate(new Date('2026-04-06T04:00:00.000Z'), 'America/New_York')).toBe('2026-04-06');
    expect(localDate(new Date('2026-04-06T03:59:00.000Z'), 'America/New_York')).toBe('2026-04-05');
  });

  it('answers each timezone for itself when they alternate within one minute', () => {
    const at = new Date('2026-04-05T23:30:00Z');
    expect(localDate(at, 'America/New_York')).toBe('2026-04-05');
    expect(localDate(at, 'Asia/Kolkata')).toBe('2026-04-06');
    expect(localDate(at, 'America/New_York')).toBe('2026-04-05');
    expect(localDate(new Date('2026-04-05T23:30:59Z'), 'Asia/Kolkata')).toBe('2026-04-06');
  });

  it('follows a half-hour zone across its midnight (Kolkata, UTC+05:30)', () => {
    expect(localDate(new Date('2026-04-05T18:29:59Z'), 'Asia/Kolkata')).toBe('2026-04-05');
    expect(localDate(new Date('2026-04-05T18:30:00Z'), 'Asia/Kolkata')).toBe('2026-04-06');
  });
});
