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
import { openSecret } from './sealed-secrets';

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
  const secret = openSecret(deps, shopId, data.secretKey);
  return typeof data.appKey === 'string' && data.appKey && secret ? { issuerId: data.appKey, secret } : null;
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

/** What every pass of a shop is made with: its design, its name and time zone, and the adapter. */
interface PassContext {
  design: WalletPassDesign;
  shopName: string;
  timeZone: string;
  adapter: WalletAdapter;
}

/**
 * The shop's pass context.
 * @throws ApiError 409 `wallet_pass_not_designed` before the pass is designed
 */
async function passContext(deps: AppDeps, shopId: string): Promise<PassContext> {
  const [designDoc] = await listDocuments(deps.db, shopId, [WALLET_PASS_KIND]);
  if (!designDoc) throw new ApiError(409, 'wallet_pass_not_designed', 'Design the wallet pass first (Customers › Wallet pass)');
  const checked = deps.registry.get(WALLET_PASS_KIND)?.validate(designDoc.data);
  const design = (checked?.ok ? checked.data : designDoc.data) as unknown as WalletPassDesign;
  const [shop, adapter] = await Promise.all([findShop(deps.db, shopId), walletAdapterFor(deps, shopId)]);
  return { design, shopName: shop?.name || shopId, timeZone: shop?.iana_timezone || 'UTC', adapter };
}

/**
 * One customer's pass in `context`, or null for a customer the shop does not have.
 * @throws the adapter's ApiError 409s (GoogleWallet.issue)
 */
async function issuePass(deps: AppDeps, shopId: string, customerId: string, context: PassContext): Promise<WalletPassAnswer | null> {
  const [profile, link] = await Promise.all([customerProfile(deps, shopId, customerId), findReferralLink(deps.db, shopId, customerId)]);
  if (!profile) return null;
  const pass = fillWalletPass(
    context.design,
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
    { locale: 'en-US', timeZone: context.timeZone },
  );
  const issued = await context.adapter.issue({ shopId, shopName: context.shopName, pass, issuedAt: (deps.now ?? (() => new Date()))() });
  return { pass, ...issued };
}

/**
 * Generates `customerId`'s pass: the design filled with their values (points grouped en-US, dates
 * in the store's time zone) and the adapter's link or file.
 * @throws ApiError 404 `not_found` for a customer the shop does not have; 409 `wallet_pass_not_designed`
 *   before the pass is designed; the adapter's 409s (GoogleWallet.issue)
 */
export async function generateWalletPass(deps: AppDeps, shopId: string, customerId: string): Promise<WalletPassAnswer> {
  // Whether the customer exists first (a 404 before the 409 of an undesigned pass), by key only:
  // issuePass reads the whole profile once.
  const exists = await deps.db.selectFrom('customers').select('id').where('shop_id', '=', shopId).where('id', '=', customerId).executeTakeFirst();
  if (!exists) throw notFound('not_found', 'This customer does not exist');
  const answer = await issuePass(deps, shopId, customerId, await passContext(deps, shopId));
  if (!answer) throw notFound('not_found', 'This customer does not exist');
  return answer;
}

/** At most this many customers' passes per bulk request (the customers list's largest page is 100). */
export const BULK_WALLET_PASSES_MAX = 100;

/** One customer's entry of a bulk generation: the pass, or `error: 'not_found'` for a customer the shop does not have. */
export type BulkWalletPass = { customerId: string } & ({ error: null; answer: WalletPassAnswer } | { error: 'not_found'; answer: null });

/**
 * The passes of `customerIds` (the customers list's "Generate pass wallet", spec 002 §2 list
 * actions), in the order asked, one context for all: each the same as `generateWalletPass` would
 * answer, or `not_found` for an id the shop does not have (the others are still made).
 * @throws ApiError 409 `wallet_pass_not_designed` before the pass is designed; the adapter's 409s
 */
export async function generateWalletPasses(deps: AppDeps, shopId: string, customerIds: readonly string[]): Promise<BulkWalletPass[]> {
  const context = await passContext(deps, shopId);
  const out: BulkWalletPass[] = [];
  for (const customerId of customerIds) {
    const answer = await issuePass(deps, shopId, customerId, context);
    out.push(answer ? { customerId, error: null, answer } : { customerId, error: 'not_found', answer: null });
  }
  return out;
}
