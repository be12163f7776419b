/**
 * Review approvals (issue 10, spec 002 §4): a recorded review waits for approval or earns at once
 * as the write-review program says; the admin lists pending reviews and approves or disapproves
 * each once; an approval awards the program's points (with the media bonus) on the ledger, with the
 * engine's decision as the explanation.
 */
import { describe, expect, it } from 'vitest';
import { makeApp, repoRegistry, AUTH, SHOP } from '../support/app';
import { recordReview, type ReviewInput, type ReviewView } from '../../server/services/reviews';

type Page = { data: ReviewView[]; pageInfo: { hasNextPage: boolean; endCursor: string | null }; total: number };
const shopper = { id: '7300000000000000001', email: 'rae@example.com', firstName: 'Rae', lastName: 'Viewer' };

const writeReview = (overrides: Record<string, unknown> = {}) => ({ title: 'Product reviews', status: true, earnPoint: 50, mediaBonusPoints: 20, minimumCharacters: 10, reviewStatus: 'pending', ...overrides });

async function shop(program: Record<string, unknown> | null = writeReview()) {
  const t = await makeApp();
  if (program) {
    const res = await t.call('POST', '/api/kinds/earning.write_review/docs', { data: program });
    expect(res.status).toBe(201);
  }
  const deps = { db: t.db, registry: repoRegistry(), auth: AUTH };
  const record = (n: number, extra: Partial<ReviewInput> = {}) =>
    recordReview(deps, SHOP, { source: 'review_app', externalId: `r-${n}`, customer: shopper, rating: 5, title: 'Lovely', content: 'Fits well and washes nicely.', hasMedia: false, productTitle: 'Linen shirt', ...extra });
  const points = async () => ((await (await t.call('GET', `/api/customers/${shopper.id}`)).json()) as { data: { points: number } }).data.points;
  const list = async (status = 'pending') => (await (await t.call('GET', `/api/reviews?status=${status}`)).json()) as Page;
  return { ...t, record, points, list };
}

describe('review approvals', () => {
  it('holds a review for approval, then awards the points and the media bonus when approved', async () => {
    const s = await shop();
    const review = await s.record(1, { hasMedia: true });
    expect(review).toMatchObject({ status: 'pending', points: 0 });
    expect(await s.points()).toBe(0);
    expect((await s.list()).data.map((r) => [r.id, r.customer.email, r.rating])).toEqual([[review.id, 'rae@example.com', 5]]);

    const approved = await s.call('POST', `/api/reviews/${review.id}/approve`);
    expect(approved.status).toBe(200);
    const body = (await approved.json()) as { data: ReviewView; message: string };
    expect(body.message).toBe('Updated successfully');
    expect(body.data).toMatchObject({ status: 'approved', points: 70, decidedBy: 'admin:1' });
    expect(await s.points()).toBe(70);
    expect((await s.list()).total).toBe(0);
    expect((await s.list('approved')).data.map((r) => r.id)).toEqual([review.id]);

    const activity = (await (await s.call('GET', `/api/customers/${shopper.id}/activity?tab=earned`)).json()) as { data: { sourceType: string; points: number; explanation: { decision: { message: string } } }[] };
    expect(activity.data.map((e) => [e.sourceType, e.points])).toEqual([['review', 70]]);
    expect(activity.data[0]!.explanation.decision.message).toContain('awards 70 points');
  });

  it('decides a review once: a second decision or a disapproval after approval is refused and awards nothing more', async () => {
    const s = await shop();
    const review = await s.record(1);
    expect((await s.call('POST', `/api/reviews/${review.id}/approve`)).status).toBe(200);
    for (const action of ['approve', 'disapprove']) {
      const again = await s.call('POST', `/api/reviews/${review.id}/${action}`);
      expect(again.status).toBe(409);
      expect(((await again.json()) as { error: { code: string } }).error.code).toBe('review_decided');
    }
    expect(await s.points()).toBe(50);
  });

  it('disapproves a review without points and keeps it out of the pending list', async () => {
    const s = await shop();
    const review = await s.record(1);
    const res = await s.call('POST', `/api/reviews/${review.id}/disapprove`);
    expect(((await res.json()) as { data: ReviewView }).data).toMatchObject({ status: 'disapproved', points: 0 });
    expect(await s.points()).toBe(0);
    expect((await s.list('disapproved')).total).toBe(1);
  });

  it('approves automatically and awards at once when the program says approveAuto', async () => {
    const s = await shop(writeReview({ reviewStatus: 'approveAuto' }));
    const review = await s.record(1);
    expect(review).toMatchObject({ status: 'approved', points: 50, decidedBy: 'auto' });
    expect((await s.list()).total).toBe(0);
  });

  it('gives instant points while pending, and the approval adds nothing twice', async () => {
    const s = await shop(writeReview({ instantPointsWhilePending: true }));
    const review = await s.record(1);
    expect(review).toMatchObject({ status: 'pending', points: 50 });
    await s.call('POST', `/api/reviews/${review.id}/approve`);
    expect(await s.points()).toBe(50);
  });

  it('records a review reported twice once, and an approval of a too-short review earns nothing', async () => {
    const s = await shop();
    const first = await s.record(1);
    const again = await s.record(1, { content: 'changed text that is long enough' });
    expect(again.id).toBe(first.id);
    expect((await s.list()).total).toBe(1);
    const short = await s.record(2, { content: 'Nice' });
    const res = await s.call('POST', `/api/reviews/${short.id}/approve`);
    expect(((await res.json()) as { data: ReviewView }).data).toMatchObject({ status: 'approved', points: 0 });
  });

  it('refuses an unknown status, page size, review or cursor', async () => {
    const s = await shop(null);
    expect((await s.call('GET', '/api/reviews?status=spam')).status).toBe(400);
    expect((await s.call('GET', '/api/reviews?limit=7')).status).toBe(400);
    expect((await s.call('GET', '/api/reviews?after=bm9wZQ')).status).toBe(400);
    expect((await s.call('POST', '/api/reviews/nope/approve')).status).toBe(404);
  });
});
