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
  // Timezone offsets are whole minutes (only the local mean times of before about 1900 had
  // seconds), so a local date changes only on a minute boundary: the last answer per timezone is
  // kept for its minute (an order's processing asks dozens of times; formatting is the costly part).
  const minute = Math.floor(instant.getTime() / 60_000);
  const last = lastDates.get(timeZone);
  if (last && last.minute === minute) return last.date;
  let formatter = formatters.get(timeZone);
  if (!formatter) {
    formatter = new Intl.DateTimeFormat('en-CA', { timeZone, year: 'numeric', month: '2-digit', day: '2-digit' });
    formatters.set(timeZone, formatter);
  }
  const date = formatter.format(instant);
  if (Number.isFinite(minute)) lastDates.set(timeZone, { minute, date });
  return date;
}

/** The last local date worked out per timezone, with the UTC minute it holds for. */
const lastDates = new Map<string, { minute: number; date: string }>();

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

/**
 * The instant a store-local date begins (00:00 store time, or the first instant of the day when a
 * DST change skips midnight), as an ISO 8601 UTC string. Throws RangeError for an unknown timezone.
 * @example startOfLocalDay('2026-06-15', 'America/New_York') // '2026-06-15T04:00:00.000Z'
 */
export function startOfLocalDay(date: string, timeZone: string): string {
  const [y = 1970, m = 1, d = 1] = date.split('-').map(Number);
  const target = Date.UTC(y, m - 1, d);
  // Walk from UTC midnight by the zone's offset there, then correct once for a DST change between.
  let guess = target;
  for (let i = 0; i < 3; i++) {
    const local = localDate(new Date(guess), timeZone);
    const parts = new Intl.DateTimeFormat('en-US', { timeZone, hourCycle: 'h23', hour: 'numeric', minute: 'numeric', second: 'numeric' }).formatToParts(new Date(guess));
    const get = (t: string): number => Number(parts.find((p) => p.type === t)?.value ?? 0);
    const localMs = Date.parse(`${local}T00:00:00Z`) + ((get('hour') * 60 + get('minute')) * 60 + get('second')) * 1000;
    const next = guess - (localMs - target);
    if (next === guess) break;
    guess = next;
  }
  // A day that starts later than midnight (DST at 00:00): the first instant whose local date is `date`.
  while (localDate(new Date(guess), timeZone) < date) guess += 15 * 60_000;
  return new Date(guess).toISOString();
}
