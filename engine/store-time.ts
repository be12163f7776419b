/**
 * Calendar dates in the store's timezone (spec 002 §9: "Programs start at 00:00:00 of the start
 * date in the store timezone"). Dates are compared as YYYY-MM-DD strings of the store's local
 * calendar, which is exact across DST changes without a date library.
 */

const formatters = new Map<string, Intl.DateTimeFormat>();

/**
 * The store-local calendar date (YYYY-MM-DD) of an instant. Throws RangeError for an unknown IANA
 * timezone.
 * @example localDate(new Date('2026-03-08T07:30:00Z'), 'America/New_York') // '2026-03-08'
 */
export function localDate(instant: Date, timeZone: string): string {
  let formatter = formatters.get(timeZone);
  if (!formatter) {
    formatter = new Intl.DateTimeFormat('en-CA', { timeZone, year: 'numeric', month: '2-digit', day: '2-digit' });
    formatters.set(timeZone, formatter);
  }
  return formatter.format(instant);
}

/** Where an instant falls relative to an optional [startDate, endDate] window of store-local dates (both inclusive). */
export function windowPosition(instant: Date, timeZone: string, startDate?: string | null, endDate?: string | null): 'before' | 'within' | 'after' {
  const today = localDate(instant, timeZone);
  if (startDate && today < startDate) return 'before';
  if (endDate && today > endDate) return 'after';
  return 'within';
}

/** Days in an inclusive window of store-local dates (2026-01-01..2026-01-07 → 7). */
export function daysInclusive(startDate: string, endDate: string): number {
  return Math.round((Date.parse(`${endDate}T00:00:00Z`) - Date.parse(`${startDate}T00:00:00Z`)) / 86_400_000) + 1;
}
