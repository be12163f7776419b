/**
 * Earning events over the admin API (issue 11; spec 001 §3 custom_program, spec 002 §4):
 * - `POST /events/custom { customerId, actionKey }` — the merchant's own integration reports an
 *   action; the shop's custom programs with that action key award it (send `Idempotency-Key` so a
 *   retried call awards once). `{ actionKey, test: true }` is a test trigger: it awards nothing and
 *   lets the connection test of that key pass.
 * - `POST /events/connection-test { actionKey, programId?, skip? }` — the custom program editor's
 *   connection test: passes when a test trigger with the key arrived in the last 15 minutes, or at
 *   once with `skip: true`; either way the editor may then save the program `connected` and on
 *   (server/services/program-locks.ts enforces it). 409 `action_key_taken` when another custom
 *   program uses the key, `action_key_permanent` when the saved program has another one,
 *   `connection_failed` when no test trigger came.
 */
import { Hono, type Context } from 'hono';
import { isShopDomain } from '../auth';
import type { AppDeps, AppEnv } from '../deps';
import { ApiError } from '../errors';
import { parseExact } from '../json';
import { awardEvent } from '../services/earning-events';
import { recordReview, type ReviewInput } from '../services/reviews';
import { listDocuments } from '../store/documents';
import { findShop } from '../store/shops';
import { isValidWebhookHmac } from '../webhook-hmac';
import { readJsonBody } from './body';
import { openSecret } from '../services/sealed-secrets';

/** How long a test trigger lets the connection test pass (ms). */
export const TEST_TRIGGER_WINDOW_MS = 15 * 60_000;
const ACTION_KEY = /^[a-z0-9_-]{1,64}$/;

const invalid = (path: string, message: string): ApiError => new ApiError(422, 'validation_failed', 'Some fields need attention', [{ path, message }]);

function actionKeyOf(body: Record<string, unknown>): string {
  const key = body.actionKey;
  if (typeof key !== 'string' || key.length === 0) throw invalid('/actionKey', 'This field is required');
  if (!ACTION_KEY.test(key)) throw invalid('/actionKey', 'Value invalid');
  return key;
}

export function eventRoutes(deps: AppDeps): Hono<AppEnv> {
  const app = new Hono<AppEnv>();
  const now = (): Date => (deps.now ?? (() => new Date()))();
  const customPrograms = (shopId: string) => listDocuments(deps.db, shopId, ['earning.custom_program']);

  app.post('/events/custom', async (c: Context<AppEnv>) => {
    const shopId = c.get('shopId');
    const body = await readJsonBody(c);
    const actionKey = actionKeyOf(body);
    if (body.test === true) {
      const at = now().toISOString();
      await deps.db
        .insertInto('custom_trigger_tests')
        .values({ shop_id: shopId, action_key: actionKey, received_at: at })
        .onConflict((oc) => oc.columns(['shop_id', 'action_key']).doUpdateSet({ received_at: at }))
        .execute();
      return c.json({ data: { test: true, actionKey, awarded: 0 } });
    }
    const customerId = body.customerId;
    if (typeof customerId !== 'string' || !/^\d{1,30}$/.test(customerId)) throw invalid('/customerId', 'This field is required');
    const programs = (await customPrograms(shopId)).filter((p) => p.data.actionKey === actionKey);
    if (programs.length === 0) throw new ApiError(404, 'unknown_action_key', 'No custom program uses this action key', [{ path: '/actionKey', message: 'No custom program uses this action key' }]);
    const key = c.req.header('Idempotency-Key')?.trim().slice(0, 100) || crypto.randomUUID();
    const result = await awardEvent(deps, shopId, { event: 'custom_program', key: `${customerId}:${key}`, customerId, actionKey, at: now().toISOString() });
    return c.json({ data: { awarded: result.awarded, duplicate: result.duplicate, decisions: result.evaluation.decisions.filter((d) => programs.some((p) => p.id === d.programId)) } });
  });

  app.post('/events/connection-test', async (c: Context<AppEnv>) => {
    const shopId = c.get('shopId');
    const body = await readJsonBody(c);
    const actionKey = actionKeyOf(body);
    const programId = typeof body.programId === 'string' && body.programId !== '' ? body.programId : null;
    const programs = await customPrograms(shopId);
    const own = programId ? programs.find((p) => p.id === programId) : undefined;
    if (programId && !own) throw new ApiError(404, 'not_found', 'This program does not exist or was deleted');
    if (own && typeof own.data.actionKey === 'string' && own.data.actionKey !== '' && own.data.actionKey !== actionKey) {
      throw new ApiError(409, 'action_key_permanent', 'The action key is permanent once the program is saved', [{ path: '/actionKey', message: 'The action key is permanent once the program is saved' }]);
    }
    if (programs.some((p) => p.id !== programId && p.data.actionKey === actionKey)) {
      throw new ApiError(409, 'action_key_taken', 'Value already exists', [{ path: '/actionKey', message: 'Another custom program uses this action key' }]);
    }
    if (body.skip === true) return c.json({ data: { actionKey, connectionStatus: 'connected', skipped: true, testedAt: null } });
    const test = await deps.db.selectFrom('custom_trigger_tests').select('received_at').where('shop_id', '=', shopId).where('action_key', '=', actionKey).executeTakeFirst();
    if (!test || now().getTime() - Date.parse(test.received_at) > TEST_TRIGGER_WINDOW_MS) {
      throw new ApiError(409, 'connection_failed', 'No test trigger with this action key arrived in the last 15 minutes. Send one ({ actionKey, test: true } to POST /api/events/custom) and test again, or skip the test.');
    }
    return c.json({ data: { actionKey, connectionStatus: 'connected', skipped: false, testedAt: test.received_at } });
  });
  return app;
}

const idText = (v: unknown): string | null => (typeof v === 'number' && Number.isSafeInteger(v) && v > 0 ? String(v) : typeof v === 'string' && /^[A-Za-z0-9_-]{1,100}$/.test(v) ? v : null);
const capped = (v: unknown, max: number): string => (typeof v === 'string' ? v.slice(0, max) : '');

/**
 * A review as the review app's webhook sends it: `{ id, customer: { id, email, first_name,
 * last_name }, rating (1–5), title, body, has_media | pictures[], product_title, created_at }`.
 * Throws ApiError 400 `invalid_review` with the field path.
 */
export function parseReviewAppBody(body: unknown): ReviewInput {
  const bad = (path: string, message: string): ApiError => new ApiError(400, 'invalid_review', message, [{ path, message }]);
  if (body === null || typeof body !== 'object' || Array.isArray(body)) throw bad('', 'The webhook body must be a review object');
  const raw = body as Record<string, unknown>;
  const externalId = idText(raw.id);
  if (!externalId) throw bad('/id', 'The review id is missing');
  const customer = raw.customer !== null && typeof raw.customer === 'object' ? (raw.customer as Record<string, unknown>) : null;
  const customerId = customer ? idText(customer.id) : null;
  if (!customer || !customerId || !/^\d+$/.test(customerId)) throw bad('/customer/id', 'The reviewer is not a platform customer');
  const rating = typeof raw.rating === 'number' && Number.isInteger(raw.rating) && raw.rating >= 1 && raw.rating <= 5 ? raw.rating : null;
  const createdAt = typeof raw.created_at === 'string' && !Number.isNaN(Date.parse(raw.created_at)) ? new Date(raw.created_at).toISOString() : undefined;
  return {
    source: 'review_app',
    externalId,
    customer: { id: customerId, email: capped(customer.email, 255), firstName: capped(customer.first_name, 255), lastName: capped(customer.last_name, 255) },
    rating,
    title: capped(raw.title, 255),
    content: capped(raw.body ?? raw.content, 5000),
    hasMedia: raw.has_media === true || (Array.isArray(raw.pictures) && raw.pictures.length > 0),
    productTitle: capped(raw.product_title, 255) || null,
    ...(createdAt ? { createdAt } : {}),
  };
}

/**
 * `POST /webhooks/review-app` (mounted under `/api` beside the platform webhooks, no session token):
 * the connected review app reports a review. The shop is `X-Shop-Domain`; the body is verified by
 * `X-Review-App-Hmac-Sha256`, the base64 HMAC-SHA256 of the raw bytes under the secret key saved in
 * the shop's review app connection (`integration.review_app`, spec 001 §3 "Step 1 connect with the
 * app key and secret key"). The review is recorded once per id (`recordReview`) and earns as the
 * write-review programs say. 404 `unknown_shop`, 409 `review_app_not_connected` ("Please connect to
 * the review app first"), 401 `invalid_hmac`, 400 `invalid_review` with the field path.
 */
export function reviewAppWebhookRoutes(deps: AppDeps): Hono {
  const app = new Hono();
  app.post('/webhooks/review-app', async (c) => {
    const shopId = (c.req.header('X-Shop-Domain') ?? '').trim().toLowerCase();
    if (!isShopDomain(shopId) || !(await findShop(deps.db, shopId))) throw new ApiError(404, 'unknown_shop', `The shop ${shopId} has not installed the app`);
    const [connection] = await listDocuments(deps.db, shopId, ['integration.review_app']);
    const secret = connection && connection.data.status === 'connected' ? (openSecret(deps, shopId, connection.data.secretKey) ?? '') : '';
    if (!secret) throw new ApiError(409, 'review_app_not_connected', 'Please connect to the review app first');
    const raw = new Uint8Array(await c.req.arrayBuffer());
    if (!isValidWebhookHmac(raw, c.req.header('X-Review-App-Hmac-Sha256'), secret)) throw new ApiError(401, 'invalid_hmac', 'The webhook signature does not match');
    const input = parseReviewAppBody(parseExact(new TextDecoder('utf-8').decode(raw)));
    const review = await recordReview(deps, shopId, input);
    return c.json({ data: { reviewId: review.id, status: review.status, points: review.points } });
  });
  return app;
}
