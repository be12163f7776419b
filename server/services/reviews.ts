/**
 * Review approvals (issue 10; spec 002 §3 Activity "review: star rating, content, status pending,
 * approved, disapproved", §4 "A default review status setting is pending (waits for in-app
 * approval) or approved (points at once); instant points can be given while pending"; messages
 * "Updated successfully" / "Updated failed", spec 002 §8).
 *
 * A review is recorded once per source and source id (`recordReview`, the seam the review app's
 * webhook and the storefront submission call); the shop's write-review programs decide through the
 * engine (engine/events.ts `write_review`) whether it earns now, waits for approval, or never. An
 * approval awards what the programs give an approved review, unless the review already earned
 * (instant points while pending). Every award is a ledger entry with source `review`, its source id
 * `<review id>:<program id>`, and the engine's decision as its explanation. Google Maps reviews
 * (`recordGoogleMapsReview`, source `google_maps`) wait for approval the same way but earn as
 * earning events (server/services/earning-events.ts): instant points when submitted, the rest when
 * approved. Every award and approval runs the milestones (server/services/milestones.ts).
 */
import { sql } from 'kysely';
import type { AppDeps } from '../deps';
import type { Db } from '../db/database';
import type { ReviewsTable } from '../db/tables';
import { ApiError, notFound } from '../errors';
import { evaluateEvent, type EventDecision } from '../../engine/events';
import { availableAt } from '../../engine/pending';
import type { PastAward } from '../../engine/eligibility';
import { appendEntries, upsertCustomer } from '../store/ledger';
import { listDocuments } from '../store/documents';
import { shopOrThrow } from './orders';
import { awardEventIn, ensureCustomer } from './earning-events';
import { awardMilestones } from './milestones';
import googleMapsSchema from '../../schemas/earning/google_maps_review/schema.json';

/** Review statuses (spec 002 §3). */
export const REVIEW_STATUSES = ['pending', 'approved', 'disapproved'] as const;
export type ReviewStatus = (typeof REVIEW_STATUSES)[number];

/** A review as the admin lists it; `points` is what it has earned so far (whole points). */
export interface ReviewView {
  id: string;
  source: string;
  externalId: string;
  customer: { id: string; email: string; firstName: string; lastName: string };
  rating: number | null;
  title: string;
  content: string;
  hasMedia: boolean;
  productTitle: string | null;
  status: ReviewStatus;
  points: number;
  createdAt: string;
  decidedAt: string | null;
  decidedBy: string | null;
}

/** A review as its source reports it. Texts are capped by the caller (body limits, field checks). */
export interface ReviewInput {
  /** `review_app` (the connected review app) or `storefront`. */
  source: 'review_app' | 'storefront';
  /** The review's id at the source. */
  externalId: string;
  customer: { id: string; email: string; firstName: string; lastName: string };
  rating: number | null;
  title: string;
  content: string;
  hasMedia: boolean;
  productTitle?: string | null;
  /** ISO instant the review was written; the server's clock when absent. */
  createdAt?: string;
}

/** What the review services need of the app's dependencies. */
type Deps = Pick<AppDeps, 'db' | 'now'>;

const nowIso = (deps: Deps): string => (deps.now ?? (() => new Date()))().toISOString();

async function pastReviewAwards(db: Db, shopId: string, customerId: string): Promise<PastAward[]> {
  const rows = await db
    .selectFrom('ledger_entries')
    .select(['program_id', 'points', 'created_at'])
    .where('shop_id', '=', shopId)
    .where('customer_id', '=', customerId)
    .where('program_kind', '=', 'earning.write_review')
    .where('points', '>', 0)
    .execute();
  return rows.map((r) => ({ programId: r.program_id ?? '', points: r.points, at: r.created_at }));
}

/**
 * Runs the shop's write-review programs over `review` as `status` and appends an entry for each
 * program that awards and has not awarded this review before. Answers the decisions and the points
 * appended. Call inside a transaction.
 */
async function award(tx: Db, deps: Deps, shopId: string, review: ReviewsTable, status: ReviewStatus, now: string): Promise<{ decisions: EventDecision[]; points: number }> {
  const shop = await shopOrThrow(tx, shopId);
  const programs = await listDocuments(tx, shopId, ['earning.write_review']);
  const customer = await tx.selectFrom('customers').select(['type', 'tier_id']).where('shop_id', '=', shopId).where('id', '=', review.customer_id).executeTakeFirst();
  const type = customer?.type === 'guest' || customer?.type === 'left' ? customer.type : 'member';
  const evaluation = evaluateEvent(
    programs,
    { type: 'write_review', at: now, customer: { id: review.customer_id, type, tierId: customer?.tier_id ?? null }, review: { id: review.id, content: review.content, hasMedia: review.has_media === 1, status } },
    await pastReviewAwards(tx, shopId, review.customer_id),
    shop.timeZone,
  );
  const done = new Set(
    (await tx.selectFrom('ledger_entries').select('source_id').where('shop_id', '=', shopId).where('source_type', '=', 'review').where('source_id', 'like', `${review.id}:%`).execute()).map((r) => r.source_id),
  );
  const version = new Map(programs.map((p) => [p.id, p.version]));
  // Points that wait for approval are not written: the approval writes them.
  const awarding = evaluation.decisions.filter((d) => d.outcome === 'award' && d.status === 'available' && !done.has(`${review.id}:${d.programId}`));
  const until = availableAt(new Date(now), shop.pendingPoints).toISOString();
  const pending = shop.pendingPoints.enabled;
  await appendEntries(
    tx,
    awarding.map((d) => ({
      id: crypto.randomUUID(),
      shop_id: shopId,
      customer_id: review.customer_id,
      type: pending ? 'pending_earn_point' : 'earn_point',
      points: d.points,
      program_id: d.programId,
      program_kind: d.kind,
      program_version: version.get(d.programId) ?? null,
      source_type: 'review',
      source_id: `${review.id}:${d.programId}`,
      reverses_id: null,
      explanation: JSON.stringify({ reviewId: review.id, reviewStatus: status, rating: review.rating, productTitle: review.product_title, decision: d }),
      created_at: now,
      available_at: pending ? until : null,
    })),
  );
  // Milestones (reviews approved, points earned) after every award or approval (issue 11).
  if (awarding.length > 0 || status === 'approved') await awardMilestones(tx, deps, shopId, review.customer_id, now);
  return { decisions: evaluation.decisions, points: awarding.reduce((n, d) => n + d.points, 0) };
}

/**
 * Records a review once (a second report of the same source id changes nothing and answers the
 * stored one). Its status comes from the shop's write-review programs: `approved` when a program
 * approves automatically (`reviewStatus: approveAuto`), otherwise `pending`; instant points while
 * pending are awarded now. The customer is created when the shop has not seen them yet.
 */
export async function recordReview(deps: Deps, shopId: string, input: ReviewInput): Promise<ReviewView> {
  const now = nowIso(deps);
  const id = await deps.db.transaction().execute(async (tx) => {
    const existing = await tx.selectFrom('reviews').select('id').where('shop_id', '=', shopId).where('source', '=', input.source).where('external_id', '=', input.externalId).executeTakeFirst();
    if (existing) return existing.id;
    await upsertCustomer(tx, shopId, input.customer, now);
    const programs = await listDocuments(tx, shopId, ['earning.write_review']);
    const auto = programs.some((p) => (p.data as { status?: unknown; reviewStatus?: unknown }).status === true && (p.data as { reviewStatus?: unknown }).reviewStatus === 'approveAuto');
    const row: ReviewsTable = {
      id: crypto.randomUUID(),
      shop_id: shopId,
      source: input.source,
      external_id: input.externalId,
      event: 'write_review',
      customer_id: input.customer.id,
      rating: input.rating,
      title: input.title,
      content: input.content,
      has_media: input.hasMedia ? 1 : 0,
      url: null,
      product_title: input.productTitle ?? null,
      status: auto ? 'approved' : 'pending',
      created_at: input.createdAt ?? now,
      decided_at: auto ? now : null,
      decided_by: auto ? 'auto' : null,
    };
    await tx.insertInto('reviews').values(row).execute();
    await award(tx, deps, shopId, row, auto ? 'approved' : 'pending', now);
    return row.id;
  });
  return (await findReview(deps, shopId, id))!;
}

function toView(r: ReviewsTable & { email: string | null; first_name: string | null; last_name: string | null; points: number | string | null }): ReviewView {
  return {
    id: r.id,
    source: r.source,
    externalId: r.external_id,
    customer: { id: r.customer_id, email: r.email ?? '', firstName: r.first_name ?? '', lastName: r.last_name ?? '' },
    rating: r.rating,
    title: r.title,
    content: r.content,
    hasMedia: r.has_media === 1,
    productTitle: r.product_title,
    status: r.status as ReviewStatus,
    points: Number(r.points ?? 0),
    createdAt: r.created_at,
    decidedAt: r.decided_at,
    decidedBy: r.decided_by,
  };
}

function reviewsQuery(db: Db, shopId: string) {
  return db
    .selectFrom('reviews as r')
    .leftJoin('customers as c', (j) => j.onRef('c.shop_id', '=', 'r.shop_id').onRef('c.id', '=', 'r.customer_id'))
    .selectAll('r')
    .select(['c.email', 'c.first_name', 'c.last_name'])
    .select((eb) =>
      eb
        .selectFrom('ledger_entries as l')
        .select(sql<number>`coalesce(sum(l.points), 0)`.as('p'))
        .whereRef('l.shop_id', '=', 'r.shop_id')
        .where((w) =>
          w.or([
            w.and([w('l.source_type', '=', 'review'), w('l.source_id', 'like', sql<string>`r.id || ':%'`)]),
            // Google Maps reviews earn as events (server/services/earning-events.ts), one entry per stage.
            w.and([w('l.source_type', '=', 'event'), w('l.source_id', 'like', sql<string>`'google_maps_review:' || r.id || ':%'`)]),
          ]),
        )
        .as('points'),
    )
    .where('r.shop_id', '=', shopId);
}

/** One review, or undefined. */
export async function findReview(deps: Deps, shopId: string, id: string): Promise<ReviewView | undefined> {
  const row = await reviewsQuery(deps.db, shopId).where('r.id', '=', id).executeTakeFirst();
  return row ? toView(row) : undefined;
}

/**
 * One page of the shop's reviews in a status, newest first, in the spec's list shape, with the
 * count of that status. Throws 400 `invalid_query` for a cursor of another list.
 */
export async function listReviews(deps: Deps, shopId: string, status: ReviewStatus, limit: number, after?: string): Promise<{ data: ReviewView[]; pageInfo: { hasNextPage: boolean; endCursor: string | null }; total: number }> {
  let q = reviewsQuery(deps.db, shopId).where('r.status', '=', status);
  if (after) {
    let cursor: unknown;
    try {
      cursor = JSON.parse(Buffer.from(after, 'base64url').toString('utf8'));
    } catch {
      cursor = null;
    }
    if (!Array.isArray(cursor) || cursor.length !== 2 || typeof cursor[0] !== 'string' || typeof cursor[1] !== 'string') {
      throw new ApiError(400, 'invalid_query', 'Value invalid', [{ path: 'after', message: 'This cursor does not belong to this list; start from the first page' }]);
    }
    const [at, id] = cursor as [string, string];
    q = q.where((eb) => eb.or([eb('r.created_at', '<', at), eb.and([eb('r.created_at', '=', at), eb('r.id', '<', id)])]));
  }
  const rows = await q.orderBy('r.created_at', 'desc').orderBy('r.id', 'desc').limit(limit + 1).execute();
  const total = await deps.db.selectFrom('reviews').select((eb) => eb.fn.countAll<number>().as('n')).where('shop_id', '=', shopId).where('status', '=', status).executeTakeFirstOrThrow();
  const shown = rows.slice(0, limit).map(toView);
  const last = shown.at(-1);
  return { data: shown, pageInfo: { hasNextPage: rows.length > limit, endCursor: last ? Buffer.from(JSON.stringify([last.createdAt, last.id])).toString('base64url') : null }, total: Number(total.n) };
}

/**
 * Approves or disapproves a pending review, recording who and when; an approval awards what the
 * write-review programs give an approved review (once per program). Points given while pending
 * stay when a review is disapproved (the spec gives them on purpose). Throws 404 for an unknown
 * review and 409 `review_decided` when it is not pending any more (a second decision, or two staff
 * at once: one wins).
 */
export async function decideReview(deps: Deps, shopId: string, id: string, decision: 'approved' | 'disapproved', actor: string): Promise<ReviewView> {
  const now = nowIso(deps);
  await deps.db.transaction().execute(async (tx) => {
    const row = await tx.selectFrom('reviews').selectAll().where('shop_id', '=', shopId).where('id', '=', id).executeTakeFirst();
    if (!row) throw notFound('not_found', 'This review does not exist');
    const moved = await tx.updateTable('reviews').set({ status: decision, decided_at: now, decided_by: actor }).where('shop_id', '=', shopId).where('id', '=', id).where('status', '=', 'pending').executeTakeFirst();
    if (Number(moved.numUpdatedRows) !== 1) throw new ApiError(409, 'review_decided', `This review was already ${row.status}`);
    if (row.event === 'google_maps_review') {
      // The rest of a Google Maps review's points come with its approval; a rejection keeps the instant points.
      if (decision === 'approved') await awardGoogleMapsStage(tx, deps, shopId, { ...row, status: decision }, 'approved', now);
    } else if (decision === 'approved') await award(tx, deps, shopId, { ...row, status: decision }, 'approved', now);
  });
  return (await findReview(deps, shopId, id))!;
}

/** The template's own Google Maps link pattern, so the form, the engine and the storefront accept the same links. */
const GOOGLE_MAPS_URL = new RegExp(googleMapsSchema.properties.googleMapsUrl.pattern, 'u');

/** Awards one stage of a Google Maps review through the earning events (source id `google_maps_review:<review id>:<stage>`). */
async function awardGoogleMapsStage(tx: Db, deps: Deps, shopId: string, review: ReviewsTable, stage: 'submitted' | 'approved', now: string): Promise<number> {
  const url = review.url ?? '';
  const result = await awardEventIn(tx, deps, shopId, { event: 'google_maps_review', key: `${review.id}:${stage}`, customerId: review.customer_id, at: now, googleReview: { url, stage }, details: { reviewId: review.id, url } });
  // An approval counts toward review milestones even when it earns no points itself.
  if (stage === 'approved' && result.awarded === 0) await awardMilestones(tx, deps, shopId, review.customer_id, now);
  return result.awarded;
}

/**
 * Records a Google Maps review link a signed-in shopper submitted from the storefront (spec 002 §4
 * Google review pending, approve, reject; spec 002 §5 "Google Maps URL must be valid"): once per
 * shop and link (a second submission of the same link answers the stored review). It waits for
 * approval as a `pending` review; the shop's Google Maps programs give their instant points now and
 * the rest when an admin approves it (`decideReview`). Throws 422 "You must enter a link from
 * Google Maps" at `/url` for another link.
 */
export async function recordGoogleMapsReview(deps: Deps, shopId: string, customerId: string, url: string): Promise<ReviewView & { awarded: number }> {
  const link = url.trim();
  if (link.length === 0 || link.length > 2048 || !GOOGLE_MAPS_URL.test(link)) {
    throw new ApiError(422, 'validation_failed', 'You must enter a link from Google Maps', [{ path: '/url', message: 'You must enter a link from Google Maps' }]);
  }
  const now = nowIso(deps);
  const { id, awarded } = await deps.db.transaction().execute(async (tx) => {
    const existing = await tx.selectFrom('reviews').select(['id', 'customer_id']).where('shop_id', '=', shopId).where('source', '=', 'google_maps').where('external_id', '=', link).executeTakeFirst();
    if (existing && existing.customer_id !== customerId) throw new ApiError(409, 'review_exists', 'Value already exists', [{ path: '/url', message: 'This review link was already submitted' }]);
    if (existing) return { id: existing.id, awarded: 0 };
    await ensureCustomer(tx, shopId, customerId, now);
    const row: ReviewsTable = {
      id: crypto.randomUUID(),
      shop_id: shopId,
      source: 'google_maps',
      external_id: link,
      event: 'google_maps_review',
      customer_id: customerId,
      rating: null,
      title: '',
      content: '',
      has_media: 0,
      url: link,
      product_title: null,
      status: 'pending',
      created_at: now,
      decided_at: null,
      decided_by: null,
    };
    await tx.insertInto('reviews').values(row).execute();
    return { id: row.id, awarded: await awardGoogleMapsStage(tx, deps, shopId, row, 'submitted', now) };
  });
  return { ...(await findReview(deps, shopId, id))!, awarded };
}
