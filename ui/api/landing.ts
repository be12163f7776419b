import { getDefaultStore } from 'jotai';
import { currentLabelLanguage } from '../i18n';
import { isProgramListTab, listTypeOfTab, type ProgramTab } from '../pages/program-paths';
import { shopAtom } from '../state/session';
import { api } from './endpoints';
import { isPrefetched } from './prefetch';
import { PRIME_WAIT_MS, primeResource } from './primed';

/** `/programs` (standalone or under `/embed`), the screen sign-in lands on. */
const PROGRAMS_PATH = /^\/(?:embed\/)?programs\/?$/;

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
    calls.push(api.shop().then((shop) => getDefaultStore().set(shopAtom, shop), () => undefined));
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
