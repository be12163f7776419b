import type { RouteObject } from 'react-router-dom';

/** The storefront area's screens (spec 000 §2), mounted inside the admin chrome before the fallbacks. */
export const storefrontRoutes: RouteObject[] = [];
