/**
 * API answers the landing preload script started before the app's code arrived (vite.config.ts
 * PREFETCH_SOURCE; issue 12 "Speed": LCP of `/programs` on slow 4G). The script fetches a landing
 * screen's first calls with the session token from sessionStorage and leaves each answer here by
 * path; the app's first call of that path takes it instead of asking again.
 */

/** One prefetched call: the Authorization header it was sent with, when (epoch ms), the answer. */
interface PrefetchEntry {
  auth: string;
  at: number;
  response: Promise<Response>;
}

declare global {
  interface Window {
    /** Set by the landing preload script (vite.config.ts PREFETCH_SOURCE); absent in tests and embedded. */
    __loyaltyPrefetch?: Record<string, PrefetchEntry>;
  }
}

/** How long a prefetched answer may stand in for a call (ms): a landing screen's first calls come well within it. */
export const PREFETCH_FRESH_MS = 10_000;

/**
 * The prefetched answer for a GET of `path` sent with `authorization`, taken once (the entry is
 * removed whatever happens); undefined when there is none, it was fetched for another token, or it
 * is older than PREFETCH_FRESH_MS.
 */
export function takePrefetched(path: string, authorization: string | undefined): Promise<Response> | undefined {
  const store = typeof window === 'undefined' ? undefined : window.__loyaltyPrefetch;
  const entry = store?.[path];
  if (!store || !entry) return undefined;
  delete store[path];
  if (entry.auth !== authorization || Date.now() - entry.at > PREFETCH_FRESH_MS) return undefined;
  return entry.response;
}

/** True when the preload script started a GET of `path` that no call has taken yet. */
export function isPrefetched(path: string): boolean {
  return typeof window !== 'undefined' && window.__loyaltyPrefetch?.[path] !== undefined;
}
