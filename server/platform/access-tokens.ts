/**
 * Offline access tokens: how the app gets, keeps and loses the right to call a shop's Admin API
 * (issue 12 "Install and platform access"; spec 000 §6 access scopes).
 *
 * Two ways in, one store:
 * - **Token exchange** (embedded): the admin's verified session token is traded at
 *   `POST https://{shop}/admin/oauth/access_token` (grant `urn:ietf:params:oauth:grant-type:token-exchange`)
 *   for an offline access token (`exchangeSessionToken`).
 * - **Authorization code** (standalone install): `beginInstall` stores a one-time `state` and answers
 *   the platform's authorize URL; the platform sends the merchant back to `/auth/callback` with
 *   `code`, `shop`, `state`, `timestamp` and an `hmac` over the other query values, which
 *   `completeInstall` checks (HMAC-SHA256 with the app secret, constant time; the state once, within
 *   10 minutes) before trading the code for the token.
 *
 * Tokens are stored encrypted per shop (AES-256-GCM, 96-bit random IV, the shop id as associated
 * data so a ciphertext copied to another shop's row does not decrypt). Keys come from
 * `ACCESS_TOKEN_KEYS`: a comma-separated list `id:base64-32-bytes`, the first encrypts, every one
 * decrypts. **Rotation**: put a new key first and keep the old ones after it; a token read with an
 * old key is re-encrypted with the first at once, and `rotateAccessTokens` re-encrypts every row,
 * after which the old key can be dropped. Without the variable a key is derived from the app secret
 * (HKDF-SHA256), id `secret` (demo mode and tests; set real keys in production, since rotating the
 * app secret would then make every stored token unreadable: those shops are asked to reinstall).
 *
 * @example
 * const token = await accessToken(deps, 'shop.myshopify.com'); // or ApiError 401 reinstall_required
 */
import { createCipheriv, createDecipheriv, createHmac, hkdfSync, randomBytes, timingSafeEqual } from 'node:crypto';
import { isShopDomain } from '../auth';
import type { Db } from '../db/database';
import type { AppDeps } from '../deps';
import { ApiError } from '../errors';
import type { Fetch } from './orders';

/** The scopes the app asks for, in one place (issue 12): customers and orders for points, products for pickers, discounts for rewards. */
export const ACCESS_SCOPES: readonly string[] = ['read_customers', 'write_customers', 'read_orders', 'read_products', 'write_discounts'];

/** Extra scopes B2B partner tiers need (spec 000 §6: company info, catalogs, customer-company relationships); asked only with `b2b`. */
export const B2B_SCOPES: readonly string[] = ['read_companies', 'write_companies', 'write_publications'];

/** How long an install's `state` stays usable, seconds. */
export const INSTALL_STATE_TTL_SECONDS = 600;

/** One encryption key: its id (stored beside each ciphertext) and 32 bytes. */
export interface TokenKey {
  id: string;
  key: Buffer;
}

/** What AppDeps may carry for tokens; tests pass a fake token endpoint and fixed keys. */
export interface AccessTokenOptions {
  /** Calls the platform's token endpoint; the global fetch when absent. */
  fetch?: Fetch;
  /** Keys, the first encrypts; from ACCESS_TOKEN_KEYS (or derived from the app secret) when absent. */
  keys?: TokenKey[];
}

/** Where a shop's token stands: `ok`, `missing` (never installed / no exchange yet) or `revoked` (uninstalled or refused). */
export interface AccessStatus {
  state: 'ok' | 'missing' | 'revoked';
  scopes: string[];
  /** Declared scopes the stored token lacks (a reinstall grants them). */
  missingScopes: string[];
  /** True when the merchant must install the app again before platform calls work. */
  needsReinstall: boolean;
}

/**
 * Parses ACCESS_TOKEN_KEYS (`k2:<base64>,k1:<base64>`), each key exactly 32 bytes.
 * @throws Error naming the bad entry (the server refuses to start with a broken key list)
 */
export function parseTokenKeys(value: string): TokenKey[] {
  return value
    .split(',')
    .map((entry) => entry.trim())
    .filter(Boolean)
    .map((entry) => {
      const [id, material] = entry.split(':');
      const key = Buffer.from(material ?? '', 'base64');
      if (!id || key.length !== 32) throw new Error(`ACCESS_TOKEN_KEYS: entry "${id ?? ''}" must be id:base64 of 32 bytes`);
      return { id, key };
    });
}

/** The key list: deps, then ACCESS_TOKEN_KEYS, then one key derived from the app secret (id `secret`). */
export function tokenKeys(deps: Pick<AppDeps, 'accessTokens' | 'auth'>, env: NodeJS.ProcessEnv = process.env): TokenKey[] {
  if (deps.accessTokens?.keys?.length) return deps.accessTokens.keys;
  if (env.ACCESS_TOKEN_KEYS?.trim()) return parseTokenKeys(env.ACCESS_TOKEN_KEYS);
  const derived = Buffer.from(hkdfSync('sha256', deps.auth.apiSecret, 'loyalty-access-tokens', 'aes-256-gcm v1', 32));
  return [{ id: 'secret', key: derived }];
}

const b64 = (b: Buffer): string => b.toString('base64url');

/** Encrypts `token` for `shopId` with the first key: `{ keyId, ciphertext: "<iv>.<tag>.<data>" }`. */
export function encryptToken(keys: TokenKey[], shopId: string, token: string): { keyId: string; ciphertext: string } {
  const current = keys[0];
  if (!current) throw new Error('encryptToken: no key');
  const iv = randomBytes(12);
  const cipher = createCipheriv('aes-256-gcm', current.key, iv);
  cipher.setAAD(Buffer.from(shopId));
  const data = Buffer.concat([cipher.update(token, 'utf8'), cipher.final()]);
  return { keyId: current.id, ciphertext: `${b64(iv)}.${b64(cipher.getAuthTag())}.${b64(data)}` };
}

/** Decrypts with the key named `keyId`; null when that key is gone or the ciphertext does not authenticate. */
export function decryptToken(keys: TokenKey[], shopId: string, keyId: string, ciphertext: string): string | null {
  const key = keys.find((k) => k.id === keyId);
  const [iv, tag, data] = ciphertext.split('.').map((part) => Buffer.from(part, 'base64url'));
  if (!key || !iv || !tag || !data) return null;
  try {
    const decipher = createDecipheriv('aes-256-gcm', key.key, iv);
    decipher.setAAD(Buffer.from(shopId));
    decipher.setAuthTag(tag);
    return Buffer.concat([decipher.update(data), decipher.final()]).toString('utf8');
  } catch {
    return null;
  }
}

const nowIso = (deps: Pick<AppDeps, 'now'>): string => (deps.now?.() ?? new Date()).toISOString();

/** Stores (or replaces) the shop's token, encrypted, with the scopes granted. */
export async function storeAccessToken(deps: Pick<AppDeps, 'db' | 'accessTokens' | 'auth' | 'now'>, shopId: string, token: string, scopes: string[]): Promise<void> {
  const { keyId, ciphertext } = encryptToken(tokenKeys(deps), shopId, token);
  const now = nowIso(deps);
  const row = { shop_id: shopId, ciphertext, key_id: keyId, scopes: scopes.join(','), created_at: now, updated_at: now, revoked_at: null };
  await deps.db
    .insertInto('shop_access_tokens')
    .values(row)
    .onConflict((oc) => oc.column('shop_id').doUpdateSet({ ciphertext, key_id: keyId, scopes: row.scopes, updated_at: now, revoked_at: null }))
    .execute();
}

const reinstall = (): ApiError => new ApiError(401, 'reinstall_required', 'The app no longer has access to this shop. Install it again to continue.');

/**
 * The shop's offline access token, decrypted. A token read with an older key is re-encrypted with
 * the current one on the way.
 * @throws ApiError 401 `reinstall_required` when the shop has none, it was revoked, or no key in the list decrypts it
 */
export async function accessToken(deps: Pick<AppDeps, 'db' | 'accessTokens' | 'auth' | 'now'>, shopId: string): Promise<string> {
  const row = await deps.db.selectFrom('shop_access_tokens').selectAll().where('shop_id', '=', shopId).executeTakeFirst();
  if (!row || row.revoked_at || !row.ciphertext || !row.key_id) throw reinstall();
  const keys = tokenKeys(deps);
  const token = decryptToken(keys, shopId, row.key_id, row.ciphertext);
  if (token === null) throw reinstall();
  if (row.key_id !== keys[0]?.id) {
    const next = encryptToken(keys, shopId, token);
    await deps.db.updateTable('shop_access_tokens').set({ ciphertext: next.ciphertext, key_id: next.keyId }).where('shop_id', '=', shopId).where('key_id', '=', row.key_id).execute();
  }
  return token;
}

/**
 * Forgets the shop's token (the `app/uninstalled` webhook, or the platform refusing it): the
 * ciphertext is erased and the row marked revoked, so `accessToken` answers `reinstall_required`
 * and the admin shows the reinstall screen. Idempotent; a shop without a row gets a revoked one.
 */
export async function revokeAccessToken(db: Db, shopId: string, now: string = new Date().toISOString()): Promise<void> {
  await db
    .insertInto('shop_access_tokens')
    .values({ shop_id: shopId, ciphertext: null, key_id: null, scopes: '', created_at: now, updated_at: now, revoked_at: now })
    .onConflict((oc) => oc.column('shop_id').doUpdateSet({ ciphertext: null, key_id: null, updated_at: now, revoked_at: now }))
    .execute();
}

/**
 * Re-encrypts every stored token with the first key (the end of a rotation). Answers how many rows
 * moved and how many no key could read (those shops will be asked to reinstall).
 */
export async function rotateAccessTokens(deps: Pick<AppDeps, 'db' | 'accessTokens' | 'auth'>): Promise<{ rotated: number; unreadable: number }> {
  const keys = tokenKeys(deps);
  const rows = await deps.db.selectFrom('shop_access_tokens').selectAll().where('revoked_at', 'is', null).execute();
  let rotated = 0;
  let unreadable = 0;
  for (const row of rows) {
    if (!row.ciphertext || !row.key_id || row.key_id === keys[0]?.id) continue;
    const token = decryptToken(keys, row.shop_id, row.key_id, row.ciphertext);
    if (token === null) {
      unreadable++;
      continue;
    }
    const next = encryptToken(keys, row.shop_id, token);
    await deps.db.updateTable('shop_access_tokens').set({ ciphertext: next.ciphertext, key_id: next.keyId }).where('shop_id', '=', row.shop_id).execute();
    rotated++;
  }
  return { rotated, unreadable };
}

/**
 * Where the shop's token stands, for the admin's reinstall banner. In demo mode a shop without a
 * token needs nothing (the local adapters never call the platform); a revoked one still needs a
 * reinstall.
 */
export async function accessStatus(deps: Pick<AppDeps, 'db' | 'auth'>, shopId: string): Promise<AccessStatus> {
  const row = await deps.db.selectFrom('shop_access_tokens').select(['scopes', 'revoked_at', 'ciphertext']).where('shop_id', '=', shopId).executeTakeFirst();
  const state: AccessStatus['state'] = !row ? 'missing' : row.revoked_at || !row.ciphertext ? 'revoked' : 'ok';
  const scopes = row && state === 'ok' ? row.scopes.split(',').filter(Boolean) : [];
  const missingScopes = state === 'ok' ? ACCESS_SCOPES.filter((s) => !scopes.includes(s) && !impliedBy(s, scopes)) : [...ACCESS_SCOPES];
  const needsReinstall = state === 'revoked' || (state === 'missing' && !deps.auth.demo);
  return { state, scopes, missingScopes, needsReinstall };
}

/** `read_x` is granted by `write_x` (the platform's rule). */
function impliedBy(scope: string, granted: string[]): boolean {
  return scope.startsWith('read_') && granted.includes(`write_${scope.slice(5)}`);
}

/** Answers of the platform's token endpoint: `{ access_token, scope }`. */
async function callTokenEndpoint(deps: Pick<AppDeps, 'accessTokens'>, shopId: string, body: Record<string, string>): Promise<{ token: string; scopes: string[] }> {
  const fetchFn: Fetch = deps.accessTokens?.fetch ?? ((input, init) => fetch(input, init));
  let response: Response;
  try {
    response = await fetchFn(`https://${shopId}/admin/oauth/access_token`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json', Accept: 'application/json' },
      body: JSON.stringify(body),
      signal: AbortSignal.timeout(15_000),
    });
  } catch (e) {
    throw new ApiError(502, 'platform_unavailable', `The platform could not be reached: ${(e as Error).message}`);
  }
  if (response.status === 400 || response.status === 401 || response.status === 403) throw reinstall();
  if (!response.ok) throw new ApiError(502, 'platform_unavailable', `The platform answered ${response.status}`);
  const answer = (await response.json().catch(() => ({}))) as { access_token?: unknown; scope?: unknown };
  if (typeof answer.access_token !== 'string' || !answer.access_token) throw new ApiError(502, 'platform_unavailable', 'The platform answered without an access token');
  return { token: answer.access_token, scopes: typeof answer.scope === 'string' ? answer.scope.split(',').map((s) => s.trim()).filter(Boolean) : [] };
}

/**
 * Token exchange (embedded mode): trades the admin's session token (already verified by the
 * caller) for an offline access token and stores it.
 * @returns the granted scopes
 * @throws ApiError 401 `reinstall_required` when the platform refuses (the app is not installed), 502 `platform_unavailable`
 */
export async function exchangeSessionToken(deps: Pick<AppDeps, 'db' | 'accessTokens' | 'auth' | 'now'>, shopId: string, sessionToken: string): Promise<string[]> {
  const { token, scopes } = await callTokenEndpoint(deps, shopId, {
    client_id: deps.auth.apiKey,
    client_secret: deps.auth.apiSecret,
    grant_type: 'urn:ietf:params:oauth:grant-type:token-exchange',
    subject_token: sessionToken,
    subject_token_type: 'urn:ietf:params:oauth:token-type:id_token',
    requested_token_type: 'urn:shopify:params:oauth:token-type:offline-access-token',
  });
  await storeAccessToken(deps, shopId, token, scopes);
  return scopes;
}

/**
 * Starts a standalone install: stores a one-time `state` (10 minutes) and answers the platform's
 * authorize URL asking for ACCESS_SCOPES (and B2B_SCOPES with `b2b`).
 * @throws ApiError 400 `invalid_shop` for anything but `<name>.myshopify.com`
 */
export async function beginInstall(deps: Pick<AppDeps, 'db' | 'auth' | 'now'>, shop: string, redirectUri: string, options: { b2b?: boolean } = {}): Promise<string> {
  const shopId = shop.trim().toLowerCase();
  if (!isShopDomain(shopId)) throw new ApiError(400, 'invalid_shop', 'Enter the shop as name.myshopify.com', [{ path: '/shop', message: 'Enter the shop as name.myshopify.com' }]);
  const state = randomBytes(24).toString('base64url');
  const now = deps.now?.() ?? new Date();
  await deps.db.deleteFrom('install_states').where('expires_at', '<', now.toISOString()).execute();
  await deps.db.insertInto('install_states').values({ state, shop_id: shopId, expires_at: new Date(now.getTime() + INSTALL_STATE_TTL_SECONDS * 1000).toISOString() }).execute();
  const scopes = [...ACCESS_SCOPES, ...(options.b2b ? B2B_SCOPES : [])].join(',');
  const params = new URLSearchParams({ client_id: deps.auth.apiKey, scope: scopes, redirect_uri: redirectUri, state });
  return `https://${shopId}/admin/oauth/authorize?${params.toString()}`;
}

/**
 * The platform's query HMAC: every parameter but `hmac` and `signature`, sorted by name,
 * `name=value` joined with `&`, HMAC-SHA256 hex with the app secret.
 */
export function queryHmac(params: Record<string, string>, secret: string): string {
  const message = Object.keys(params)
    .filter((k) => k !== 'hmac' && k !== 'signature')
    .sort()
    .map((k) => `${k}=${params[k] ?? ''}`)
    .join('&');
  return createHmac('sha256', secret).update(message).digest('hex');
}

function hmacMatches(params: Record<string, string>, secrets: string[]): boolean {
  const given = Buffer.from(params.hmac ?? '', 'utf8');
  return secrets.some((secret) => {
    const expected = Buffer.from(queryHmac(params, secret), 'utf8');
    return given.length === expected.length && timingSafeEqual(given, expected);
  });
}

/**
 * Finishes a standalone install from the callback's query: checks the HMAC (current or previous
 * app secret), the shop domain and the one-time state (same shop, not expired), then trades the
 * code for an offline token and stores it.
 * @returns the shop id
 * @throws ApiError 400 `invalid_install` (bad HMAC, shop, state or missing code), 401 `reinstall_required` / 502 from the token endpoint
 */
export async function completeInstall(deps: Pick<AppDeps, 'db' | 'accessTokens' | 'auth' | 'now'>, params: Record<string, string>): Promise<string> {
  const bad = (why: string): ApiError => new ApiError(400, 'invalid_install', `The install could not be verified: ${why}. Start the install again.`);
  const secrets = [deps.auth.apiSecret, ...(deps.auth.previousApiSecret ? [deps.auth.previousApiSecret] : [])];
  if (!hmacMatches(params, secrets)) throw bad('the signature does not match');
  const shopId = (params.shop ?? '').toLowerCase();
  if (!isShopDomain(shopId)) throw bad('the shop is not a shop domain');
  if (!params.code) throw bad('the authorization code is missing');
  const state = params.state ?? '';
  // Used once: delete first, and only a deleted row counts.
  const row = await deps.db.selectFrom('install_states').selectAll().where('state', '=', state).executeTakeFirst();
  const deleted = await deps.db.deleteFrom('install_states').where('state', '=', state).executeTakeFirst();
  const now = (deps.now?.() ?? new Date()).toISOString();
  if (!row || Number(deleted.numDeletedRows) !== 1 || row.shop_id !== shopId || row.expires_at < now) throw bad('the state is unknown, used or expired');
  const { token, scopes } = await callTokenEndpoint(deps, shopId, { client_id: deps.auth.apiKey, client_secret: deps.auth.apiSecret, code: params.code });
  await storeAccessToken(deps, shopId, token, scopes);
  return shopId;
}
