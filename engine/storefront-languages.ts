/**
 * The storefront languages (issue 13; spec 001 §4 translation variants): the languages whose
 * widget texts ship with the app, and the rule that picks one of them for a shopper's language.
 * Browser-safe (no Node imports): the server answers with the matched code and the widget reads
 * its text direction from the same list.
 *
 * Matching rule (`matchStorefrontLanguage`), for a tag as a page's `<html lang>`, the browser or the
 * platform sends it (`pt-br`, `pt_BR`, `zh-Hant-TW`, `nb-NO`, or an Accept-Language list):
 *  1. case and `_`/`-` do not matter; extensions after `-u-`/`-x-` are ignored;
 *  2. the exact tag, then language + region without the script (`zh-Hant-TW` → `zh-TW`);
 *  3. Chinese by script, then region: Traditional (`Hant`, `TW`, `HK`, `MO`) → `zh-TW`, any other → `zh-CN`;
 *     Portuguese: Brazil or no region → `pt-BR`, any other region (`pt-PT`, `pt-AO`, `pt-MZ`) → `pt-PT`;
 *  4. old and macro codes: `iw` → `he`, `in` → `id`, `no`/`nn` → `nb`;
 *  5. the base language (`fr-CA` → `fr`), then any shipped variant of it (`pt` → `pt-BR` when only that ships);
 *  6. nothing matches → the fallback (the primary language), never a key.
 * In a list (`fr-CA,fr;q=0.9,en;q=0.8`) the first entry that matches a shipped language by steps 1–5 wins.
 */

/** A shipped storefront language: its platform code, its name in itself, and its writing direction. */
export interface StorefrontLanguage {
  code: string;
  /** The language's name in that language (for pickers). */
  name: string;
  dir: 'ltr' | 'rtl';
}

/** The languages with shipped widget texts (`schemas/_storefront/widget-design/<code>.json`), English first. */
export const STOREFRONT_LANGUAGES: readonly StorefrontLanguage[] = [
  { code: 'en', name: 'English', dir: 'ltr' },
  { code: 'fr', name: 'Français', dir: 'ltr' },
  { code: 'es', name: 'Español', dir: 'ltr' },
  { code: 'de', name: 'Deutsch', dir: 'ltr' },
  { code: 'it', name: 'Italiano', dir: 'ltr' },
  { code: 'ja', name: '日本語', dir: 'ltr' },
  { code: 'id', name: 'Bahasa Indonesia', dir: 'ltr' },
  { code: 'pt-BR', name: 'Português (Brasil)', dir: 'ltr' },
  { code: 'pt-PT', name: 'Português (Portugal)', dir: 'ltr' },
  { code: 'nl', name: 'Nederlands', dir: 'ltr' },
  { code: 'ko', name: '한국어', dir: 'ltr' },
  { code: 'zh-CN', name: '简体中文', dir: 'ltr' },
  { code: 'zh-TW', name: '繁體中文', dir: 'ltr' },
  { code: 'sv', name: 'Svenska', dir: 'ltr' },
  { code: 'da', name: 'Dansk', dir: 'ltr' },
  { code: 'nb', name: 'Norsk bokmål', dir: 'ltr' },
  { code: 'fi', name: 'Suomi', dir: 'ltr' },
  { code: 'pl', name: 'Polski', dir: 'ltr' },
  { code: 'cs', name: 'Čeština', dir: 'ltr' },
  { code: 'tr', name: 'Türkçe', dir: 'ltr' },
  { code: 'th', name: 'ไทย', dir: 'ltr' },
  { code: 'vi', name: 'Tiếng Việt', dir: 'ltr' },
  { code: 'ms', name: 'Bahasa Melayu', dir: 'ltr' },
  { code: 'hi', name: 'हिन्दी', dir: 'ltr' },
  { code: 'ru', name: 'Русский', dir: 'ltr' },
  { code: 'uk', name: 'Українська', dir: 'ltr' },
  { code: 'ro', name: 'Română', dir: 'ltr' },
  { code: 'hu', name: 'Magyar', dir: 'ltr' },
  { code: 'el', name: 'Ελληνικά', dir: 'ltr' },
  { code: 'hr', name: 'Hrvatski', dir: 'ltr' },
  { code: 'sk', name: 'Slovenčina', dir: 'ltr' },
  { code: 'sl', name: 'Slovenščina', dir: 'ltr' },
  { code: 'he', name: 'עברית', dir: 'rtl' },
  { code: 'ar', name: 'العربية', dir: 'rtl' },
  { code: 'ur', name: 'اردو', dir: 'rtl' },
];

/** Base languages written right to left (shipped or not: a merchant's own texts may be in them). */
const RIGHT_TO_LEFT = new Set(['ar', 'he', 'iw', 'fa', 'ur', 'yi', 'ps', 'sd', 'ckb', 'dv', 'ug']);

/** Old or macro-language codes and the shipped code that serves them. */
const ALIASES: Record<string, string> = { iw: 'he', in: 'id', ji: 'yi', no: 'nb', nn: 'nb' };

/** Regions whose Chinese is written in Traditional characters. */
const TRADITIONAL_CHINESE = new Set(['tw', 'hk', 'mo']);

interface Tag {
  language: string;
  script?: string;
  region?: string;
  /** The tag as written, normalised to lower case with `-`. */
  whole: string;
}

/** Splits `zh_Hant-TW` into its language, script and region (lower case); null when it is not a language tag. */
function parseTag(raw: string): Tag | null {
  const whole = raw.trim().replace(/_/g, '-').toLowerCase();
  const parts = whole.split('-');
  const language = parts[0] ?? '';
  if (!/^[a-z]{2,3}$/.test(language)) return null;
  const tag: Tag = { language, whole };
  for (const part of parts.slice(1)) {
    if (part.length === 1) break; // -u-…, -x-…: extensions and private use are not part of the match
    if (!tag.script && !tag.region && /^[a-z]{4}$/.test(part)) tag.script = part;
    else if (!tag.region && /^([a-z]{2}|\d{3})$/.test(part)) tag.region = part;
  }
  return tag;
}

/** The shipped codes to try for one tag, best first (steps 2–5 of the rule). */
function candidates(tag: Tag): string[] {
  const language = ALIASES[tag.language] ?? tag.language;
  const out = [tag.whole];
  if (tag.region) out.push(`${language}-${tag.region}`);
  if (language === 'zh') {
    const traditional = tag.script === 'hant' || (tag.script !== 'hans' && tag.region !== undefined && TRADITIONAL_CHINESE.has(tag.region));
    out.push(traditional ? 'zh-tw' : 'zh-cn');
  }
  if (language === 'pt') out.push(tag.region === undefined || tag.region === 'br' ? 'pt-br' : 'pt-pt');
  out.push(language);
  return out;
}

/** Matches one tag against `available`; undefined when nothing of its language ships. */
function matchOne(raw: string, available: readonly string[]): string | undefined {
  const tag = parseTag(raw);
  if (!tag) return undefined;
  const byLower = new Map(available.map((code) => [code.toLowerCase(), code]));
  for (const candidate of candidates(tag)) {
    const found = byLower.get(candidate);
    if (found) return found;
  }
  // Any shipped variant of the base language (`pt-AO` when only pt-BR ships).
  const base = ALIASES[tag.language] ?? tag.language;
  return available.find((code) => code.toLowerCase().split('-')[0] === base);
}

/**
 * The shipped language that serves `requested` (one tag or an Accept-Language list) among
 * `available`, by the rule in this file's header; undefined when none does.
 * @example findStorefrontLanguage('zh-Hant-HK', ['en', 'zh-CN', 'zh-TW']) // 'zh-TW'
 */
export function findStorefrontLanguage(requested: string | null | undefined, available: Iterable<string>): string | undefined {
  const list = [...available];
  const entries = (requested ?? '')
    .split(',')
    .map((entry) => entry.split(';')[0]!.trim())
    .filter((entry) => entry.length > 0 && entry !== '*');
  for (const entry of entries) {
    const found = matchOne(entry, list);
    if (found) return found;
  }
  return undefined;
}

/** As `findStorefrontLanguage`, with `fallback` (the primary language) when nothing matches. */
export function matchStorefrontLanguage(requested: string | null | undefined, available: Iterable<string>, fallback = 'en'): string {
  return findStorefrontLanguage(requested, available) ?? fallback;
}

/** `rtl` for languages written right to left (`ar`, `he`, `he-IL`, `fa`, `ur`, …), else `ltr`. */
export function storefrontTextDirection(code: string | null | undefined): 'ltr' | 'rtl' {
  const tag = parseTag(code ?? '');
  return tag && RIGHT_TO_LEFT.has(tag.language) ? 'rtl' : 'ltr';
}
