/**
 * Referrals in the admin (issue 11; spec 002 §2 Referral whitelist and Customer detail referrals):
 * - `GET /referrals/whitelist?search=&sort=&limit=&page=` → `{ data: WhitelistEntry[], total }`
 *   (`search` a full e-mail, any case; `sort` added_desc (default), added_asc, email_asc,
 *   email_desc; `limit` 10, 20, 50 or 100; `page` from 1);
 * - `POST /referrals/whitelist` `{ email }` or `{ customerId }` → `{ data: WhitelistEntry }`
 *   (404 `customer_not_found` at the field);
 * - `POST /referrals/whitelist/remove` `{ customerIds: string[1..250] }` → `{ data: { removed } }`;
 * - `GET /referrals/customers/:id` → `{ data: { link, referrals, referredBy } }`;
 * - `POST /referrals/customers/:id/link` → `{ data: { url, code, createdAt } }` (409
 *   `referral_limit` "You have reached the referral limit", `referral_link_failed` "Failed to
 *   create referral link"; 409 `referral_program_inactive` when the program is off);
 * - `GET /privacy/data-requests`, `GET /privacy/data-requests/:id` → the customers' data requests
 *   the platform sent (customers/data_request, server/services/privacy.ts), the second with the
 *   customer's data to hand over.
 */
import { Hono } from 'hono';
import type { AppDeps, AppEnv } from '../deps';
import { ApiError } from '../errors';
import { addToWhitelist, customerReferrals, listWhitelist, referralLink, removeFromWhitelist, WHITELIST_SORTS, type WhitelistSort } from '../services/referrals';
import { findDataRequest, listDataRequests } from '../services/privacy';
import { readJsonBody } from './body';

const PAGE_SIZES = [10, 20, 50, 100];

const invalid = (path: string, message: string): ApiError => new ApiError(400, 'invalid_query', 'Value invalid', [{ path, message }]);

export function referralRoutes(deps: AppDeps): Hono<AppEnv> {
  const app = new Hono<AppEnv>();
  const now = (): string => (deps.now ?? (() => new Date()))().toISOString();

  app.get('/referrals/whitelist', async (c) => {
    const sort = c.req.query('sort') || 'added_desc';
    if (!(WHITELIST_SORTS as readonly string[]).includes(sort)) throw invalid('sort', `Must be one of ${WHITELIST_SORTS.join(', ')}`);
    const limit = Number(c.req.query('limit') || 20);
    if (!PAGE_SIZES.includes(limit)) throw invalid('limit', `Must be one of ${PAGE_SIZES.join(', ')}`);
    const page = Number(c.req.query('page') || 1);
    if (!Number.isSafeInteger(page) || page < 1) throw invalid('page', 'Must be a whole number from 1');
    const search = (c.req.query('search') ?? '').slice(0, 320);
    return c.json(await listWhitelist(deps.db, c.get('shopId'), { search, sort: sort as WhitelistSort, limit, page }));
  });

  app.post('/referrals/whitelist', async (c) => {
    const body = await readJsonBody(c);
    const email = typeof body.email === 'string' ? body.email.slice(0, 320) : undefined;
    const customerId = typeof body.customerId === 'string' ? body.customerId.slice(0, 64) : undefined;
    const entry = await addToWhitelist(deps.db, c.get('shopId'), { ...(email ? { email } : {}), ...(customerId ? { customerId } : {}) }, `admin:${c.get('userId') || 'unknown'}`, now());
    return c.json({ data: entry, message: 'Saved successfully' });
  });

  app.post('/referrals/whitelist/remove', async (c) => {
    const body = await readJsonBody(c);
    const ids = body.customerIds;
    if (!Array.isArray(ids) || ids.length === 0 || ids.length > 250 || !ids.every((id): id is string => typeof id === 'string' && id.length > 0 && id.length <= 64)) {
      throw new ApiError(422, 'validation_failed', 'Value invalid', [{ path: '/customerIds', message: 'Select between 1 and 250 customers' }]);
    }
    const removed = await removeFromWhitelist(deps.db, c.get('shopId'), ids);
    return c.json({ data: { removed }, message: 'Removed successfully' });
  });

  app.get('/referrals/customers/:id', async (c) => c.json({ data: await customerReferrals(deps.db, c.get('shopId'), c.req.param('id')) }));

  app.post('/referrals/customers/:id/link', async (c) => {
    const link = await referralLink(deps, c.get('shopId'), c.req.param('id'));
    if (!link) throw new ApiError(409, 'referral_program_inactive', 'Failed to create referral link', [{ path: '', message: 'The referral program is not active' }]);
    return c.json({ data: link });
  });

  app.get('/privacy/data-requests', async (c) => c.json({ data: await listDataRequests(deps.db, c.get('shopId')) }));
  app.get('/privacy/data-requests/:id', async (c) => {
    const found = await findDataRequest(deps.db, c.get('shopId'), c.req.param('id'));
    if (!found) throw new ApiError(404, 'not_found', 'No such data request');
    return c.json({ data: found });
  });
  return app;
}
