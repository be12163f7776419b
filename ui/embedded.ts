/** The path prefix of embedded mode, when the app runs inside the shop admin (spec 000 §2). */
export const EMBED_PREFIX = '/embed';

/** The router basename for a page address: `/embed` in embedded mode, none when standalone. */
export function detectBasename(pathname: string): string | undefined {
  return pathname === EMBED_PREFIX || pathname.startsWith(`${EMBED_PREFIX}/`) ? EMBED_PREFIX : undefined;
}

/** Whether this page was opened in embedded mode. */
export function isEmbedded(): boolean {
  return detectBasename(window.location.pathname) !== undefined;
}
