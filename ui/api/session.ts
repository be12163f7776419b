/** Where the standalone session token lives (spec 000 §1: unauthenticated visitors go to /auth/login). */
export const SESSION_TOKEN_KEY = 'loyalty.sessionToken';

interface AppBridge {
  idToken: () => Promise<string>;
}

declare global {
  interface Window {
    /** Present when the app runs embedded in the shop admin with App Bridge loaded. */
    shopify?: Partial<AppBridge>;
  }
}

/** True when App Bridge can mint session tokens for us (embedded mode). */
export function hasAppBridge(): boolean {
  return typeof window !== 'undefined' && typeof window.shopify?.idToken === 'function';
}

/** The session token to send as `Authorization: Bearer`, or null when signed out. */
export async function getSessionToken(): Promise<string | null> {
  if (hasAppBridge()) return window.shopify!.idToken!();
  return sessionStorage.getItem(SESSION_TOKEN_KEY);
}

export function setSessionToken(token: string): void {
  sessionStorage.setItem(SESSION_TOKEN_KEY, token);
}

export function clearSessionToken(): void {
  sessionStorage.removeItem(SESSION_TOKEN_KEY);
}

/** Whether the visitor can call the API at all (a stored token or App Bridge). */
export function isSignedIn(): boolean {
  return hasAppBridge() || sessionStorage.getItem(SESSION_TOKEN_KEY) !== null;
}
