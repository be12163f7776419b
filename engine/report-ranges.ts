/**
 * The dashboard's date ranges (spec 002 §2 Dashboard: "date ranges today, yesterday, last 7, 30,
 * 60, 90 days, last month, last year, week, month, year to date"), as store-local dates and the UTC
 * instants that bound them. A range is [from, to): `from` is 00:00 store time of its first day and
 * `to` 00:00 of the day after its last (for ranges that end today nothing is recorded after now, so
 * the whole of today is the same as today so far). Weeks start on Monday (ISO 8601; the spec does
 * not say).
 */
import { localDate, startOfLocalDay } from './store-time';

/** The spec's ranges, by the ids the API takes. */
export const REPORT_RANGES = ['today', 'yesterday', 'last_7_days', 'last_30_days', 'last_60_days', 'last_90_days', 'last_month', 'last_year', 'week_to_date', 'month_to_date', 'year_to_date'] as const;
export type ReportRange = (typeof REPORT_RANGES)[number];

/** A range resolved: first and last store-local dates (YYYY-MM-DD, inclusive) and the instants [from, to). */
export interface ResolvedRange {
  range: ReportRange;
  firstDate: string;
  lastDate: string;
  /** ISO instant, inclusive. */
  from: string;
  /** ISO instant, exclusive. */
  to: string;
}

function addDays(date: string, days: number): string {
  const d = new Date(`${date}T00:00:00Z`);
  d.setUTCDate(d.getUTCDate() + days);
  return d.toISOString().slice(0, 10);
}

/**
 * Resolves `range` at `now` in the store's `timeZone`.
 * @throws RangeError for an unknown timezone
 * @example resolveRange('last_7_days', new Date('2026-06-15T12:00:00Z'), 'UTC') // 2026-06-09 … 2026-06-15
 */
export function resolveRange(range: ReportRange, now: Date, timeZone: string): ResolvedRange {
  const today = localDate(now, timeZone);
  const [y, m] = today.split('-').map(Number) as [number, number];
  const pad = (n: number) => String(n).padStart(2, '0');
  let first: string;
  let last: string = today;
  switch (range) {
    case 'today':
      first = today;
      break;
    case 'yesterday':
      first = last = addDays(today, -1);
      break;
    case 'last_7_days':
    case 'last_30_days':
    case 'last_60_days':
    case 'last_90_days':
      first = addDays(today, -(Number(range.split('_')[1]) - 1));
      break;
    case 'last_month': {
      const [py, pm] = m === 1 ? [y - 1, 12] : [y, m - 1];
      first = `${py}-${pad(pm)}-01`;
      last = addDays(`${y}-${pad(m)}-01`, -1);
      break;
    }
    case 'last_year':
      first = `${y - 1}-01-01`;
      last = `${y - 1}-12-31`;
      break;
    case 'week_to_date': {
      const weekday = (new Date(`${today}T00:00:00Z`).getUTCDay() + 6) % 7; // Monday 0 … Sunday 6
      first = addDays(today, -weekday);
      break;
    }
    case 'month_to_date':
      first = `${y}-${pad(m)}-01`;
      break;
    case 'year_to_date':
      first = `${y}-01-01`;
      break;
  }
  return { range, firstDate: first, lastDate: last, from: startOfLocalDay(first, timeZone), to: startOfLocalDay(addDays(last, 1), timeZone) };
}
