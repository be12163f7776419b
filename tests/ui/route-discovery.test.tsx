// @vitest-environment jsdom
import { describe, expect, it } from 'vitest';
import type { RouteObject } from 'react-router-dom';
import { SCREENS_ROUTE_ID, discoveringRoutes, landingFirst, routes } from '../../ui/app';
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

describe('lazy route discovery (issue 12 "Speed": the landing screen flattens a handful of routes, not the whole table)', () => {
  it('starts with the landing screens and the catch-all, and keeps every other screen for later, in order', () => {
    const { first, rest } = landingFirst(routes);
    const kept = screensOf(first);
    expect(kept.map((route) => (route.index ? '(index)' : route.path))).toEqual(['(index)', 'programs', 'home', '*']);
    const all = screensOf(routes);
    expect(rest.length).toBeGreaterThan(60);
    expect(rest.length + kept.length).toBe(all.length);
    expect(rest).toEqual(all.filter((route) => !kept.includes(route)));
    // Routes outside the screens (sign-in) stay as they are.
    expect(first[0]).toBe(routes[0]);
  });

  it('patches the other screens in once, on the first navigation only the catch-all matches', async () => {
    const { routes: table, patchRoutesOnNavigation } = discoveringRoutes(routes);
    const patches: number[] = [];
    const controller = new AbortController();
    const call = () =>
      patchRoutesOnNavigation!({
        signal: controller.signal,
        path: '/customers',
        matches: [],
        fetcherKey: undefined,
        patch: (id, children) => {
          expect(id).toBe(SCREENS_ROUTE_ID);
          patches.push(children.length);
        },
      });
    await call();
    await call();
    expect(patches).toEqual([screensOf(routes).length - screensOf(table).length]);
  });

  it('does not count an aborted navigation as patched', async () => {
    const { patchRoutesOnNavigation } = discoveringRoutes(routes);
    const aborted = new AbortController();
    aborted.abort();
    const patched: string[] = [];
    const patch = (id: string | null) => patched.push(String(id));
    await patchRoutesOnNavigation!({ signal: aborted.signal, path: '/customers', matches: [], fetcherKey: undefined, patch });
    expect(patched).toEqual([]);
    await patchRoutesOnNavigation!({ signal: new AbortController().signal, path: '/customers', matches: [], fetcherKey: undefined, patch });
    expect(patched).toEqual([SCREENS_ROUTE_ID]);
  });

  it('opens a non-landing screen first, then a landing one, and Not Found only for unknown paths', async () => {
    mockFetch({ 'GET /api/shops': shopReply });
    const { router, findByRole } = renderApp('/settings');
    await findByRole('heading', { name: 'Settings', level: 1 });
    expect(router.state.matches.at(-1)?.route.path).toBe('settings');
    await router.navigate('/nowhere-at-all');
    await findByRole('heading', { name: /couldn.t be found/i });
    await router.navigate('/programs');
    expect(router.state.matches.at(-1)?.route.path).toBe('programs');
  });
});
