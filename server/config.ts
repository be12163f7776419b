/**
 * Server configuration from the environment. With no SHOPIFY_API_SECRET the server runs in demo
 * mode: the documented demo key and secret below sign session tokens and webhooks, a demo shop is
 * seeded on first start, and /auth/login signs into it. Never use the demo secret in production.
 */

/** Demo-mode credentials (README "Demo mode"). Public on purpose: they protect nothing. */
export const DEMO = {
  apiKey: 'demo-api-key',
  apiSecret: 'demo-api-secret-do-not-use-in-production',
  shopDomain: 'demo-shop.myshopify.com',
} as const;

export interface AuthConfig {
  /** The app's API key: the `aud` every session token must carry. */
  apiKey: string;
  /** HS256 secret for session tokens and webhook HMACs. */
  apiSecret: string;
  /**
   * The secret being rotated out (SHOPIFY_API_SECRET_PREVIOUS): while the platform still signs some
   * webhooks with it, their HMAC is accepted too. Session tokens need the current secret.
   */
  previousApiSecret?: string;
  demo: boolean;
}

export interface ServerConfig {
  port: number;
  databasePath: string;
  /**
   * SQLite's `synchronous` setting (SQLITE_SYNCHRONOUS, default `normal`): with WAL, `normal`
   * keeps every committed transaction through a crash or `kill -9` of the process and may lose
   * the last ones on a power cut or an operating-system crash; `full` waits for the disk on every
   * commit. Ignored on PostgreSQL.
   */
  sqliteSynchronous: 'normal' | 'full';
  auth: AuthConfig;
}

/** Reads PORT (3000), DATABASE_URL (a postgres:// URL; wins over DATABASE_PATH), DATABASE_PATH (./data/loyalty.sqlite), SQLITE_SYNCHRONOUS (normal), SHOPIFY_API_KEY, SHOPIFY_API_SECRET, SHOPIFY_API_SECRET_PREVIOUS. */
export function configFromEnv(env: NodeJS.ProcessEnv = process.env): ServerConfig {
  const secret = env.SHOPIFY_API_SECRET?.trim();
  const demo = !secret;
  return {
    port: Number(env.PORT ?? 3000) || 3000,
    databasePath: env.DATABASE_URL?.trim() || env.DATABASE_PATH || './data/loyalty.sqlite',
    sqliteSynchronous: env.SQLITE_SYNCHRONOUS?.trim().toLowerCase() === 'full' ? 'full' : 'normal',
    auth: demo
      ? { apiKey: DEMO.apiKey, apiSecret: DEMO.apiSecret, demo: true }
      : {
          apiKey: env.SHOPIFY_API_KEY?.trim() ?? '',
          apiSecret: secret,
          ...(env.SHOPIFY_API_SECRET_PREVIOUS?.trim() ? { previousApiSecret: env.SHOPIFY_API_SECRET_PREVIOUS.trim() } : {}),
          demo: false,
        },
  };
}
