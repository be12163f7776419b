/**
 * Limit periods (spec 001 §3 Program: hasLimit, limitUnit, limitInterval, earnPointsLimit; spec
 * 001 §3 Time units: minute, hour, day, week, month, year, lifetime). Periods are calendar periods
 * of the store's local clock: a "day" runs from 00:00 to 24:00 store time, a week starts on
 * Monday (ISO 8601), "lifetime" is one period. Two instants share a period when their keys match.
 */

export type TimeUnit = 'minute' | 'hour' | 'day' | 'week' | 'month' | 'year' | 'lifetime';

const formatters = new Map<string, Intl.DateTimeFormat>();

/** Store-local wall-clock parts of an instant. Throws RangeError for an unknown timezone. */
export function localParts(instant: Date, timeZone: string): { year: number; month: number; day: number; hour: number; minute: number } {
  let f = formatters.get(timeZone);
  if (!f) {
    f = new Intl.DateTimeFormat('en-US', { timeZone, hourCycle: 'h23', year: 'numeric', month: 'numeric', day: 'numeric', hour: 'numeric', minute: 'numeric' });
    formatters.set(timeZone, f);
  }
  const parts: Record<string, number> = {};
  for (const p of f.formatToParts(instant)) if (p.type !== 'literal') parts[p.type] = Number(p.value);
  return { year: parts.year ?? 0, month: parts.month ?? 0, day: parts.day ?? 0, hour: parts.hour ?? 0, minute: parts.minute ?? 0 };
}

const pad = (n: number, width = 2): string => String(n).padStart(width, '0');

/** ISO week-year and week number of a calendar date. */
function isoWeek(year: number, month: number, day: number): { year: number; week: number } {
  const date = new Date(Date.UTC(year, month - 1, day));
  const weekday = date.getUTCDay() || 7;
  date.setUTCDate(date.getUTCDate() + 4 - weekday);
  const yearStart = Date.UTC(date.getUTCFullYear(), 0, 1);
  return { year: date.getUTCFullYear(), week: Math.ceil(((date.getTime() - yearStart) / 86_400_000 + 1) / 7) };
}

/**
 * The key of the period of `unit` that contains `instant` in the store's timezone.
 * @example periodKey(new Date('2026-06-15T03:30:00Z'), 'day', 'America/New_York') // '2026-06-14'
 */
export function periodKey(instant: Date, unit: TimeUnit, timeZone: string): string {
  if (unit === 'lifetime') return 'lifetime';
  const p = localParts(instant, timeZone);
  // The UTC offset tells apart the two 01:00 hours of a fall-back night.
  const offset = Math.round((Date.UTC(p.year, p.month - 1, p.day, p.hour, p.minute) - Math.floor(instant.getTime() / 60_000) * 60_000) / 60_000);
  switch (unit) {
    case 'minute':
      return `${p.year}-${pad(p.month)}-${pad(p.day)}T${pad(p.hour)}:${pad(p.minute)}${offset >= 0 ? '+' : '-'}${Math.abs(offset)}`;
    case 'hour':
      return `${p.year}-${pad(p.month)}-${pad(p.day)}T${pad(p.hour)}${offset >= 0 ? '+' : '-'}${Math.abs(offset)}`;
    case 'day':
      return `${p.year}-${pad(p.month)}-${pad(p.day)}`;
    case 'week': {
      const w = isoWeek(p.year, p.month, p.day);
      return `${w.year}-W${pad(w.week)}`;
    }
    case 'month':
      return `${p.year}-${pad(p.month)}`;
    case 'year':
      return String(p.year);
  }
}
