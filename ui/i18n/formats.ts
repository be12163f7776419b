/**
 * Number and money formats of the admin's language, made once per language (and currency) rather
 * than once per row of each render: list summaries format a few numbers on every row.
 */

const formats = new Map<string, Intl.NumberFormat>();

function cached(key: string, make: () => Intl.NumberFormat): Intl.NumberFormat {
  let format = formats.get(key);
  if (!format) {
    format = make();
    formats.set(key, format);
  }
  return format;
}

/**
 * Formats an amount in major units of `currency` (an ISO 4217 code, the shop's currency) the way
 * `language` (an in-app language code) writes money.
 * @example formatMoney(5, 'EUR', 'en') // "€5.00"; formatMoney(1000, 'USD', 'fr') // "1 000,00 $US"
 */
export function formatMoney(amount: number, currency: string, language: string): string {
  return cached(`money ${language} ${currency}`, () => new Intl.NumberFormat(language, { style: 'currency', currency })).format(amount);
}

/**
 * Formats a count, a percentage or a multiplier the way `language` writes numbers: digit groups, and
 * at most two decimals (a 1.5× multiplier, a 12.5% discount).
 * @example formatNumber(1000, 'en') // "1,000"; formatNumber(1.5, 'de') // "1,5"
 */
export function formatNumber(value: number, language: string): string {
  return cached(`number ${language}`, () => new Intl.NumberFormat(language, { maximumFractionDigits: 2 })).format(value);
}
