/**
 * Storefront API calls under `/proxy/*` that earn (issue 11, docs/storefront-api.md): the visit
 * ping, the birthday, claims of social and survey programs, and review submissions. Mounted by
 * server/proxy/routes.ts behind the app-proxy signature check.
 *
 * Guests: the visit ping answers `{ queued: false }` (the widget pings on every visit, signed in or
 * not, and a guest's ping is harmless); the birthday, claims and reviews need a shopper and answer
 * 401 `login_required`.
 */
import { Hono, type Context } from 'hono';
import { localDate } from '../../engine/store-time';
import { InstalledShops } from '../store/shops';
import { visitDelivery } from '../services/visits';
import type { WebhookQueue } from '../webhooks/queue';
import type { AppDeps } from '../deps';
import { ApiError, notFound } from '../errors';
import { readJsonBody } from '../routes/body';
import { isBirthday, setBirthday } from '../services/customers';
import { awardEvent, CLAIMABLE_EVENTS, ensureCustomer } from '../services/earning-events';
import { shopOrThrow } from '../services/orders';
import { recordGoogleMapsReview, recordReview } from '../services/reviews';
import { findDocument } from '../store/documents';
import type { EventKind } from '../../engine/events';
import type { ProxyEnv } from './middleware';

/** The signed-in shopper; guests are refused with 401 `login_required`. */
function shopperOf(c: Context<ProxyEnv>, action: string): string {
  const id = c.get('customerId');
  if (!id) throw new ApiError(401, 'login_required', `Please log in to ${action}`);
  return id;
}

/** The request's `Idempotency-Key` (trimmed, at most 100 characters), or null when it sent none. */
const givenIdempotencyKey = (c: Context<ProxyEnv>): string | null => c.req.header('Idempotency-Key')?.trim().slice(0, 100) || null;

/** The request's `Idempotency-Key` (givenIdempotencyKey), or a fresh one. */
const requestKey = (c: Context<ProxyEnv>): string => givenIdempotencyKey(c) ?? crypto.randomUUID();

const invalid = (path: string, message: string, summary = message): ApiError => new ApiError(422, 'validation_failed', summary, [{ path, message }]);

/** An optional string field of at most `max` characters, or 422 at its path. */
function optionalText(body: Record<string, unknown>, field: string, max: number): string {
  const v = body[field];
  if (v === undefined || v === null) return '';
  if (typeof v !== 'string' || v.length > max) throw invalid(`/${field}`, `Must be text of at most ${max} characters`);
  return v.trim();
}

/** The calls of this area; `c.get('shopId')` and `c.get('customerId')` (null = guest) are verified. */
export function eventProxyRoutes(deps: AppDeps, queue: Pick<WebhookQueue, 'enqueue' | 'kick'>, installed = new InstalledShops(deps.db)): Hono<ProxyEnv> {
  const app = new Hono<ProxyEnv>();
  const now = (): Date => (deps.now ?? (() => new Date()))();

  /**
   * `POST /visit`: a visit of the signed-in shopper, recorded and answered 202 `{ queued: true,
   * duplicate }` at once; the visit and streak programs award it from the queue a moment later
   * (server/services/visits.ts). Send `Idempotency-Key` to make a retried ping count once. A
   * guest's ping is answered `{ queued: false }` and records nothing.
   */
  app.post('/visit', async (c) => {
    const customerId = c.get('customerId');
    if (!customerId) return c.json({ data: { queued: false } });
    const shopId = c.get('shopId');
    if (!(await installed.has(shopId))) throw new ApiError(404, 'unknown_shop', `The shop ${shopId} has not installed the app`);
    const given = givenIdempotencyKey(c);
    const { duplicate } = await queue.enqueue(visitDelivery(shopId, { customerId, at: now().toISOString(), key: given ?? crypto.randomUUID() }, given !== null));
    queue.kick();
    return c.json({ data: { queued: true, duplicate } }, 202);
  });

  /** `POST /birthday { birthday: 'MM/DD' }`: 422 "Birthday is invalid" at `/birthday`. */
  app.post('/birthday', async (c) => {
    const customerId = shopperOf(c, 'save your birthday');
    const body = await readJsonBody(c);
    const birthday = typeof body.birthday === 'string' ? body.birthday.trim() : null;
    if (!birthday || !isBirthday(birthday)) throw invalid('/birthday', 'Birthday is invalid');
    await ensureCustomer(deps.db, c.get('shopId'), customerId, now().toISOString());
    const profile = await setBirthday(deps, c.get('shopId'), customerId, birthday, `shopper:${customerId}`);
    return c.json({ data: { birthday: profile.birthday } });
  });

  /**
   * `POST /claim { programId, answer? }`: a social follow, share or join program after the widget
   * opened its link (the networks report nothing back, so the claim is the shopper's word, bounded
   * by the program's limits and at most once per program per store-local day), or a survey with the
   * shopper's answer (`answer`, at most 5,000 characters).
   */
  app.post('/claim', async (c) => {
    const customerId = shopperOf(c, 'earn points');
    const body = await readJsonBody(c);
    if (typeof body.programId !== 'string' || body.programId.length === 0) throw invalid('/programId', 'This field is required');
    const program = await findDocument(deps.db, c.get('shopId'), body.programId);
    if (!program || !program.kind.startsWith('earning.')) throw notFound('not_found', 'This program does not exist or was deleted');
    const event = program.kind.slice('earning.'.length) as EventKind;
    if (!CLAIMABLE_EVENTS.includes(event)) throw invalid('/programId', 'This program is not earned by a claim');
    const answer = optionalText(body, 'answer', 5000);
    if (event === 'fill_survey' && answer.length === 0) throw invalid('/answer', 'This field is required');
    const shop = await shopOrThrow(deps.db, c.get('shopId'));
    const at = now();
    await ensureCustomer(deps.db, shop.id, customerId, at.toISOString());
    const result = await awardEvent(deps, shop.id, {
      event,
      key: `${customerId}:${program.id}:${localDate(at, shop.timeZone)}`,
      customerId,
      programId: program.id,
      at: at.toISOString(),
      ...(event === 'fill_survey' ? { survey: { answer }, details: { answer } } : {}),
    });
    const decision = result.evaluation.decisions[0];
    return c.json({ data: { awarded: result.awarded, ...(decision && decision.outcome === 'deny' ? { reason: decision.reason, message: decision.message } : {}) } });
  });

  /**
   * `POST /reviews { content, title?, rating?, hasMedia?, productTitle?, reviewId? }`: a product
   * review written in the storefront, recorded once per `reviewId` (or `Idempotency-Key`); it earns
   * as the write-review programs say (at once, or when approved).
   */
  app.post('/reviews', async (c) => {
    const customerId = shopperOf(c, 'write a review');
    const body = await readJsonBody(c);
    const content = optionalText(body, 'content', 5000);
    if (content.length === 0) throw invalid('/content', 'This field is required');
    const rating = body.rating === undefined || body.rating === null ? null : body.rating;
    if (rating !== null && (typeof rating !== 'number' || !Number.isInteger(rating) || rating < 1 || rating > 5)) throw invalid('/rating', 'Must be a whole number from 1 to 5');
    if (body.hasMedia !== undefined && typeof body.hasMedia !== 'boolean') throw invalid('/hasMedia', 'Must be true or false');
    const reviewId = optionalText(body, 'reviewId', 100) || requestKey(c);
    const at = now().toISOString();
    await ensureCustomer(deps.db, c.get('shopId'), customerId, at);
    const known = await deps.db.selectFrom('customers').select(['email', 'first_name', 'last_name']).where('shop_id', '=', c.get('shopId')).where('id', '=', customerId).executeTakeFirstOrThrow();
    const review = await recordReview(deps, c.get('shopId'), {
      source: 'storefront',
      externalId: reviewId,
      customer: { id: customerId, email: known.email, firstName: known.first_name, lastName: known.last_name },
      rating,
      title: optionalText(body, 'title', 255),
      content,
      hasMedia: body.hasMedia === true,
      productTitle: optionalText(body, 'productTitle', 255) || null,
    });
    return c.json({ data: { review: { id: review.id, status: review.status, points: review.points } } });
  });

  /**
   * `POST /reviews/google-maps { url }`: the link of the shopper's Google Maps review; it waits for
   * approval and earns the program's instant points now, the rest when approved. 422 "You must
   * enter a link from Google Maps" at `/url`.
   */
  app.post('/reviews/google-maps', async (c) => {
    const customerId = shopperOf(c, 'submit a review');
    const body = await readJsonBody(c);
    if (typeof body.url !== 'string') throw invalid('/url', 'You must enter a link from Google Maps');
    const review = await recordGoogleMapsReview(deps, c.get('shopId'), customerId, body.url);
    return c.json({ data: { review: { id: review.id, status: review.status, points: review.points }, awarded: review.awarded } });
  });
  return app;
}
