/**
 * Storefront API calls under `/proxy/*` (issue 11, docs/storefront-api.md): redeem, coupons, revoke (redemption helper).
 * Mounted by server/proxy/routes.ts behind the app-proxy signature check.
 *
 * - `POST /proxy/redeem` `{ rewardId, points?, variantId? }` (header `Idempotency-Key`) → `{ data: { coupon, points } }`
 * - `GET /proxy/coupons` → `{ data: coupon[] }` (newest first; guests get an empty list)
 * - `POST /proxy/coupons/:id/revoke` → `{ data: { coupon, points } }`
 */
import { Hono, type Context } from 'hono';
import type { FieldIssue } from '../../engine/types';
import type { AppDeps } from '../deps';
import { ApiError } from '../errors';
import { idempotencyKeyOf } from '../idempotency';
import { readJsonBody } from '../routes/body';
import { listShopperCoupons, redeem, revokeCoupon, type RedeemInput } from '../services/redemption';
import type { ProxyEnv } from './middleware';

const ID_MAX = 64;

/** The signed-in shopper; guests are refused with 401 `login_required`. */
function shopperOf(c: Context<ProxyEnv>): string {
  const id = c.var.customerId;
  if (!id) throw new ApiError(401, 'login_required', 'Please log in to redeem rewards');
  return id;
}

/** Reads `{ rewardId, points?, variantId? }`. Throws 422 `validation_failed` naming every bad field. */
function redeemInputOf(body: Record<string, unknown>): RedeemInput {
  const issues: FieldIssue[] = [];
  const { rewardId, points, variantId, ...rest } = body;
  if (typeof rewardId !== 'string' || rewardId.length === 0 || rewardId.length > ID_MAX) issues.push({ path: '/rewardId', message: 'Reward program is blank' });
  if (points !== undefined && (typeof points !== 'number' || !Number.isInteger(points))) issues.push({ path: '/points', message: 'Must be a whole number of points' });
  if (variantId !== undefined && (typeof variantId !== 'string' || variantId.length === 0 || variantId.length > ID_MAX)) issues.push({ path: '/variantId', message: 'Variant is required' });
  for (const k of Object.keys(rest)) issues.push({ path: `/${k}`, message: 'Unknown field' });
  if (issues.length > 0) throw new ApiError(422, 'validation_failed', issues[0]!.message, issues);
  return { rewardId: rewardId as string, ...(points !== undefined ? { points: points as number } : {}), ...(variantId !== undefined ? { variantId: variantId as string } : {}) };
}

/** The calls of this area; `c.var.shopId` and `c.var.customerId` (null = guest) are verified. */
export function redeemProxyRoutes(deps: AppDeps): Hono<ProxyEnv> {
  const app = new Hono<ProxyEnv>();
  app.post('/redeem', async (c) => {
    const customerId = shopperOf(c);
    const key = idempotencyKeyOf(c.req.header('Idempotency-Key'));
    const input = redeemInputOf(await readJsonBody(c));
    return c.json({ data: await redeem(deps, c.var.shopId, customerId, input, key) });
  });
  app.get('/coupons', async (c) => {
    const customerId = c.var.customerId;
    return c.json({ data: customerId ? await listShopperCoupons(deps, c.var.shopId, customerId) : [] });
  });
  app.post('/coupons/:id/revoke', async (c) => {
    const customerId = shopperOf(c);
    return c.json({ data: await revokeCoupon(deps, c.var.shopId, c.req.param('id'), { by: 'customer', customerId }) });
  });
  return app;
}
