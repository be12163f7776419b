/**
 * Wallet passes (spec 002 §2 "Generate pass wallet"; server/services/wallet.ts):
 * - `POST /customers/:id/wallet-pass` answers `{ data: { pass, provider, saveUrl, file } }`: the
 *   pass filled from the customer, plus the "Save to Google Wallet" link (Google connected) or an
 *   SVG card to download (local adapter). 404 `not_found` for an unknown customer, 409
 *   `wallet_pass_not_designed` before the pass is designed, 409 `wallet_pass_logo_missing` /
 *   `google_wallet_key_invalid` when Google Wallet cannot issue it.
 * - `GET /wallet/google` answers the Google Wallet connection (`GoogleWalletState`), never the key.
 * The design and the Google settings themselves are documents (`/kinds/membership.wallet_pass/docs`,
 * `/kinds/integration.google_wallet/docs`).
 */
import { Hono } from 'hono';
import type { AppDeps, AppEnv } from '../deps';
import { generateWalletPass, googleWalletState } from '../services/wallet';

export function walletRoutes(deps: AppDeps): Hono<AppEnv> {
  const app = new Hono<AppEnv>();
  app.post('/customers/:id/wallet-pass', async (c) => c.json({ data: await generateWalletPass(deps, c.get('shopId'), c.req.param('id')) }));
  app.get('/wallet/google', async (c) => c.json({ data: await googleWalletState(deps, c.get('shopId')) }));
  return app;
}
