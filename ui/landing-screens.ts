/**
 * The screens a visit most often opens first (issue 12 "Speed": LCP of `/programs`), in one list
 * that the build (vite.config.ts: which chunks and API answers to fetch early, which texts to
 * bundle), the router (ui/app.tsx: which routes are known before the rest is patched in) and the
 * landing data (ui/api/landing.ts) all read. `/programs` is where sign-in lands; `/` and `/home`
 * are the dashboard.
 *
 * Plain data without imports: vite.config.ts loads this file in Node.
 */
export interface LandingScreen {
  /** The route's path in ui/app.tsx's table (relative, as the table writes it); `''` = the index route. */
  route: string;
  /** Further route paths showing the same screen (`home` for the dashboard). */
  aliases?: readonly string[];
  /** The location paths that open it, with or without the `/embed` prefix (a RegExp source). */
  path: string;
  /** The screen's module, from the project root, as vite names it. */
  module: string;
  /** True for the programs list, whose tab's list and the kinds are fetched before the app runs. */
  programs?: boolean;
}

/** The landing screens, most visited first. */
export const LANDING_SCREENS: readonly LandingScreen[] = [
  { route: 'programs', path: '^/(?:embed/)?programs/?$', module: '/ui/pages/ProgramsPage.tsx', programs: true },
  { route: '', aliases: ['home'], path: '^/(?:embed/?)?(?:home/?)?$', module: '/ui/areas/dashboard/DashboardPage.tsx' },
];

/** True when a route of ui/app.tsx's table (its `index` flag and relative `path`) shows a landing screen. */
export function isLandingRoute(route: { index?: boolean; path?: string }): boolean {
  return LANDING_SCREENS.some(
    (screen) =>
      (screen.route === '' ? route.index === true : route.path === screen.route) ||
      (route.path !== undefined && (screen.aliases ?? []).includes(route.path)),
  );
}

/** The programs list's location paths (`/programs`, `/embed/programs`). */
export const PROGRAMS_PATH = new RegExp(LANDING_SCREENS.find((screen) => screen.programs)!.path);
