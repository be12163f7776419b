import type { RouteObject } from 'react-router-dom';

/** The versions area's screens (issue 15): a document's versions, diffs and rollback. */
export const versionsRoutes: RouteObject[] = [
  { path: 'programs/versions/:id', lazy: () => import('./VersionsPage').then((m) => ({ Component: m.VersionsPage })) },
];
