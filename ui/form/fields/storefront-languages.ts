/** The storefront languages a merchant can write texts in (spec 000 §3), as the platform codes them. */
export const STOREFRONT_LANGUAGES = [
  'ar', 'cs', 'de', 'en', 'es', 'fi', 'fr', 'he-IL', 'hi', 'hr', 'hu', 'id', 'it', 'ja', 'ko', 'ms',
  'nl', 'nb', 'pl', 'pt', 'ro', 'ru', 'sk', 'sl', 'sv', 'th', 'tr', 'uk', 'ur', 'vi', 'zh-CN', 'zh-TW',
] as const;

/** Written right to left; their inputs get `dir="rtl"`. */
const RIGHT_TO_LEFT = new Set(['ar', 'he-IL', 'ur']);

/** One `Intl.DisplayNames` per admin language, made on first use; null where the runtime has none. */
const namers = new Map<string, Intl.DisplayNames | null>();

function namer(locale: string): Intl.DisplayNames | null {
  if (!namers.has(locale)) {
    let made: Intl.DisplayNames | null = null;
    try {
      made = new Intl.DisplayNames([locale, 'en'], { type: 'language' });
    } catch {
      made = null;
    }
    namers.set(locale, made);
  }
  return namers.get(locale) ?? null;
}

/**
 * "German" for `de`, "Chinese (Taiwan)" for `zh-TW`, named in the admin's language `locale`
 * ("allemand" in French); the code itself when the runtime cannot name it.
 */
export function languageName(code: string, locale = 'en'): string {
  try {
    return namer(locale)?.of(code) ?? code;
  } catch {
    return code;
  }
}

export const textDirection = (code: string): 'rtl' | 'ltr' => (RIGHT_TO_LEFT.has(code) ? 'rtl' : 'ltr');
