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
import { customersRoutes } from './areas/customers/routes';
import { storefrontRoutes } from './areas/storefront/routes';
import { comingSoonRoutes } from './areas/shell/coming-soon';
import { billingRoutes } from './areas/billing/routes';
import { settingsRoutes } from './areas/settings/routes';
import { devZoneRoutes } from './areas/devzone/routes';
import { versionsRoutes } from './areas/versions/routes';
import { translationsRoutes } from './areas/translations/routes';
import { setupRoutes } from './areas/setup/routes';
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

/** The route table; tests mount it in a memory router. */
export const routes: RouteObject[] = [
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
          // Screens load on demand (spec 000 §2); the form screens carry RJSF and ajv.
          { path: 'programs', lazy: () => import('./pages/ProgramsPage').then((m) => ({ Component: m.ProgramsPage })) },
          { path: 'programs/:event/new', lazy: () => import('./pages/NewProgramPage').then((m) => ({ Component: m.NewProgramPage })) },
          { path: 'programs/point/:id', lazy: () => import('./pages/EditProgramPage').then((m) => ({ Component: m.EditProgramPage })) },
          { path: 'programs/edit-settings/:id', lazy: () => import('./pages/EditSettingsPage').then((m) => ({ Component: m.EditSettingsPage })) },
          { path: 'programs/tier/create', lazy: () => import('./pages/TierPages').then((m) => ({ Component: m.NewTierPage })) },
          { path: 'programs/tier/:id', lazy: () => import('./pages/TierPages').then((m) => ({ Component: m.EditTierPage })) },
          { path: 'programs/referral', lazy: () => import('./pages/ReferralPages').then((m) => ({ Component: m.ReferralProgramPage })) },
          { path: 'programs/referral/friendReward', lazy: () => import('./pages/ReferralPages').then((m) => ({ Component: m.FriendRewardPage })) },
          { path: 'programs/referral/customerReward', lazy: () => import('./pages/ReferralPages').then((m) => ({ Component: m.CustomerRewardPage })) },
          { path: 'membership', lazy: () => import('./pages/MembershipPage').then((m) => ({ Component: m.MembershipPage })) },
          { path: 'membership/vip', lazy: () => import('./pages/VipTiersPage').then((m) => ({ Component: m.VipTiersPage })) },
          { path: 'membership/tier-reward/:id', lazy: () => import('./pages/TierPages').then((m) => ({ Component: m.TierRewardPage })) },
          { path: 'membership/exclusive-deal', lazy: () => import('./pages/ExclusiveDealPages').then((m) => ({ Component: m.ExclusiveDealsPage })) },
          { path: 'membership/exclusive-deal/new', lazy: () => import('./pages/ExclusiveDealPages').then((m) => ({ Component: m.ExclusiveDealEditPage })) },
          { path: 'membership/exclusive-deal/:id', lazy: () => import('./pages/ExclusiveDealPages').then((m) => ({ Component: m.ExclusiveDealEditPage })) },
          { path: 'wholesale/vip', lazy: () => import('./pages/PartnerTierPages').then((m) => ({ Component: m.PartnerTiersPage })) },
          { path: 'wholesale/vip/new', lazy: () => import('./pages/PartnerTierPages').then((m) => ({ Component: m.PartnerTierEditPage })) },
          { path: 'wholesale/vip/:id', lazy: () => import('./pages/PartnerTierPages').then((m) => ({ Component: m.PartnerTierEditPage })) },
          ...settingsRoutes,
          ...devZoneRoutes,
          { path: 'settings/webhooks', lazy: () => import('./pages/WebhookDeliveriesPage').then((m) => ({ Component: m.WebhookDeliveriesPage })) },
          { path: 'home', lazy: () => import('./areas/dashboard/DashboardPage').then((m) => ({ Component: m.DashboardPage })) },
          // The earning programs list lives at /programs (its default tab).
          { path: 'programs/point', element: <Navigate to="/programs" replace /> },
          ...customersRoutes,
          ...versionsRoutes,
          ...storefrontRoutes,
          ...translationsRoutes,
          ...billingRoutes,
          ...setupRoutes,
          // Spec routes whose screens are not built yet: a designed card, never Not Found.
          ...comingSoonRoutes,
          { path: '*', element: <NotFoundPage /> },
        ],
      },
    ],
  },
];

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
 * `table` cut in two: `first`, the table with only the landing screens (ui/landing-screens.ts) and the
 * catch-all among the screens' routes, and `rest`, the other screens' routes in their order.
 */
export function landingFirst(table: RouteObject[]): { first: RouteObject[]; rest: RouteObject[] } {
  const rest: RouteObject[] = [];
  const cut = (routesOf: RouteObject[]): RouteObject[] =>
    routesOf.map((route) => {
      if (!route.children) return route;
      if (route.id !== SCREENS_ROUTE_ID) return { ...route, children: cut(route.children) } as RouteObject;
      const kept = route.children.filter((child) => isLandingRoute(child) || child.path === '*');
      rest.push(...route.children.filter((child) => !kept.includes(child)));
      return { ...route, children: kept } as RouteObject;
    });
  const first = cut(table);
  return { first, rest };
}

/**
 * What a router needs to start with the landing screens' routes only (`landingFirst`) and take in
 * the other screens' (about a hundred) on the first navigation that needs them, through
 * react-router's lazy route discovery: a path that only the catch-all matches asks
 * `patchRoutesOnNavigation` for routes before it is matched again. Flattening and ranking the whole
 * table took about 40 ms of the landing screen's first load at 4× CPU (issue 12 "Speed").
 */
export function discoveringRoutes(table: RouteObject[]): {
  routes: RouteObject[];
  patchRoutesOnNavigation: NonNullable<Parameters<typeof createBrowserRouter>[1]>['patchRoutesOnNavigation'];
} {
  const { first, rest } = landingFirst(table);
  let patched = false;
  return {
    routes: first,
    patchRoutesOnNavigation: ({ patch, signal }) => {
      // `patch` does nothing once the navigation is aborted: the next one patches instead.
      if (patched || signal.aborted) return;
      patch(SCREENS_ROUTE_ID, rest);
      patched = true;
    },
  };
}

/** Builds the browser router (a data router, which `useBlocker` needs); see `discoveringRoutes`. */
export function createAppRouter() {
  const { routes: first, patchRoutesOnNavigation } = discoveringRoutes(withAllEnglish(routes));
  const router = createBrowserRouter(first, { basename: detectBasename(window.location.pathname), patchRoutesOnNavigation });
  redirectUnauthorizedWith(router);
  return router;
}
