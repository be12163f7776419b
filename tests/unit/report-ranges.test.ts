import { describe, expect, it } from 'vitest';
import { resolveRange } from '../../engine/report-ranges';

// Monday 15 June 2026, 02:00 UTC: still Sunday 14 June in New York.
const now = new Date('2026-06-15T02:00:00Z');

describe('dashboard date ranges in store time', () => {
  it('takes today from the store clock, midnight to midnight', () => {
    expect(resolveRange('today', now, 'America/New_York')).toEqual({ range: 'today', firstDate: '2026-06-14', lastDate: '2026-06-14', from: '2026-06-14T04:00:00.000Z', to: '2026-06-15T04:00:00.000Z' });
    expect(resolveRange('today', now, 'Asia/Kolkata').firstDate).toBe('2026-06-15');
  });

  it('counts last N days including today, and yesterday as the whole day before', () => {
    expect(resolveRange('last_7_days', now, 'UTC')).toMatchObject({ firstDate: '2026-06-09', lastDate: '2026-06-15' });
    expect(resolveRange('last_90_days', now, 'UTC').firstDate).toBe('2026-03-18');
    expect(resolveRange('yesterday', now, 'UTC')).toMatchObject({ firstDate: '2026-06-14', lastDate: '2026-06-14', from: '2026-06-14T00:00:00.000Z', to: '2026-06-15T00:00:00.000Z' });
  });

  it('takes last month and last year as whole calendar periods, across a year end', () => {
    expect(resolveRange('last_month', new Date('2026-01-10T12:00:00Z'), 'UTC')).toMatchObject({ firstDate: '2025-12-01', lastDate: '2025-12-31', to: '2026-01-01T00:00:00.000Z' });
    expect(resolveRange('last_month', new Date('2026-03-10T12:00:00Z'), 'UTC')).toMatchObject({ firstDate: '2026-02-01', lastDate: '2026-02-28' });
    expect(resolveRange('last_year', now, 'UTC')).toMatchObject({ firstDate: '2025-01-01', lastDate: '2025-12-31' });
  });

  it('starts weeks on Monday and months and years on their first day', () => {
    expect(resolveRange('week_to_date', now, 'UTC').firstDate).toBe('2026-06-15'); // a Monday
    expect(resolveRange('week_to_date', now, 'America/New_York').firstDate).toBe('2026-06-08'); // Sunday there
    expect(resolveRange('month_to_date', now, 'UTC').firstDate).toBe('2026-06-01');
    expect(resolveRange('year_to_date', now, 'UTC').firstDate).toBe('2026-01-01');
  });
});
