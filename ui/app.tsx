import { Navigate, Outlet, createBrowserRouter, useLocation, type RouteObject } from 'react-router-dom';
import { setUnauthorizedHandler } from './api/client';
import { isSignedIn } from './api/session';
import { Frame } from './components/Frame';
import { detectBasename } from './embedded';
import { SkeletonPage } from './components/Skeleton';
import { loadAllEnglish, useT } from './i18n';
import { ErrorPage } from './pages/ErrorPage';
import { LoginPage } from './pages/LoginPage';
import { NotFoundPage } from './pages/NotFoundPage';
import { SetupGate } from './areas/setup/SetupGate';
import { isLandingRoute } from './landing-screens';

/** Signed-in screens inside the admin chrome; visitors without a session go to /auth/login (spec 000 §1). */
function AppLayout() {
  const location = useLocation();
  // The asked path rides along, so a new tab restored from the session cookie lands where it was opened.
  if (!isSignedIn()) return <Navigate to={`/auth/login?next=${encodeURIComponent(location.pathname + location.search)}`} replace />;
  return (
    <Frame>
      <SetupGate>
        <Outlet />
      </SetupGate>
    </Frame>
  );
}

/** Shown while the first screen's code loads. */
function Loading() {
  const t = useT();
  return <SkeletonPage label={t('common.loading')} />;
}

/** Id of the route whose children are the screens (createAppRouter patches the non-landing ones in). */
export const SCREENS_ROUTE_ID = 'screens';

/**
 * The route table around `screens`: sign-in, then the signed-in chrome whose children (route
 * SCREENS_ROUTE_ID) are the landing screens (ui/landing-screens.ts), the given screens and the
 * catch-all Not Found. The app starts with no other screens and patches ui/screens.tsx's in
 * (createAppRouter); tests mount the whole table.
 */
export function appRoutes(screens: RouteObject[]): RouteObject[] {
  return [
    { path: '/auth/login', element: <LoginPage /> },
    {
      element: <AppLayout />,
      errorElement: <ErrorPage />,
      hydrateFallbackElement: <Loading />,
      children: [
        {
          id: SCREENS_ROUTE_ID,
          // A crash inside a screen keeps the chrome and clears on the next navigation.
          errorElement: <ErrorPage />,
          children: [
            // `/` is the dashboard (spec 000 §2 routes `/` and `/home`), embedded or not.
            { index: true, lazy: () => import('./areas/dashboard/DashboardPage').then((m) => ({ Component: m.DashboardPage })) },
            { path: 'home', lazy: () => import('./areas/dashboard/DashboardPage').then((m) => ({ Component: m.DashboardPage })) },
            // Screens load on demand (spec 000 §2); the form screens carry RJSF and ajv.
            { path: 'programs', lazy: () => import('./pages/ProgramsPage').then((m) => ({ Component: m.ProgramsPage })) },
            ...screens,
            { path: '*', element: <NotFoundPage /> },
          ],
        },
      ],
    },
  ];
}

/** Sends the visitor to sign-in when the API answers 401 (the client has already dropped the token). */
export function redirectUnauthorizedWith(router: { navigate: (to: string, options?: { replace?: boolean }) => unknown }): void {
  setUnauthorizedHandler(() => {
    void router.navigate('/auth/login', { replace: true });
  });
}

/**
 * `routes` with every other screen's code loaded together with the rest of the English texts
 * (ui/i18n `loadAllEnglish`; only the entry's and the landing screens' texts are bundled), so a
 * screen never shows a key in place of its text. If the texts cannot be fetched the screen opens
 * anyway and shows them once they arrive.
 */
export function withAllEnglish(table: RouteObject[]): RouteObject[] {
  return table.map((route) => {
    const lazy = route.lazy;
    const children = route.children ? withAllEnglish(route.children) : undefined;
    const loads = typeof lazy === 'function' && !isLandingRoute(route);
    if (!loads && !children) return route;
    return {
      ...route,
      ...(children ? { children } : {}),
      ...(loads ? { lazy: () => Promise.all([lazy(), loadAllEnglish().catch(() => undefined)]).then(([screen]) => screen) } : {}),
    } as RouteObject;
  });
}

/**
 * What a router needs to start with `appRoutes([])` (the landing screens only) and take in the
 * other screens (about a hundred routes, `loadScreens`: ui/screens.tsx, a chunk of its own) on the
 * first navigation that needs them, through react-router's lazy route discovery: a path that only
 * the catch-all matches asks `patchRoutesOnNavigation` for routes, then is matched again.
 * Downloading, flattening and ranking the whole table took about 40 ms of the landing screen's
 * first load at 4× CPU, beside the bytes (issue 12 "Speed"). A failed `loadScreens` fails that
 * navigation (the error screen); the next one tries again.
 */
export function discoveringRoutes(
  loadScreens: () => Promise<RouteObject[]>,
): {
  routes: RouteObject[];
  patchRoutesOnNavigation: NonNullable<NonNullable<Parameters<typeof createBrowserRouter>[1]>['patchRoutesOnNavigation']>;
} {
  let patched = false;
  return {
    routes: appRoutes([]),
    patchRoutesOnNavigation: async ({ patch, signal }) => {
      if (patched) return;
      const screens = await loadScreens();
      // Checked again after the wait: another navigation may have patched meanwhile, and `patch`
      // does nothing once this one is aborted (the next one patches instead).
      if (patched || signal.aborted) return;
      patch(SCREENS_ROUTE_ID, screens);
      patched = true;
    },
  };
}

let screenRoutes: Promise<RouteObject[]> | undefined;

/**
 * Fetches ui/screens.tsx's routes (every screen but the landing ones), wrapped by `withAllEnglish`,
 * once (main.tsx warms it after the first render, the router asks on its first navigation away);
 * a failed fetch is tried again by the next call.
 */
export function loadScreenRoutes(): Promise<RouteObject[]> {
  screenRoutes ??= import('./screens').then(
    (module) => withAllEnglish(module.screenRoutes),
    (error: unknown) => {
      screenRoutes = undefined;
      throw error;
    },
  );
  return screenRoutes;
}

/** Builds the browser router (a data router, which `useBlocker` needs); see `discoveringRoutes`. */
export function createAppRouter() {
  const { routes, patchRoutesOnNavigation } = discoveringRoutes(loadScreenRoutes);
  // The landing routes bundle their texts: nothing of theirs waits for the rest of English.
  const router = createBrowserRouter(routes, { basename: detectBasename(window.location.pathname), patchRoutesOnNavigation });
  redirectUnauthorizedWith(router);
  return router;
}
