/**
 * A VIP tier in one plain line (issue "editors grouped into cards with a one-line plain summary" and
 * "a column for what each program gives"; spec 002 §2 VIP tiers): its entry requirement, its entry
 * reward and its perks, from a `tier.tier` document (schemas/tier/tier/schema.json).
 */
import type { JsonObject } from '../../../engine/types';
import { t } from '../../i18n';
import { formatMoney, formatNumber } from '../../i18n/formats';

/** How many perks the line names before "+2 more": the line stays one line in the tier list. */
const SHOWN_PERKS = 3;

const num = (value: unknown): number | null => (typeof value === 'number' && Number.isFinite(value) ? value : null);
const text = (value: unknown): string => (typeof value === 'string' ? value.trim() : '');

/**
 * The tier's entry requirement in words: "From 1,000 points", "From €500.00 spent", "From 5
 * orders", by `entryMethod` (`points_earned`, the default | `amount_spent`, major units of `currency`
 * | `number_of_orders`); "All members" for the base tier (requirement 0 or none).
 */
export function tierRequirement(data: JsonObject, currency: string, language: string): string {
  const value = num(data.entryRequirement) ?? 0;
  if (value <= 0) return t('tiers.summary.base');
  switch (data.entryMethod) {
    case 'amount_spent':
      return t('tiers.summary.fromSpent', { money: formatMoney(value, currency, language) });
    case 'number_of_orders':
      return value === 1 ? t('tiers.summary.fromOrder') : t('tiers.summary.fromOrders', { orders: formatNumber(value, language) });
    default:
      return value === 1 ? t('tiers.summary.fromPoint') : t('tiers.summary.fromPoints', { points: formatNumber(value, language) });
  }
}

/**
 * One perk in words: a `points_multiplier` perk by its multiplier ("1.5× points on orders", what
 * orders really earn), any other by the merchant's own title, with its value when it has one
 * ("Deposit (20%)"); an empty string for a perk with neither.
 */
function perkText(perk: Record<string, unknown>, language: string): string {
  const multiplier = num(perk.multiplier);
  if (perk.type === 'points_multiplier' && multiplier !== null && multiplier > 1) {
    return t('tiers.summary.multiplier', { multiplier: formatNumber(multiplier, language) });
  }
  const title = text(perk.title);
  const value = text(perk.value);
  if (!title) return '';
  return value ? t('tiers.summary.perkValue', { title, value }) : title;
}

/**
 * What the tier gives, in one line: its entry reward's bonus points (`entryReward.earnPoint`, when
 * above 0) then its perks in their order, at most three and "+N more" after them: "200 bonus points
 * on entry, 1.5× points on orders, Free gift wrapping". An empty string when it gives nothing.
 */
export function tierGives(data: JsonObject, language: string): string {
  const entry = data.entryReward;
  const bonus = entry && typeof entry === 'object' && !Array.isArray(entry) ? (num(entry.earnPoint) ?? 0) : 0;
  const items: string[] = [];
  if (bonus === 1) items.push(t('tiers.summary.entryPoint'));
  else if (bonus > 0) items.push(t('tiers.summary.entryPoints', { points: formatNumber(bonus, language) }));
  const perks = Array.isArray(data.perks) ? data.perks : [];
  for (const perk of perks) {
    if (typeof perk !== 'object' || perk === null || Array.isArray(perk)) continue;
    const words = perkText(perk, language);
    if (words) items.push(words);
  }
  const shown = items.slice(0, SHOWN_PERKS);
  if (items.length > SHOWN_PERKS) shown.push(t('tiers.summary.more', { count: formatNumber(items.length - SHOWN_PERKS, language) }));
  return shown.join(t('tiers.summary.separator'));
}

/**
 * The tier in one line, requirement then what it gives: "From 1,000 points: 1.5× points on orders,
 * Free shipping"; the requirement alone ("From 1,000 points") when it gives nothing.
 */
export function tierSummary(data: JsonObject, currency: string, language: string): string {
  const requirement = tierRequirement(data, currency, language);
  const gives = tierGives(data, language);
  return gives ? t('tiers.summary.line', { requirement, gives }) : requirement;
}
