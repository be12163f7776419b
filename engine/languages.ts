/**
 * The in-app UI languages (spec 000 §Languages): one list for the server, the schema lint and the
 * admin (browser-safe: no Node imports). English is the source; en-US reads it as is.
 */

/** The in-app UI languages, in the spec's order (spec 000 §Languages). */
export const IN_APP_LANGUAGES = ['en', 'en-US', 'fr', 'es', 'de', 'it', 'ja', 'id'] as const;
export type InAppLanguage = (typeof IN_APP_LANGUAGES)[number];

/** Languages that read the English source as is. */
export const SOURCE_LANGUAGES: readonly InAppLanguage[] = ['en', 'en-US'];
/** Languages that need a catalog entry for every label. */
export const TRANSLATED_LANGUAGES = IN_APP_LANGUAGES.filter((l) => !SOURCE_LANGUAGES.includes(l));

/** True for one of the spec's in-app language codes (exact case: `en-US`, not `en-us`). */
export function isInAppLanguage(value: unknown): value is InAppLanguage {
  return typeof value === 'string' && (IN_APP_LANGUAGES as readonly string[]).includes(value);
}
