/** The storefront languages a merchant can write texts in (spec 000 §3), as the platform codes them. */
export const STOREFRONT_LANGUAGES = [
  'ar', 'cs', 'de', 'en', 'es', 'fi', 'fr', 'he-IL', 'hi', 'hr', 'hu', 'id', 'it', 'ja', 'ko', 'ms',
  'nl', 'nb', 'pl', 'pt', 'ro', 'ru', 'sk', 'sl', 'sv', 'th', 'tr', 'uk', 'ur', 'vi', 'zh-CN', 'zh-TW',
] as const;

/** Written right to left; their inputs get `dir="rtl"`. */
const RIGHT_TO_LEFT = new Set(['ar', 'he-IL', 'ur']);

const names = (() => {
  try {
    return new Intl.DisplayNames(['en'], { type: 'language' });
  } catch {
    return null;
  }
})();

/** "German" for `de`, "Chinese (Taiwan)" for `zh-TW`; the code itself when the runtime cannot name it. */
export function languageName(code: string): string {
  try {
    return names?.of(code) ?? code;
  } catch {
    return code;
  }
}

export const textDirection = (code: string): 'rtl' | 'ltr' => (RIGHT_TO_LEFT.has(code) ? 'rtl' : 'ltr');
