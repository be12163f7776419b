/**
 * Wallet passes for customers (spec 002 §2 customers list action "Generate pass wallet" and
 * "Wallet pass designer", §3 "Wallet pass"; spec 000 §2 `/customers/wallet`,
 * `/customers/wallet/google`): fills the shop's pass design (`membership.wallet_pass`,
 * engine/wallet-pass.ts) with a customer's values and issues it through a wallet adapter
 * (server/platform/wallet.ts): Google Wallet when the shop connected it
 * (`integration.google_wallet`), else the local adapter's downloadable card.
 */
import { fillWalletPass, WALLET_PASS_KIND, type FilledWalletPass, type WalletPassDesign } from '../../engine/wallet-pass';
import type { JsonObject } from '../../engine/types';
import type { AppDeps } from '../deps';
import { ApiError, notFound } from '../errors';
import { GoogleWallet, LocalWallet, parseServiceAccountKey, type WalletAdapter, type WalletPassIssue } from '../platform/wallet';
import { listDocuments } from '../store/documents';
import { findShop } from '../store/shops';
import { customerProfile } from './customers';
import { findReferralLink } from './referrals';

/** The kind holding the shop's Google Wallet settings (issuer id, write-only service account key). */
export const GOOGLE_WALLET_KIND = 'integration.google_wallet';

/** What `POST /customers/:id/wallet-pass` answers: the filled pass and how to get it into a wallet. */
export interface WalletPassAnswer extends WalletPassIssue {
  pass: FilledWalletPass;
}

/**
 * The Google Wallet connection as the admin shows it: `not_connected` (no settings saved),
 * `invalid_key` (saved, but the key is not a service account JSON key), or `connected`. Never
 * the key itself; the service account's e-mail is not a secret.
 */
export interface GoogleWalletState {
  state: 'not_connected' | 'invalid_key' | 'connected';
  issuerId: string | null;
  serviceAccountEmail: string | null;
}

async function googleSettings(deps: AppDeps, shopId: string): Promise<{ issuerId: string; secret: string } | null> {
  const [doc] = await listDocuments(deps.db, shopId, [GOOGLE_WALLET_KIND]);
  const data = (doc?.data ?? {}) as JsonObject;
  return typeof data.appKey === 'string' && data.appKey && typeof data.secretKey === 'string' && data.secretKey ? { issuerId: data.appKey, secret: data.secretKey } : null;
}

/** The shop's Google Wallet connection (see GoogleWalletState). */
export async function googleWalletState(deps: AppDeps, shopId: string): Promise<GoogleWalletState> {
  const settings = await googleSettings(deps, shopId);
  if (!settings) return { state: 'not_connected', issuerId: null, serviceAccountEmail: null };
  try {
    const key = parseServiceAccountKey(settings.secret);
    return { state: 'connected', issuerId: settings.issuerId, serviceAccountEmail: key.client_email };
  } catch {
    return { state: 'invalid_key', issuerId: settings.issuerId, serviceAccountEmail: null };
  }
}

/**
 * The adapter for `shopId`: Google Wallet when its settings are saved (a key that is not a
 * service account key is a 409 `google_wallet_key_invalid`), else the local adapter — in demo
 * mode, in tests and for shops that did not connect Google Wallet alike.
 */
export async function walletAdapterFor(deps: AppDeps, shopId: string): Promise<WalletAdapter> {
  const settings = await googleSettings(deps, shopId);
  if (!settings) return new LocalWallet();
  return new GoogleWallet({ issuerId: settings.issuerId, key: parseServiceAccountKey(settings.secret) });
}

/**
 * Generates `customerId`'s pass: the design filled with their values (points grouped en-US, dates
 * in the store's time zone) and the adapter's link or file.
 * @throws ApiError 404 `not_found` for a customer the shop does not have; 409 `wallet_pass_not_designed`
 *   before the pass is designed; the adapter's 409s (GoogleWallet.issue)
 */
export async function generateWalletPass(deps: AppDeps, shopId: string, customerId: string): Promise<WalletPassAnswer> {
  const profile = await customerProfile(deps, shopId, customerId);
  if (!profile) throw notFound('not_found', 'This customer does not exist');
  const [designDoc] = await listDocuments(deps.db, shopId, [WALLET_PASS_KIND]);
  if (!designDoc) throw new ApiError(409, 'wallet_pass_not_designed', 'Design the wallet pass first (Customers › Wallet pass)');
  const checked = deps.registry.get(WALLET_PASS_KIND)?.validate(designDoc.data);
  const design = (checked?.ok ? checked.data : designDoc.data) as unknown as WalletPassDesign;
  const [shop, link] = await Promise.all([findShop(deps.db, shopId), findReferralLink(deps.db, shopId, customerId)]);
  const pass = fillWalletPass(
    design,
    {
      id: profile.id,
      firstName: profile.firstName,
      lastName: profile.lastName,
      email: profile.email,
      phone: profile.phone,
      birthday: profile.birthday,
      points: profile.points,
      pendingPoints: profile.pendingPoints,
      lifetimePoints: profile.lifetimePoints,
      tierName: profile.tierName,
      memberSince: profile.createdAt,
      referralCode: link?.code ?? null,
    },
    { locale: 'en-US', timeZone: shop?.iana_timezone || 'UTC' },
  );
  const adapter = await walletAdapterFor(deps, shopId);
  const issued = await adapter.issue({ shopId, shopName: shop?.name || shopId, pass, issuedAt: (deps.now ?? (() => new Date()))() });
  return { pass, ...issued };
}
