/**
 * Review approvals in the admin (issue 10, spec 002 §4): `GET /reviews?status=pending|approved|
 * disapproved&limit=&after=` (the spec's list shape with `total`), `POST /reviews/:id/approve` and
 * `POST /reviews/:id/disapprove` (answer the review and "Updated successfully"; 409 when it was
 * decided already). Reviews are recorded by `recordReview` (server/services/reviews.ts).
 */
import { Hono } from 'hono';
import type { AppDeps, AppEnv } from '../deps';
import { ApiError } from '../errors';
import { decideReview, listReviews, REVIEW_STATUSES, type ReviewStatus } from '../services/reviews';

const PAGE_SIZES = [10, 20, 50];

export function reviewRoutes(deps: AppDeps): Hono<AppEnv> {
  const app = new Hono<AppEnv>();
  app.get('/reviews', async (c) => {
    const status = c.req.query('status') || 'pending';
    if (!(REVIEW_STATUSES as readonly string[]).includes(status)) throw new ApiError(400, 'invalid_query', 'Value invalid', [{ path: 'status', message: `Must be one of ${REVIEW_STATUSES.join(', ')}` }]);
    const limit = Number(c.req.query('limit') || 20);
    if (!PAGE_SIZES.includes(limit)) throw new ApiError(400, 'invalid_query', 'Value invalid', [{ path: 'limit', message: `Must be one of ${PAGE_SIZES.join(', ')}` }]);
    return c.json(await listReviews(deps, c.get('shopId'), status as ReviewStatus, limit, c.req.query('after') || undefined));
  });
  for (const [action, decision] of [
    ['approve', 'approved'],
    ['disapprove', 'disapproved'],
  ] as const) {
    app.post(`/reviews/:id/${action}`, async (c) => {
      const review = await decideReview(deps, c.get('shopId'), c.req.param('id'), decision, `admin:${c.get('userId') || 'unknown'}`);
      return c.json({ data: review, message: 'Updated successfully' });
    });
  }
  return app;
}
