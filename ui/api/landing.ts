import { getDefaultStore } from 'jotai';
import { currentLabelLanguage } from '../i18n';
import { PROGRAMS_PATH } from '../landing-screens';
import { isProgramListTab, listTypeOfTab, type ProgramTab } from '../pages/program-paths';
import { shopAtom } from '../state/session';
import { api, type ShopResponse } from './endpoints';
import { isPrefetched } from './prefetch';
import { PRIME_WAIT_MS, primeResource } from './primed';


/** The shop call the landing screen started, until the chrome takes it (takePendingShop). */
let pendingShop: Promise<ShopResponse> | null = null;

/**
 * The shop call primeLandingScreen started, taken once while it is still out: the chrome waits for
 * it rather than asking again when the answer is later than the first render (a slow network).
 * Null when there is none, or it has settled (its answer is then in the shop atom already).
 */
export function takePendingShop(): Promise<ShopResponse> | null {
  const shop = pendingShop;
  pendingShop = null;
  return shop;
}

/**
 * Reads the answers the preload script fetched for the landing screen at `location` (vite.config.ts
 * PREFETCH_SOURCE: on `/programs`, the shop, the tab's program list and the kinds) into the shop
 * atom and primed resources (ui/api/primed.ts), so the screen's first render has them. Only calls the
 * script actually started are read, so an embedded visit (App Bridge mints its token later) or
 * another screen waits for nothing. Resolves when they are in, or after PRIME_WAIT_MS (400 ms) at
 * the latest; never rejects.
 */
export function primeLandingScreen(location: Pick<Location, 'pathname' | 'search'>): Promise<void> {
  if (!PROGRAMS_PATH.test(location.pathname)) return Promise.resolve();
  const calls: Promise<void>[] = [];
  if (isPrefetched('/api/shops')) {
    const shop = api.shop();
    pendingShop = shop;
    const settled = () => {
      if (pendingShop === shop) pendingShop = null;
    };
    calls.push(shop.then((value) => getDefaultStore().set(shopAtom, value), () => undefined).finally(settled));
  }
  const tab = (new URLSearchParams(location.search).get('type') ?? 'earning') as ProgramTab;
  if (isProgramListTab(tab)) {
    const type = listTypeOfTab[tab];
    if (isPrefetched(`/api/lp/programs/${type}`)) calls.push(primeResource(`programs:${type}`, () => api.programs(type)));
    const language = currentLabelLanguage();
    if (language === 'en' && isPrefetched('/api/kinds')) calls.push(primeResource(`kinds:${language}`, () => api.kinds(language)));
  }
  if (calls.length === 0) return Promise.resolve();
  return Promise.race([Promise.all(calls).then(() => undefined), new Promise<void>((resolve) => setTimeout(resolve, PRIME_WAIT_MS))]);
}
