/**
 * Money as exact integers in the currency's minor units (cents for USD, yen for JPY), parsed from
 * the decimal strings the shop platform sends ("12.50"). Floats never carry money here.
 */

/** Digits after the decimal point for an ISO 4217 currency (USD 2, JPY 0, KWD 3); 2 when unknown. */
export function currencyExponent(currency: string): number {
  let exponent = exponents.get(currency);
  if (exponent === undefined) {
    try {
      exponent = new Intl.NumberFormat('en', { style: 'currency', currency }).resolvedOptions().maximumFractionDigits ?? 2;
    } catch {
      exponent = 2;
    }
    // Building a NumberFormat costs about 0.1 ms; an order asks for its currency's exponent often.
    if (exponents.size < 1000) exponents.set(currency, exponent);
  }
  return exponent;
}

const exponents = new Map<string, number>();

/**
 * The largest amount, in minor units, that money fields may carry: 10^15 (ten trillion dollars),
 * below 2^53 so every sum of a few such amounts stays an exact integer. Larger is not an order.
 */
export const MAX_MONEY_MINOR = 1_000_000_000_000_000;

/**
 * Minor units of a decimal amount. Accepts strings ("12.5", "-3.10") and finite numbers; extra
 * fraction digits round half up. Throws RangeError for anything else (e.g. "abc", NaN) and for
 * amounts beyond ±MAX_MONEY_MINOR (a price of 99999999999999999999.99 is not money).
 * @example toMinor("12.50", 2) // 1250
 */
export function toMinor(amount: string | number | null | undefined, exponent: number): number {
  if (amount === null || amount === undefined || amount === '') return 0;
  const str = typeof amount === 'number' ? (Number.isFinite(amount) ? amount.toFixed(Math.max(exponent, 6)) : 'x') : amount.trim();
  const match = /^([-+]?)(\d*)(?:\.(\d*))?$/.exec(str);
  if (!match || (match[2] === '' && (match[3] ?? '') === '')) throw new RangeError(`not a money amount: ${String(amount)}`);
  const sign = match[1] === '-' ? -1 : 1;
  const whole = match[2] === '' ? 0 : Number(match[2]);
  const fraction = (match[3] ?? '').padEnd(exponent + 1, '0');
  const kept = exponent === 0 ? 0 : Number(fraction.slice(0, exponent));
  const roundUp = Number(fraction[exponent] ?? '0') >= 5 ? 1 : 0;
  const minor = whole * 10 ** exponent + kept + roundUp;
  if (!(minor <= MAX_MONEY_MINOR)) throw new RangeError(`money amount out of range: ${String(amount)}`);
  return sign * minor;
}

/** Major units (a plain number, for display and condition comparisons) of a minor amount. */
export function toMajor(minor: number, exponent: number): number {
  return minor / 10 ** exponent;
}
