/**
 * Wallet passes (spec 002 §2 "Generate pass wallet"; server/services/wallet.ts):
 * - `POST /customers/:id/wallet-pass` answers `{ data: { pass, provider, saveUrl, file } }`: the
 *   pass filled from the customer, plus the "Save to Google Wallet" link (Google connected) or an
 *   SVG card to download (local adapter). 404 `not_found` for an unknown customer, 409
 *   `wallet_pass_not_designed` before the pass is designed, 409 `wallet_pass_logo_missing` /
 *   `google_wallet_key_invalid` when Google Wallet cannot issue it.
 * - `POST /customers/wallet-passes` `{ ids }` (1–100 customer ids; the customers list's "Generate
 *   pass wallet"): `{ data: [{ customerId, error, answer }] }`, each `answer` as above or `error:
 *   'not_found'`; 422 at `/ids` for a bad list, 409 `wallet_pass_not_designed` before the design.
 * - `GET /wallet/google` answers the Google Wallet connection (`GoogleWalletState`), never the key.
 * The design and the Google settings themselves are documents (`/kinds/membership.wallet_pass/docs`,
 * `/kinds/integration.google_wallet/docs`).
 */
import { Hono } from 'hono';
import type { AppDeps, AppEnv } from '../deps';
import { ApiError } from '../errors';
import { readJsonBody } from './body';
import { BULK_WALLET_PASSES_MAX, generateWalletPass, generateWalletPasses, googleWalletState } from '../services/wallet';

/**
 * The `ids` of a bulk request: 1 to BULK_WALLET_PASSES_MAX distinct customer ids.
 * @throws ApiError 422 `validation_failed` at `/ids` (or `/ids/<n>`) otherwise
 */
function bulkIds(body: Record<string, unknown>): string[] {
  const ids = body.ids;
  const refuse = (path: string, message: string) => new ApiError(422, 'validation_failed', 'Value invalid', [{ path, message }]);
  if (!Array.isArray(ids) || ids.length === 0 || ids.length > BULK_WALLET_PASSES_MAX) throw refuse('/ids', `Must list 1 to ${BULK_WALLET_PASSES_MAX} customer ids`);
  ids.forEach((id, i) => {
    if (typeof id !== 'string' || id === '' || id.length > 64) throw refuse(`/ids/${i}`, 'Must be a customer id');
  });
  return [...new Set(ids as string[])];
}

export function walletRoutes(deps: AppDeps): Hono<AppEnv> {
  const app = new Hono<AppEnv>();
  app.post('/customers/wallet-passes', async (c) => c.json({ data: await generateWalletPasses(deps, c.get('shopId'), bulkIds(await readJsonBody(c))) }));
  app.post('/customers/:id/wallet-pass', async (c) => c.json({ data: await generateWalletPass(deps, c.get('shopId'), c.req.param('id')) }));
  app.get('/wallet/google', async (c) => c.json({ data: await googleWalletState(deps, c.get('shopId')) }));
  return app;
}
