/**
 * The wallet pass calls (server/routes/wallet.ts, spec 002 §2 "Generate pass wallet"). The design
 * and the Google Wallet settings are documents, read and saved by the generic editor.
 */
import { request } from '../../../api/client';
import type { FilledWalletPass } from '../../../../engine/wallet-pass';

/** The pass design's kind and the Google Wallet settings' kind (one document per shop each). */
export const WALLET_PASS_KIND = 'membership.wallet_pass';
export const GOOGLE_WALLET_KIND = 'integration.google_wallet';

/** A generated pass: the filled pass, plus the "Save to Google Wallet" link or a file to download. */
export interface GeneratedWalletPass {
  pass: FilledWalletPass;
  provider: 'local' | 'google';
  saveUrl: string | null;
  file: { filename: string; mediaType: string; base64: string } | null;
}

/** One customer's entry of a bulk generation: the pass, or `not_found` for an id the shop no longer has. */
export interface BulkWalletPass {
  customerId: string;
  error: 'not_found' | null;
  answer: GeneratedWalletPass | null;
}

/** The Google Wallet connection; never the key. */
export interface GoogleWalletState {
  state: 'not_connected' | 'invalid_key' | 'connected';
  issuerId: string | null;
  serviceAccountEmail: string | null;
}

export const walletApi = {
  /** `POST /api/customers/:id/wallet-pass`; 404 unknown customer, 409 `wallet_pass_not_designed` and Google's refusals. */
  generate: (customerId: string) => request<{ data: GeneratedWalletPass }>(`/api/customers/${encodeURIComponent(customerId)}/wallet-pass`, { method: 'POST' }).then((r) => r.data),
  /** `POST /api/customers/wallet-passes` `{ ids }` (1–100): each customer's pass in order; 409 `wallet_pass_not_designed` and Google's refusals. */
  generateMany: (customerIds: readonly string[]) => request<{ data: BulkWalletPass[] }>('/api/customers/wallet-passes', { method: 'POST', body: { ids: customerIds } }).then((r) => r.data),
  /** `GET /api/wallet/google`. */
  googleState: () => request<{ data: GoogleWalletState }>('/api/wallet/google').then((r) => r.data),
};
