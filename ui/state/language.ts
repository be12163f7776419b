import { atom, useAtomValue, useSetAtom } from 'jotai';
import { useCallback, useLayoutEffect, useRef } from 'react';
import { api, type ShopResponse } from '../api/endpoints';
import { applyLanguage, DEFAULT_LANGUAGE, endonym, isAppLanguage, showLanguage, t, type AppLanguage } from '../i18n';
import { shopAtom } from './session';
import { useToast } from './toasts';
import { LANGUAGE_STORAGE_PREFIX } from './storage-keys';

/**
 * The admin's language (spec 000 §4 Language switch): chosen in the page header, applied at once,
 * saved as the shop setting `primaryLanguageInApp` and kept in localStorage under the shop's id.
 */

/** Where this browser keeps a shop's language: one localStorage entry per shop id. */
export { LANGUAGE_STORAGE_PREFIX };

/** The localStorage key of one shop's language, e.g. `loyalty.language.demo.myshopify.com`. */
export function languageStorageKey(shopId: string): string {
  return `${LANGUAGE_STORAGE_PREFIX}${shopId}`;
}

/** Storage may be off (private mode, embedded iframes with storage blocked): the language then lives only in memory. */
function readStorage(key: string): string | null {
  try {
    return localStorage.getItem(key);
  } catch {
    return null;
  }
}

function writeStorage(key: string, value: string): void {
  try {
    localStorage.setItem(key, value);
  } catch {
    // Not kept across visits; the shop setting still is.
  }
}

/** The languages stored for any shop on this browser. */
function storedLanguages(): AppLanguage[] {
  const found: AppLanguage[] = [];
  try {
    for (let i = 0; i < localStorage.length; i++) {
      const key = localStorage.key(i);
      const value = key?.startsWith(LANGUAGE_STORAGE_PREFIX) ? localStorage.getItem(key) : null;
      if (isAppLanguage(value)) found.push(value);
    }
  } catch {
    // No storage: nothing stored.
  }
  return found;
}

/**
 * The language a visit starts in: this browser's entry for the shop if it holds a valid language,
 * else the shop's saved setting, else English. Before the shop has loaded, the one shop stored on
 * this browser (if only one is) gives its language, so a merchant does not see English first.
 */
export function initialLanguage(shop: ShopResponse | null): AppLanguage {
  if (!shop) {
    const stored = [...new Set(storedLanguages())];
    return stored.length === 1 && stored[0] ? stored[0] : DEFAULT_LANGUAGE;
  }
  const stored = readStorage(languageStorageKey(shop.shop.id));
  if (isAppLanguage(stored)) return stored;
  const saved = shop.shop.settings?.primaryLanguageInApp;
  return isAppLanguage(saved) ? saved : DEFAULT_LANGUAGE;
}

/** The language the merchant picked in this session; null until they pick one. */
const chosenLanguageAtom = atom<AppLanguage | null>(null);

/** The admin's current language: the merchant's pick, else where the visit starts (`initialLanguage`). */
export const languageAtom = atom(
  (get) => get(chosenLanguageAtom) ?? initialLanguage(get(shopAtom)),
  (_get, set, language: AppLanguage) => set(chosenLanguageAtom, language),
);

/**
 * Keeps the shown language (i18next) on `languageAtom`; mounted once by the app frame. Runs before
 * paint, so a shop whose language is French never flashes English once it has loaded.
 */
export function useApplyLanguage(): void {
  const language = useAtomValue(languageAtom);
  useLayoutEffect(() => applyLanguage(language), [language]);
}

/**
 * Chooses the admin's language: applies it at once (every screen re-renders, schemas reload in
 * it), keeps it in localStorage under the shop's id, then saves it as the shop's
 * `primaryLanguageInApp` (`POST /api/lp/settings`). A failed save shows the spec's error toast
 * ("Failed to save language"); the language stays applied on this browser. Only the latest choice's
 * answer counts when the merchant picks again before a save returns.
 */
export function useChooseLanguage(): (language: AppLanguage) => Promise<void> {
  const shop = useAtomValue(shopAtom);
  const setShop = useSetAtom(shopAtom);
  const setLanguage = useSetAtom(languageAtom);
  const toast = useToast();
  const latest = useRef(0);
  const shopId = shop?.shop.id;

  return useCallback(
    async (language: AppLanguage) => {
      const attempt = ++latest.current;
      // Its catalog may still be on its way (ui/i18n fetches languages on demand): the toasts wait for it.
      const shown = showLanguage(language);
      setLanguage(language);
      if (shopId !== undefined) writeStorage(languageStorageKey(shopId), language);
      try {
        const settings = await api.saveSettings({ primaryLanguageInApp: language });
        await shown;
        if (attempt !== latest.current) return;
        setShop((current) => (current ? { ...current, shop: { ...current.shop, settings } } : current));
        toast(t('language.changed', { language: endonym(language) }));
      } catch {
        await shown;
        if (attempt === latest.current) toast(t('language.saveFailed'), 'error');
      }
    },
    [shopId, setShop, setLanguage, toast],
  );
}
