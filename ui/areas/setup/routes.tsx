import type { RouteObject } from 'react-router-dom';

/** The first-time setup wizard (spec 000 §2 `/set-up`), inside the admin chrome before the fallbacks. */
export const setupRoutes: RouteObject[] = [{ path: 'set-up', lazy: () => import('./SetupPage').then((m) => ({ Component: m.SetupPage })) }];
