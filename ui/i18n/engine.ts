import i18next, { type BackendModule, type i18n as I18n } from 'i18next';
import type { AppLanguage } from './index';

/**
 * The admin's i18next instance and its configuration (spec 000 §Languages), in a chunk of its own:
 * ui/i18n/index.ts loads it right after the first render, or first when the admin starts in another
 * language (`loadI18next`). Only index.ts imports this module.
 */

/** The translated languages' catalogs, one chunk each, fetched on first use (en and en-US read the bundled English). */
const translatedCatalogs: Partial<Record<AppLanguage, () => Promise<{ default: Record<string, string> }>>> = {
  fr: () => import('./languages/fr'),
  es: () => import('./languages/es'),
  de: () => import('./languages/de'),
  it: () => import('./languages/it'),
  ja: () => import('./languages/ja'),
  id: () => import('./languages/id'),
};

/**
 * i18next's loader of the catalogs not bundled: `changeLanguage('fr')` fetches the French chunk and
 * switches once it is in (i18next retries a failed fetch, then shows the fallback English).
 */
const lazyCatalogs: BackendModule = {
  type: 'backend',
  init: () => undefined,
  read(language, _namespace, callback) {
    const load = translatedCatalogs[language as AppLanguage];
    if (!load) {
      callback(null, {});
      return;
    }
    load().then(
      (catalog) => callback(null, catalog.default),
      (error: unknown) => callback(error instanceof Error ? error : new Error(String(error)), false),
    );
  },
};

/**
 * A new i18next instance (not the global default, so tests and embedders cannot disturb it),
 * initialized synchronously in `language` with `english` (the bundled English texts) as its English
 * catalog; `languages` are the in-app language codes it accepts.
 */
export function createI18n(english: Record<string, string>, languages: AppLanguage[], language: AppLanguage): I18n {
  const instance = i18next.createInstance();
  void instance.use(lazyCatalogs).init({
    // English's landing texts are bundled (the rest comes from `loadAllEnglish`); the other languages
    // come from `lazyCatalogs` when first shown.
    resources: { en: { translation: english } },
    partialBundledLanguages: true,
    lng: language,
    fallbackLng: language,
    supportedLngs: languages,
    // English is bundled: `t` works as soon as this has run.
    initAsync: false,
    // Keys contain dots ("programs.title") and colons never mean a namespace here.
    keySeparator: false,
    nsSeparator: false,
    // An empty translation is a gap, not a text: read English instead.
    returnEmptyString: false,
    interpolation: {
      prefix: '{',
      suffix: '}',
      // React escapes what it renders.
      escapeValue: false,
    },
    // A placeholder without a value stays visible as `{name}`, as it always did, rather than vanishing.
    missingInterpolationHandler: (_text, match: RegExpExecArray) => match[0],
  });
  return instance;
}
