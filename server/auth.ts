/**
 * Session tokens (HS256 JWTs as the shop platform issues them to embedded apps): verification for
 * every /api call and, in demo mode only, issuance for the demo sign-in. The tenant comes only
 * from the verified `dest` claim.
 */
import { jwtVerify, SignJWT, errors as joseErrors } from 'jose';
import type { MiddlewareHandler } from 'hono';
import { ApiError } from './errors';
import type { AuthConfig } from './config';

/** Clock tolerance for exp/nbf, seconds. */
export const CLOCK_TOLERANCE_SECONDS = 10;

/** Variables the auth middleware sets on the Hono context. */
export type AuthVariables = { shopId: string; userId: string };

/**
 * True for a platform shop domain: `<name>.myshopify.com`, the name 1–60 lower-case letters, digits
 * or hyphens, not starting with a hyphen (the platform's own shop-domain rule).
 */
export function isShopDomain(domain: string): boolean {
  return /^[a-z0-9][a-z0-9-]{0,59}\.myshopify\.com$/.test(domain);
}

const key = (secret: string): Uint8Array => new TextEncoder().encode(secret);

/**
 * Verifies a session token and returns the shop domain from `dest` and the user from `sub`.
 * Checks: HS256 only, signature with the app secret, `aud` = API key, `exp`/`nbf` within 10 s,
 * `dest` an https origin on a shop domain (`<name>.myshopify.com`, isShopDomain), `iss` on the same
 * host. Throws ApiError 401 `invalid_session_token`.
 */
export async function verifySessionToken(token: string, auth: AuthConfig): Promise<{ shopDomain: string; userId: string }> {
  const { shopDomain, userId } = await verifiedClaims(token, auth);
  return { shopDomain, userId };
}

/** What a verified session token says; `exp` and `nbf` in epoch seconds. */
interface VerifiedSession {
  shopDomain: string;
  userId: string;
  exp: number;
  nbf: number;
}

async function verifiedClaims(token: string, auth: AuthConfig): Promise<VerifiedSession> {
  try {
    const { payload } = await jwtVerify(token, key(auth.apiSecret), {
      algorithms: ['HS256'],
      audience: auth.apiKey,
      clockTolerance: CLOCK_TOLERANCE_SECONDS,
      requiredClaims: ['exp', 'nbf', 'iss', 'dest'],
    });
    const dest = new URL(String(payload.dest));
    const iss = new URL(String(payload.iss));
    if (dest.protocol !== 'https:' || iss.host !== dest.host) throw new Error('dest and iss disagree');
    const shopDomain = dest.hostname.toLowerCase();
    // Only a platform shop domain names a tenant: any other https host would create a shop row.
    if (!isShopDomain(shopDomain) || dest.port !== '') throw new Error('dest is not a shop domain');
    return { shopDomain, userId: String(payload.sub ?? ''), exp: Number(payload.exp), nbf: Number(payload.nbf) };
  } catch (e) {
    const reason = e instanceof joseErrors.JWTExpired ? 'The session token has expired' : 'The session token is not valid';
    throw new ApiError(401, 'invalid_session_token', reason);
  }
}

/** Signs a session token like the platform's, valid for `ttlSeconds` (demo sign-in and tests). */
export async function signSessionToken(auth: AuthConfig, shopDomain: string, userId = '1', ttlSeconds = 3600): Promise<string> {
  const now = Math.floor(Date.now() / 1000);
  return new SignJWT({ dest: `https://${shopDomain}` })
    .setProtectedHeader({ alg: 'HS256', typ: 'JWT' })
    .setIssuer(`https://${shopDomain}/admin`)
    .setAudience(auth.apiKey)
    .setSubject(userId)
    .setIssuedAt(now)
    .setNotBefore(now - 1)
    .setExpirationTime(now + ttlSeconds)
    .setJti(crypto.randomUUID())
    .sign(key(auth.apiSecret));
}

/** How many verified tokens one VerifiedTokens keeps (an embedded admin sends a new one every minute or so). */
export const VERIFIED_TOKENS_KEPT = 10_000;

/**
 * Session tokens already verified, so the admin's every call does not verify the same token again
 * (an HS256 check through WebCrypto costs an asynchronous round trip and a key import each time;
 * the embedded admin sends the same token with every call until it renews it). Keyed by the whole
 * token text: the same bytes verified with the same secret verify again. Each use checks the time
 * window (`exp` and `nbf` with CLOCK_TOLERANCE_SECONDS) again; an expired token is dropped and
 * refused as jose refuses it. One per requireSession, so per app secret.
 */
export class VerifiedTokens {
  private readonly kept = new Map<string, VerifiedSession>();

  constructor(
    private readonly auth: AuthConfig,
    private readonly nowSeconds: () => number = () => Date.now() / 1000,
  ) {}

  /** The token's shop and user. Throws ApiError 401 `invalid_session_token` as verifySessionToken does. */
  async verify(token: string): Promise<{ shopDomain: string; userId: string }> {
    const now = this.nowSeconds();
    let session = this.kept.get(token);
    if (!session) {
      session = await verifiedClaims(token, this.auth);
      if (this.kept.size >= VERIFIED_TOKENS_KEPT) this.sweep(now);
      this.kept.set(token, session);
    }
    if (now > session.exp + CLOCK_TOLERANCE_SECONDS) {
      this.kept.delete(token);
      throw new ApiError(401, 'invalid_session_token', 'The session token has expired');
    }
    if (now < session.nbf - CLOCK_TOLERANCE_SECONDS) throw new ApiError(401, 'invalid_session_token', 'The session token is not valid');
    return { shopDomain: session.shopDomain, userId: session.userId };
  }

  private sweep(now: number): void {
    for (const [token, session] of this.kept) if (now > session.exp + CLOCK_TOLERANCE_SECONDS) this.kept.delete(token);
    if (this.kept.size >= VERIFIED_TOKENS_KEPT) this.kept.clear();
  }
}

/**
 * Middleware: requires `Authorization: Bearer <session token>`, sets `shopId` and `userId`, and
 * calls `onShop` so the shop exists before the route runs. 401 `missing_session_token` otherwise;
 * 401 `invalid_session_token` for a token that does not verify or has expired (VerifiedTokens).
 */
export function requireSession(auth: AuthConfig, onShop: (shopDomain: string) => Promise<void>): MiddlewareHandler<{ Variables: AuthVariables }> {
  const tokens = new VerifiedTokens(auth);
  return async (c, next) => {
    const header = c.req.header('Authorization') ?? '';
    const match = /^Bearer\s+(\S+)$/i.exec(header);
    if (!match?.[1]) throw new ApiError(401, 'missing_session_token', 'Sign in to continue: the request has no session token');
    const { shopDomain, userId } = await tokens.verify(match[1]);
    await onShop(shopDomain);
    c.set('shopId', shopDomain);
    c.set('userId', userId);
    await next();
  };
}

/**
 * Standalone sessions (spec 000 §9 "session cookie max-age 7200 seconds"): after a standalone
 * sign-in (demo sign-in or an install's callback) the browser holds an HttpOnly cookie with a
 * signed session of its own, so a link opened in a new tab (which starts with empty
 * sessionStorage) signs in again without asking: `POST /auth/session` trades the cookie for a
 * session token. The cookie's JWT has an audience of its own, so it is never accepted as a bearer
 * session token, and it lasts 7200 s from sign-in (no sliding renewal).
 */
export const SESSION_COOKIE = 'loyalty_session';
/** Standalone session lifetime, seconds (spec 000 §9). */
export const SESSION_MAX_AGE_SECONDS = 7200;

const standaloneAudience = (auth: AuthConfig): string => `${auth.apiKey}#standalone-session`;

/** Signs the cookie's session for `shopDomain`, valid SESSION_MAX_AGE_SECONDS from `nowSeconds`. */
export async function signStandaloneSession(auth: AuthConfig, shopDomain: string, userId = '1', nowSeconds = Math.floor(Date.now() / 1000)): Promise<string> {
  return new SignJWT({ shop: shopDomain })
    .setProtectedHeader({ alg: 'HS256', typ: 'JWT' })
    .setAudience(standaloneAudience(auth))
    .setSubject(userId)
    .setIssuedAt(nowSeconds)
    .setExpirationTime(nowSeconds + SESSION_MAX_AGE_SECONDS)
    .sign(key(auth.apiSecret));
}

/**
 * Verifies the cookie's session: the shop, the user and when it ends (Unix seconds).
 * @throws ApiError 401 `no_session` when absent, expired, forged or not a shop domain
 */
export async function verifyStandaloneSession(auth: AuthConfig, token: string | undefined): Promise<{ shopDomain: string; userId: string; expiresAt: number }> {
  try {
    if (!token) throw new Error('no cookie');
    const { payload } = await jwtVerify(token, key(auth.apiSecret), { algorithms: ['HS256'], audience: standaloneAudience(auth), requiredClaims: ['exp'] });
    const shopDomain = String(payload.shop ?? '');
    if (!isShopDomain(shopDomain)) throw new Error('not a shop');
    return { shopDomain, userId: String(payload.sub ?? ''), expiresAt: Number(payload.exp) };
  } catch {
    throw new ApiError(401, 'no_session', 'Sign in to continue');
  }
}
