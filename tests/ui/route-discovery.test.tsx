// @vitest-environment jsdom
import { describe, expect, it } from 'vitest';
import type { RouteObject } from 'react-router-dom';
import { SCREENS_ROUTE_ID, appRoutes, discoveringRoutes } from '../../ui/app';
import { isLandingRoute } from '../../ui/landing-screens';
import { screenRoutes } from '../../ui/screens';
import { mockFetch, renderApp, shopReply } from './helpers';

/** The screens' routes of a table (the children of the route with SCREENS_ROUTE_ID). */
function screensOf(table: RouteObject[]): RouteObject[] {
  for (const route of table) {
    if (route.id === SCREENS_ROUTE_ID) return route.children ?? [];
    const inner = route.children ? screensOf(route.children) : [];
    if (inner.length > 0) return inner;
  }
  return [];
}

const label = (route: RouteObject) => (route.index ? '(index)' : route.path);

/** Calls `patchRoutesOnNavigation` as react-router does, recording each patch. */
function navigateWith(patchRoutes: ReturnType<typeof discoveringRoutes>['patchRoutesOnNavigation'], signal: AbortSignal, patches: string[]) {
  return patchRoutes({
    signal,
    path: '/customers',
    matches: [],
    fetcherKey: undefined,
    patch: (id, children) => patches.push(`${id}:${children.length}`),
  });
}

describe('lazy route discovery (issue 12 "Speed": the first load neither downloads nor ranks the other screens)', () => {
  it('starts with the landing screens and the catch-all; the other screens are all in ui/screens.tsx, none twice', () => {
    expect(screensOf(appRoutes([])).map(label)).toEqual(['(index)', 'home', 'programs', '*']);
    expect(screenRoutes.length).toBeGreaterThan(60);
    expect(screenRoutes.filter((route) => isLandingRoute(route) || route.path === '*')).toEqual([]);
    const paths = screensOf(appRoutes(screenRoutes)).map(label);
    expect(new Set(paths).size).toBe(paths.length);
    expect(paths).toContain('customers');
    expect(paths).toContain('settings');
  });

  it('patches the other screens in once, however many navigations ask at the same time', async () => {
    let release: (routes: RouteObject[]) => void = () => undefined;
    const pending = new Promise<RouteObject[]>((resolve) => (release = resolve));
    const { patchRoutesOnNavigation } = discoveringRoutes(() => pending);
    const patches: string[] = [];
    const first = navigateWith(patchRoutesOnNavigation, new AbortController().signal, patches);
    const second = navigateWith(patchRoutesOnNavigation, new AbortController().signal, patches);
    expect(patches).toEqual([]);
    release(screenRoutes);
    await Promise.all([first, second]);
    await navigateWith(patchRoutesOnNavigation, new AbortController().signal, patches);
    expect(patches).toEqual([`${SCREENS_ROUTE_ID}:${screenRoutes.length}`]);
  });

  it('does not count an aborted navigation as patched', async () => {
    const { patchRoutesOnNavigation } = discoveringRoutes(() => Promise.resolve(screenRoutes));
    const aborted = new AbortController();
    aborted.abort();
    const patches: string[] = [];
    await navigateWith(patchRoutesOnNavigation, aborted.signal, patches);
    expect(patches).toEqual([]);
    await navigateWith(patchRoutesOnNavigation, new AbortController().signal, patches);
    expect(patches).toEqual([`${SCREENS_ROUTE_ID}:${screenRoutes.length}`]);
  });

  it('opens a non-landing screen first, then a landing one, and Not Found only for unknown paths', async () => {
    mockFetch({ 'GET /api/shops': shopReply });
    const { router, findByRole, unmount } = renderApp('/settings');
    await findByRole('heading', { name: 'Settings', level: 1 });
    expect(router.state.matches.at(-1)?.route.path).toBe('settings');
    await router.navigate('/nowhere-at-all');
    await findByRole('heading', { name: /couldn.t be found/i });
    await router.navigate('/programs');
    expect(router.state.matches.at(-1)?.route.path).toBe('programs');
    await findByRole('heading', { name: 'Programs', level: 1 });
    unmount();
  });
});
