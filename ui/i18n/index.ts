import en from './en.json';
import enCatalogue from './en-catalogue.json';

/** Keys of the English catalog: the source of truth for chrome text. The program catalogue screens keep theirs in en-catalogue.json. */
export type MessageKey = keyof typeof en | keyof typeof enCatalogue;

const catalog: Record<string, string> = { ...en, ...enCatalogue };

/**
 * Translates a chrome text key, substituting `{name}` placeholders from `vars`.
 * Unknown keys render as the key itself so a missing entry is visible, not blank.
 * @example t('programs.toggle', { title: 'Place order' }) // "Turn on Place order"
 */
export function t(key: MessageKey, vars?: Record<string, string | number>): string {
  const text = catalog[key] ?? key;
  if (!vars) return text;
  return text.replace(/\{(\w+)\}/g, (match, name: string) => (name in vars ? String(vars[name]) : match));
}
