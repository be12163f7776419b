/**
 * Plans and billing calls (spec 000 §7; issue 12), mounted under `/api`:
 * - `GET /subscription`: the shop's plan, subscription, history, this month's orders, paused programs
 * - `GET /subscription/plans`: the plan offers (monthly and annual prices, trial days, allowances, features)
 * - `GET /subscription/shopify/subscribe/:planId?interval=monthly|annual&discountCode=`: subscribe;
 *   answers `{ confirmationUrl, isRedirect, subscriptionId, change }` (free plan: no redirect, `change`)
 * - `GET /subscription/preview/:planId`: the programs that plan would pause (the /downSell page)
 * - `POST /subscription/confirm` `{ subscriptionId, chargeId }`: the return from the platform, verified
 * - `POST /subscription/cancel`: back to the free plan
 * - `POST /subscription/promo` `{ code, planId }`: checks a promo code (422 "Invalid coupon code")
 * - `POST /subscription/local-charges/:chargeId/approve|decline`: the local adapter's confirmation page
 * - `GET /subscription/offers`: the sale popup, the head start, the milestone trial and the
 *   onboarding call (server/services/billing-offers.ts; PL10, PL11, PL14)
 * - `POST /subscription/offers/:offerId/claim` `{ interval?, planId? }`: subscribes with the offer's
 *   plan, code and trial; answers as subscribe plus `message: "Claim offer successfully"`
 * - `POST /subscription/onboarding-call` `{ note?, source? }`: books the onboarding call (403 below
 *   Advanced); `source: "booking_popup"` books it from the floating booking popup (spec 000 §4; 409
 *   when the shop is not shown the popup) and dismisses the popup
 * (`POST /shop`, the partial shop body with the promo popups' dismissal times, is in routes/shops.ts.)
 * - `GET /platform/access`: whether the app can reach the shop's Admin API (reinstall banner);
 *   `POST /platform/access/exchange`: token exchange with the request's session token
 */
import { Hono } from 'hono';
import type { AppDeps, AppEnv } from '../deps';
import { ApiError } from '../errors';
import { accessStatus, exchangeSessionToken } from '../platform/access-tokens';
import { answerLocalCharge, cancelSubscription, confirmSubscription, pausedPrograms, planOffer, planOffers, promoDiscount, subscribe, subscriptionInfo } from '../services/billing';
import { claimOffer, requestOnboardingCall, shopOffers } from '../services/billing-offers';
import { readJsonBody } from './body';

const text = (body: Record<string, unknown>, key: string): string => {
  const value = body[key];
  if (typeof value !== 'string' || !value.trim()) throw new ApiError(422, 'validation_failed', 'Some fields need attention', [{ path: `/${key}`, message: 'This field is required' }]);
  return value.trim();
};

export function billingRoutes(deps: AppDeps): Hono<AppEnv> {
  const app = new Hono<AppEnv>();
  app.get('/subscription', async (c) => c.json({ data: await subscriptionInfo(deps, c.get('shopId')) }));
  app.get('/subscription/plans', (c) => c.json({ data: planOffers() }));
  app.get('/subscription/shopify/subscribe/:planId', async (c) => {
    const interval = c.req.query('interval');
    if (interval !== undefined && interval !== 'monthly' && interval !== 'annual') {
      throw new ApiError(400, 'invalid_query', 'Value invalid', [{ path: 'interval', message: 'Must be monthly or annual' }]);
    }
    const discountCode = c.req.query('discountCode');
    const result = await subscribe(deps, c.get('shopId'), c.req.param('planId'), { ...(interval ? { interval } : {}), ...(discountCode ? { discountCode } : {}) });
    return c.json(result);
  });
  app.get('/subscription/preview/:planId', async (c) => {
    planOffer(c.req.param('planId'));
    return c.json({ data: await pausedPrograms(deps, c.get('shopId'), c.req.param('planId')) });
  });
  app.post('/subscription/confirm', async (c) => {
    const body = await readJsonBody(c);
    const chargeId = typeof body.chargeId === 'string' && body.chargeId ? body.chargeId : undefined;
    return c.json({ data: await confirmSubscription(deps, c.get('shopId'), text(body, 'subscriptionId'), chargeId) });
  });
  app.post('/subscription/cancel', async (c) => c.json({ data: await cancelSubscription(deps, c.get('shopId')) }));
  app.post('/subscription/promo', async (c) => {
    const body = await readJsonBody(c);
    return c.json({ data: promoDiscount(text(body, 'code'), text(body, 'planId')) });
  });
  app.post('/subscription/local-charges/:chargeId/:answer{approve|decline}', async (c) => {
    await answerLocalCharge(deps, c.get('shopId'), c.req.param('chargeId'), c.req.param('answer') === 'approve');
    return c.json({ data: { ok: true } });
  });
  app.get('/subscription/offers', async (c) => c.json({ data: await shopOffers(deps, c.get('shopId')) }));
  app.post('/subscription/offers/:offerId/claim', async (c) => {
    const body = await readJsonBody(c);
    if (body.interval !== undefined && body.interval !== 'monthly' && body.interval !== 'annual') {
      throw new ApiError(422, 'validation_failed', 'Some fields need attention', [{ path: '/interval', message: 'Must be monthly or annual' }]);
    }
    if (body.planId !== undefined && typeof body.planId !== 'string') throw new ApiError(422, 'validation_failed', 'Some fields need attention', [{ path: '/planId', message: 'Choose a paid plan' }]);
    const options = { ...(body.interval ? { interval: body.interval as 'monthly' | 'annual' } : {}), ...(typeof body.planId === 'string' ? { planId: body.planId } : {}) };
    return c.json(await claimOffer(deps, c.get('shopId'), c.req.param('offerId'), options));
  });
  app.post('/subscription/onboarding-call', async (c) => {
    const body = await readJsonBody(c);
    if (body.source !== undefined && body.source !== 'onboarding_call' && body.source !== 'booking_popup') {
      throw new ApiError(422, 'validation_failed', 'Some fields need attention', [{ path: '/source', message: 'Must be onboarding_call or booking_popup' }]);
    }
    return c.json({ data: await requestOnboardingCall(deps, c.get('shopId'), body.note, body.source ?? 'onboarding_call') });
  });
  app.get('/platform/access', async (c) => c.json({ data: await accessStatus(deps, c.get('shopId')) }));
  app.post('/platform/access/exchange', async (c) => {
    // Demo mode has no platform to ask (its adapters are local).
    if (deps.auth.demo && !deps.accessTokens?.fetch) throw new ApiError(404, 'demo_mode', 'Demo mode has no platform to exchange tokens with');
    const token = /^Bearer\s+(\S+)$/i.exec(c.req.header('Authorization') ?? '')?.[1] ?? '';
    await exchangeSessionToken(deps, c.get('shopId'), token);
    return c.json({ data: await accessStatus(deps, c.get('shopId')) });
  });
  return app;
}
