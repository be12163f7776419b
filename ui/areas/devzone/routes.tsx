import type { RouteObject } from 'react-router-dom';
import { DEV_ZONE_TOOLS } from './tools';

/** The developer zone's routes (spec 001 §2), staff only (ui/areas/devzone/StaffOnly.tsx; the server refuses merchants with 403). */
export const devZoneRoutes: RouteObject[] = [
  { path: 'dev_zone', lazy: () => import('./DevZonePage').then((m) => ({ Component: m.DevZonePage })) },
  { path: 'dev_zone/recommended_apps_manager', lazy: () => import('./RecommendedAppsPage').then((m) => ({ Component: m.RecommendedAppsPage })) },
  ...DEV_ZONE_TOOLS.filter((tool) => tool.path !== 'recommended_apps_manager').map(
    (tool): RouteObject => ({ path: `dev_zone/${tool.path}`, lazy: () => import('./DevZonePage').then((m) => ({ Component: m.DevZoneToolPage })) }),
  ),
];
