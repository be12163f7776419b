import type { RouteObject } from 'react-router-dom';

/** The storefront area's screens (spec 000 §2), mounted inside the admin chrome before the fallbacks. */
export const storefrontRoutes: RouteObject[] = [
  // The widget design with its live preview (issue 13; spec 001 §2 widget design settings).
  { path: 'storefront', lazy: () => import('./StorefrontDesignPage').then((m) => ({ Component: m.StorefrontDesignPage })) },
];
