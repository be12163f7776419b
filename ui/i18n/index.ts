import type { i18n as I18n } from 'i18next';
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
 * and en-US has no file of its own: it reads English throughout. i18next itself (ui/i18n/engine.ts)
 * is a chunk too: the first render of an English admin reads the bundled texts directly
 * (`bootstrapText`), and `loadAllEnglish` brings i18next with the rest of English.
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

let engine: I18n | undefined;
let engineLoading: Promise<I18n> | undefined;
/** The language last asked for (`applyLanguage`, `showLanguage`) while i18next was still loading. */
let wantedLanguage: AppLanguage = DEFAULT_LANGUAGE;

/**
 * Loads i18next (a chunk of its own, ui/i18n/engine.ts) once, with the bundled English texts:
 * the app's first render reads them without it (`bootstrapText`), and it is fetched right after
 * (with the rest of English, `loadAllEnglish`) or as soon as another language is asked for. Keeping
 * it off the entry saves about 14 KB of brotli and its start-up on the landing screen's first load
 * (issue 12 "Speed"). Rejects when the chunk cannot be fetched (a later call tries again).
 */
export function loadI18next(): Promise<I18n> {
  engineLoading ??= import('./engine').then(
    ({ createI18n }) => {
      const instance = createI18n(landingEnglish as Record<string, string>, APP_LANGUAGES.map((language) => language.code), DEFAULT_LANGUAGE);
      instance.on('languageChanged', (language) => {
        // Screen readers and the browser's hyphenation follow the page's language.
        if (typeof document !== 'undefined') document.documentElement.lang = language;
        textsChanged();
      });
      instance.store.on('added', textsChanged);
      engine = instance;
      return instance;
    },
    (error: unknown) => {
      engineLoading = undefined;
      throw error;
    },
  );
  return engineLoading;
}

/** The loaded i18next instance; throws before `loadI18next` has resolved (tests await it in their setup). */
export function i18nInstance(): I18n {
  if (!engine) throw new Error('i18n: i18next is not loaded yet (await loadI18next())');
  return engine;
}

let allEnglish: Promise<void> | undefined;

/**
 * Fetches i18next and the English texts not bundled with the app (every text but the entry's and
 * the landing screens', scripts/english-split.ts) once and adds them; components showing one
 * re-render. Rejects when a chunk cannot be fetched (a later call tries again).
 */
export function loadAllEnglish(): Promise<void> {
  allEnglish ??= Promise.all([loadI18next(), import('./languages/en-rest')]).then(
    ([instance, rest]) => {
      instance.addResourceBundle('en', 'translation', rest.default, true, false);
    },
    (error: unknown) => {
      allEnglish = undefined;
      throw error;
    },
  );
  return allEnglish;
}

if (typeof document !== 'undefined') document.documentElement.lang = DEFAULT_LANGUAGE;

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
function subscribeTexts(listener: () => void): () => void {
  textsListeners.add(listener);
  return () => textsListeners.delete(listener);
}
const textsSnapshot = (): number => textsVersion;

/**
 * The text of `key` before i18next has loaded, exactly as i18next gives it (tests/ui
 * i18n-on-demand.test.ts compares every bundled text): the bundled English text, or the key itself
 * when there is none, with each `{name}` replaced by `vars.name` and a placeholder without a value
 * left as it is. Only English is shown before i18next loads (another language loads it first).
 */
export function bootstrapText(key: MessageKey, vars?: MessageVars): string {
  const text: unknown = (landingEnglish as Record<string, unknown>)[key];
  if (typeof text !== 'string' || text === '') return key;
  if (vars === undefined) return text;
  return text.replace(/\{([^{}]+?)\}/g, (match, name: string) => {
    const value = Object.prototype.hasOwnProperty.call(vars, name.trim()) ? vars[name.trim()] : undefined;
    return value === undefined ? match : String(value);
  });
}

/**
 * The stored text of `key` when i18next would return it unchanged: the first of the current
 * language's lookup chain (`i18n.languages`, e.g. `fr` then `en`) holding a non-empty text, if that
 * text has no `{placeholder}` and no `$t(` nesting. Undefined otherwise (i18next then decides).
 * i18next's own lookup of such a text costs about 0.3 ms at 4× CPU in the landing screen's first
 * render, where about a hundred are read.
 */
function storedPlainText(instance: I18n, key: MessageKey): string | undefined {
  for (const code of instance.languages ?? [instance.language]) {
    const value: unknown = (instance.store.data[code]?.translation as Record<string, unknown> | undefined)?.[key];
    // An empty or missing text reads the next language (`returnEmptyString: false`, `fallbackLng`).
    if (value === undefined || value === null || value === '') continue;
    return typeof value === 'string' && !value.includes('{') && !value.includes('$t(') ? value : undefined;
  }
  return undefined;
}

/** The text of `key` in the current language; `replace` keeps placeholder names from colliding with t() options such as `count`. */
function render(key: MessageKey, vars?: MessageVars): string {
  const instance = engine;
  if (!instance) return bootstrapText(key, vars);
  if (vars !== undefined) return String(instance.t(key, { replace: vars }));
  const memo = `${instance.language}\u0001${key}`;
  let text = plainTexts.get(memo);
  if (text === undefined) {
    text = storedPlainText(instance, key) ?? String(instance.t(key, { replace: {} }));
    plainTexts.set(memo, text);
  }
  return text;
}

/**
 * Translates a chrome text key in the current language, substituting `{name}` placeholders from
 * `vars`. Unknown keys render as the key itself so a missing entry is visible, not blank.
 * Components call `useT()` instead so they re-render when the language changes; this global suits
 * helpers that run while such a component renders, and event handlers.
 * @example t('programs.toggle', { title: 'Place order' }) // "Turn on Place order"
 */
export function t(key: MessageKey, vars?: MessageVars): string {
  return render(key, vars);
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
  return useMemo<Translate>(() => (key, vars) => render(key, vars), [version]);
}

/** The language the admin is shown in right now; the component re-renders when it changes. */
export function useLanguage(): AppLanguage {
  useSyncExternalStore(subscribeTexts, textsSnapshot, textsSnapshot);
  return currentLanguage();
}

/** The language the admin is shown in right now, outside React (API calls read it); English until i18next has loaded. */
export function currentLanguage(): AppLanguage {
  return engine && isAppLanguage(engine.language) ? engine.language : DEFAULT_LANGUAGE;
}

/** The language i18next is switching to while its catalog loads (i18next keeps it, untyped). */
function changingTo(instance: I18n): string | undefined {
  return (instance as { isLanguageChangingTo?: string }).isLanguageChangingTo;
}

/**
 * Shows the admin in `language`: at once for English, else as soon as its catalog is in (fetched
 * once, with i18next itself the first time); every component using `useT()` then re-renders, and
 * `<html lang>` follows. Does not save it anywhere (see ui/state/language.ts).
 */
export function applyLanguage(language: AppLanguage): void {
  if (!engine) {
    wantedLanguage = language;
    if (language === DEFAULT_LANGUAGE && !engineLoading) return;
    loadI18next().then(
      (instance) => applyOn(instance, wantedLanguage),
      () => undefined,
    );
    return;
  }
  applyOn(engine, language);
}

function applyOn(instance: I18n, language: AppLanguage): void {
  // A switch still fetching its catalog counts as made; a later, different pick wins over it.
  if ((changingTo(instance) ?? instance.language) !== language) void instance.changeLanguage(language);
}

/** `applyLanguage`, with a promise that settles once `language` is shown (its catalog fetched) or a later pick replaced it. */
export function showLanguage(language: AppLanguage): Promise<void> {
  if (!engine) {
    wantedLanguage = language;
    if (language === DEFAULT_LANGUAGE && !engineLoading) return Promise.resolve();
    return loadI18next().then((instance) => (wantedLanguage === language ? showOn(instance, language) : undefined));
  }
  return showOn(engine, language);
}

function showOn(instance: I18n, language: AppLanguage): Promise<void> {
  if (instance.language === language && !changingTo(instance)) return Promise.resolve();
  return instance.changeLanguage(language).then(() => undefined);
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
