import type { RouteObject } from 'react-router-dom';

/** The customers area's screens (spec 000 §2), mounted inside the admin chrome before the fallbacks. */
export const customersRoutes: RouteObject[] = [
  { path: 'customers', lazy: () => import('./CustomersPage').then((m) => ({ Component: m.CustomersPage })) },
  { path: 'customers/profile/:id', lazy: () => import('./CustomerProfilePage').then((m) => ({ Component: m.CustomerProfilePage })) },
];
