import i18next, { type BackendModule } from 'i18next';
import { IN_APP_LANGUAGES, isInAppLanguage, type InAppLanguage } from '../../engine/languages';
import { useMemo, useSyncExternalStore } from 'react';
import landingEnglish from './languages/en-landing';
import type { english } from './languages/en';

/**
 * Chrome text of the admin in the in-app languages (spec 000 §Languages), on i18next. Keys are the
 * English catalog's (`ui/i18n/en.json`, `en-catalogue.json` and the area files, see languages/en.ts).
 * The texts the app's entry and the landing screens show are bundled with the app; the rest of
 * English is a chunk of its own (scripts/english-split.ts), fetched by `loadAllEnglish` right after
 * the first render and before any other screen opens. Each other language has the same keys in a chunk of its own
 * (`languages/<lang>.ts`), fetched the first time the admin is shown in it (issue 12 "Serving the
 * admin": per-language catalogs on demand). A key a language lacks reads in English (`fallbackLng`),
 * and en-US has no file of its own: it reads English throughout.
 */

/** Keys of the English catalog: the source of truth for chrome text. The program catalogue screens keep theirs in en-catalogue.json. */
export type MessageKey = keyof typeof english;

/** Values for a text's `{name}` placeholders. */
export type MessageVars = Record<string, string | number>;

/** A translate function: the text of `key` in one language, with `{name}` placeholders filled from `vars`. */
export type Translate = (key: MessageKey, vars?: MessageVars) => string;

/** Each in-app language named in itself, as the language switcher lists it (spec 000 §Languages). */
const ENDONYMS: Record<InAppLanguage, string> = {
  en: 'English',
  'en-US': 'English (US)',
  fr: 'Français',
  es: 'Español',
  de: 'Deutsch',
  it: 'Italiano',
  ja: '日本語',
  id: 'Bahasa Indonesia',
};

/** The in-app UI languages in the spec's order (engine/languages.ts), each named in itself. */
export const APP_LANGUAGES = IN_APP_LANGUAGES.map((code) => ({ code, name: ENDONYMS[code] }));

/** One in-app language code, exactly as the spec and the server write it (`en-US`, not `en-us`). */
export type AppLanguage = InAppLanguage;

/** What the admin speaks until the shop or the merchant says otherwise. */
export const DEFAULT_LANGUAGE: AppLanguage = 'en';

/** True for one of the in-app language codes. */
export const isAppLanguage = isInAppLanguage;

/** The language's name in itself ("Français" for `fr`). */
export function endonym(code: AppLanguage): string {
  return ENDONYMS[code];
}

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

/** The admin's i18next instance (not the global default, so tests and embedders cannot disturb it). */
export const i18n = i18next.createInstance();

void i18n.use(lazyCatalogs).init({
  // English's landing texts are bundled (the rest comes from `loadAllEnglish`); the other languages
  // come from `lazyCatalogs` when first shown.
  resources: { en: { translation: landingEnglish } },
  partialBundledLanguages: true,
  lng: DEFAULT_LANGUAGE,
  fallbackLng: DEFAULT_LANGUAGE,
  supportedLngs: APP_LANGUAGES.map((language) => language.code),
  // English is bundled: `t` works as soon as this module has run.
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

let allEnglish: Promise<void> | undefined;

/**
 * Fetches the English texts not bundled with the app (every text but the entry's and the landing
 * screens', scripts/english-split.ts) once and adds them to i18next; components showing one re-render.
 * Rejects when the chunk cannot be fetched (a later call tries again).
 */
export function loadAllEnglish(): Promise<void> {
  allEnglish ??= import('./languages/en-rest').then(
    (rest) => {
      i18n.addResourceBundle('en', 'translation', rest.default, true, false);
    },
    (error: unknown) => {
      allEnglish = undefined;
      throw error;
    },
  );
  return allEnglish;
}

i18n.on('languageChanged', (language) => {
  // Screen readers and the browser's hyphenation follow the page's language.
  if (typeof document !== 'undefined') document.documentElement.lang = language;
});
if (typeof document !== 'undefined') document.documentElement.lang = i18n.language;

/**
 * Texts without placeholders already looked up, by language and key: i18next's lookup (resolving,
 * fallbacks, interpolation) runs about a hundred times in the landing screen's first render, and
 * again on every re-render of a form. Emptied whenever the language or the catalogs change.
 */
const plainTexts = new Map<string, string>();

/**
 * Counts the changes to what `t` answers (a language shown, a catalog added, such as the rest of
 * English arriving); components using `useT()` or `useLanguage()` re-render on each. This replaces
 * react-i18next's `useTranslation`, whose per-component bookkeeping took about 20 ms of the landing
 * screen's first render at 4× CPU for some 150 components (issue 12 "Speed").
 */
let textsVersion = 0;
const textsListeners = new Set<() => void>();
function textsChanged(): void {
  plainTexts.clear();
  textsVersion += 1;
  for (const listener of [...textsListeners]) listener();
}
i18n.on('languageChanged', textsChanged);
i18n.store.on('added', textsChanged);
function subscribeTexts(listener: () => void): () => void {
  textsListeners.add(listener);
  return () => textsListeners.delete(listener);
}
const textsSnapshot = (): number => textsVersion;

/**
 * The stored text of `key` when i18next would return it unchanged: the first of the current
 * language's lookup chain (`i18n.languages`, e.g. `fr` then `en`) holding a non-empty text, if that
 * text has no `{placeholder}` and no `$t(` nesting. Undefined otherwise (i18next then decides).
 * i18next's own lookup of such a text costs about 0.3 ms at 4× CPU in the landing screen's first
 * render, where about a hundred are read.
 */
function storedPlainText(key: MessageKey): string | undefined {
  for (const code of i18n.languages ?? [i18n.language]) {
    const value: unknown = (i18n.store.data[code]?.translation as Record<string, unknown> | undefined)?.[key];
    // An empty or missing text reads the next language (`returnEmptyString: false`, `fallbackLng`).
    if (value === undefined || value === null || value === '') continue;
    return typeof value === 'string' && !value.includes('{') && !value.includes('$t(') ? value : undefined;
  }
  return undefined;
}

/** i18next's answer as our string; `replace` keeps placeholder names from colliding with t() options such as `count`. */
function render(translate: (key: string, options: { replace: MessageVars }) => unknown, key: MessageKey, vars?: MessageVars): string {
  if (vars !== undefined) return String(translate(key, { replace: vars }));
  const memo = `${i18n.language}\u0001${key}`;
  let text = plainTexts.get(memo);
  if (text === undefined) {
    text = storedPlainText(key) ?? String(translate(key, { replace: {} }));
    plainTexts.set(memo, text);
  }
  return text;
}

/** i18next's `t`, bound once. */
const globalT = i18n.t.bind(i18n) as Parameters<typeof render>[0];

/**
 * Translates a chrome text key in the current language, substituting `{name}` placeholders from
 * `vars`. Unknown keys render as the key itself so a missing entry is visible, not blank.
 * Components call `useT()` instead so they re-render when the language changes; this global suits
 * helpers that run while such a component renders, and event handlers.
 * @example t('programs.toggle', { title: 'Place order' }) // "Turn on Place order"
 */
export function t(key: MessageKey, vars?: MessageVars): string {
  return render(globalT, key, vars);
}

/**
 * The translate function of the current language for a component: the component re-renders when
 * the language or the catalogs change, and the function's identity changes with them (safe as a memo
 * dependency).
 * @example const t = useT(); return <h1>{t('programs.title')}</h1>;
 */
export function useT(): Translate {
  const version = useSyncExternalStore(subscribeTexts, textsSnapshot, textsSnapshot);
  // A new function whenever the texts change, so memos depending on it recompute.
  return useMemo<Translate>(() => (key, vars) => render(globalT, key, vars), [version]);
}

/** The language the admin is shown in right now; the component re-renders when it changes. */
export function useLanguage(): AppLanguage {
  useSyncExternalStore(subscribeTexts, textsSnapshot, textsSnapshot);
  return currentLanguage();
}

/** The language the admin is shown in right now, outside React (API calls read it). */
export function currentLanguage(): AppLanguage {
  return isAppLanguage(i18n.language) ? i18n.language : DEFAULT_LANGUAGE;
}

/**
 * Shows the admin in `language`: at once for English, else as soon as its catalog is in (fetched
 * once); every component using `useT()` then re-renders, and `<html lang>` follows. Does not save it
 * anywhere (see ui/state/language.ts).
 */
export function applyLanguage(language: AppLanguage): void {
  // A switch still fetching its catalog counts as made; a later, different pick wins over it.
  if ((changingTo() ?? i18n.language) !== language) void i18n.changeLanguage(language);
}

/** The language i18next is switching to while its catalog loads (i18next keeps it, untyped). */
function changingTo(): string | undefined {
  return (i18n as { isLanguageChangingTo?: string }).isLanguageChangingTo;
}

/** `applyLanguage`, with a promise that settles once `language` is shown (its catalog fetched). */
export function showLanguage(language: AppLanguage): Promise<void> {
  if (i18n.language === language && !changingTo()) return Promise.resolve();
  return i18n.changeLanguage(language).then(() => undefined);
}

/**
 * The language server-side labels (schemas, the rule catalog) are fetched in for the admin's
 * language: en-US reads the English labels, so it shares their cache keys.
 */
export function labelsFor(language: AppLanguage): AppLanguage {
  return language === 'en-US' ? 'en' : language;
}

/** `labelsFor` the current language, outside React (a screen's loader). */
export function currentLabelLanguage(): AppLanguage {
  return labelsFor(currentLanguage());
}

/** `labelsFor` the current language, for a component: it re-renders when the language changes. */
export function useLabelLanguage(): AppLanguage {
  return labelsFor(useLanguage());
}

/**
 * The `?language=` value for server-side labels (schemas, rule catalog): none for English and en-US,
 * which the server answers in English without one.
 */
export function labelLanguage(language: AppLanguage): Exclude<AppLanguage, 'en' | 'en-US'> | undefined {
  return language === 'en' || language === 'en-US' ? undefined : language;
}
