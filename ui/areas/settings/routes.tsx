import type { RouteObject } from 'react-router-dom';

/** `/settings` (spec 002 §2 Settings sections); `/settings/webhooks` and the linked sections keep their own routes. */
export const settingsRoutes: RouteObject[] = [{ path: 'settings', lazy: () => import('./SettingsPage').then((m) => ({ Component: m.SettingsPage })) }];
