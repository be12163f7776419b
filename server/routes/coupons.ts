/**
 * Coupons in the admin (issue 11; spec 002 §3 Coupon history, §4 revoke, §5 "Revoke coupon requires
 * an admin note"): `GET /customers/:id/coupons` (the customer's coupons, newest first) and
 * `POST /coupons/:id/revoke` `{ note }` (revokes, refunds the points, deletes the platform discount).
 */
import { Hono, type Context } from 'hono';
import type { AppDeps, AppEnv } from '../deps';
import { ApiError } from '../errors';
import { listCustomerCoupons, REVOKE_NOTE_MAX, revokeCoupon } from '../services/redemption';
import { readJsonBody } from './body';

/** The actor recorded with a merchant's action: the staff user from the session token. */
const actorOf = (c: Context<AppEnv>): string => `admin:${c.get('userId') || 'unknown'}`;

export function couponRoutes(deps: AppDeps): Hono<AppEnv> {
  const app = new Hono<AppEnv>();
  app.get('/customers/:id/coupons', async (c) => c.json({ data: await listCustomerCoupons(deps, c.get('shopId'), c.req.param('id')) }));
  app.post('/coupons/:id/revoke', async (c) => {
    const body = await readJsonBody(c);
    const note = body.note;
    if (typeof note !== 'string' || note.trim().length === 0 || note.length > REVOKE_NOTE_MAX) {
      throw new ApiError(422, 'validation_failed', 'Revoking a coupon needs an admin note', [
        { path: '/note', message: typeof note === 'string' && note.length > REVOKE_NOTE_MAX ? `Must be at most ${REVOKE_NOTE_MAX} characters` : 'This field is required' },
      ]);
    }
    return c.json({ data: await revokeCoupon(deps, c.get('shopId'), c.req.param('id'), { by: 'admin', actor: actorOf(c), note: note.trim() }) });
  });
  return app;
}
