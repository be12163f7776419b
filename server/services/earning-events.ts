/**
 * Earning events other than orders at run time (issue 11; spec 001 §3 Earning events, spec 002
 * §3–§5): sign-up, newsletter, birthday, member anniversary, Google Maps review, website visit and
 * visit streak, survey, custom program and the social follow / share / join events.
 *
 * `awardEvent` wires the pure engine (engine/events.ts `evaluateEvent`) to real inputs: the shop's
 * programs of the event's kind, the customer's profile and past awards of that kind (for the
 * programs' per-customer limits), the shop's timezone and pending-points setting. Every award is a
 * ledger entry with source type `event`, source id `<event>:<idempotency key>` and the engine's
 * decision as its explanation, written in one transaction with the milestones it reaches
 * (server/services/milestones.ts). The same source id never awards twice: a repeated event (a
 * redelivered webhook, a retried storefront call, a second run of the daily job) answers
 * `duplicate: true` and writes nothing.
 */
import { evaluateEvent, type EarningEvent, type EventDecision, type EventEvaluation, type EventKind } from '../../engine/events';
import type { PastAward } from '../../engine/eligibility';
import { availableAt } from '../../engine/pending';
import { localDate } from '../../engine/store-time';
import type { AppDeps } from '../deps';
import type { Db } from '../db/database';
import type { LedgerEntriesTable } from '../db/tables';
import { ApiError } from '../errors';
import { listDocuments } from '../store/documents';
import { appendEntries, upsertCustomer } from '../store/ledger';
import { issueMilestoneRewards } from './milestone-rewards';
import { awardMilestones } from './milestones';
import { shopOrThrow } from './orders';

/** Ledger `source_type` of event awards (source id `<event>:<key>`). */
export const EVENT_SOURCE = 'event';

/** What the event services need of the app's dependencies. */
export type EventDeps = Pick<AppDeps, 'db' | 'now' | 'platformDiscounts' | 'logger'>;

/** One event to award. Texts are capped by the caller (body limits, field checks). */
export interface AwardEventInput {
  event: EventKind;
  /**
   * What makes this event unique for the shop (e.g. the customer id for a sign-up, `<customer
   * id>:<year>` for a birthday); the ledger's source id is `<event>:<key>`. At most 200 characters.
   */
  key: string;
  /** Platform customer id (exact string); the customer must be known to the app. */
  customerId: string;
  /** ISO instant of the event; the server's clock when absent. */
  at?: string;
  /** Only this program (a storefront claim names the program it claims). */
  programId?: string;
  googleReview?: EarningEvent['googleReview'];
  survey?: EarningEvent['survey'];
  actionKey?: string;
  /** Facts stored beside the decision in the explanation (e.g. the review id, the consent state). */
  details?: Record<string, unknown>;
}

/** What `awardEvent` did: points appended now (whole points), the entries, and every program's decision. */
export interface AwardEventResult {
  awarded: number;
  entries: LedgerEntriesTable[];
  /** True when this source id had awarded before: nothing was written. */
  duplicate: boolean;
  evaluation: EventEvaluation;
}

const nowIso = (deps: Pick<AppDeps, 'now'>): string => (deps.now ?? (() => new Date()))().toISOString();

/**
 * Creates the customer with what the app knows (nothing but the id) when the shop has not seen
 * them yet; an existing customer is left as it is. For storefront calls, where only the signed-in
 * shopper's id is known.
 */
export async function ensureCustomer(db: Db, shopId: string, customerId: string, now: string): Promise<void> {
  await db
    .insertInto('customers')
    .values({ shop_id: shopId, id: customerId, email: '', first_name: '', last_name: '', created_at: now, updated_at: now })
    .onConflict((oc) => oc.columns(['shop_id', 'id']).doNothing())
    .execute();
}

/** The customer as the event rules see them, or ApiError 404 `customer_not_found`. */
async function eventCustomer(db: Db, shopId: string, customerId: string): Promise<EarningEvent['customer']> {
  const row = await db.selectFrom('customers').select(['type', 'tier_id', 'birthday', 'created_at']).where('shop_id', '=', shopId).where('id', '=', customerId).executeTakeFirst();
  if (!row) throw new ApiError(404, 'customer_not_found', 'This customer does not exist');
  const changes = await db
    .selectFrom('customer_events')
    .select((eb) => [eb.fn.min('created_at').as('first'), eb.fn.max('created_at').as('last')])
    .where('shop_id', '=', shopId)
    .where('customer_id', '=', customerId)
    .where('kind', '=', 'birthday_changed')
    .executeTakeFirst();
  const type = row.type === 'guest' || row.type === 'left' ? row.type : 'member';
  return {
    id: customerId,
    type,
    tierId: row.tier_id,
    // Stored MM/DD; the engine reads MM-DD.
    birthday: row.birthday ? row.birthday.replace('/', '-') : null,
    birthdaySubmittedAt: changes?.first ?? null,
    birthdayUpdatedAt: changes?.last ?? null,
    memberSince: row.created_at,
  };
}

/** The customer's past positive awards from programs of `kind` (any source), for limits. */
async function pastAwards(db: Db, shopId: string, customerId: string, kind: string): Promise<PastAward[]> {
  const rows = await db
    .selectFrom('ledger_entries')
    .select(['program_id', 'points', 'created_at'])
    .where('shop_id', '=', shopId)
    .where('customer_id', '=', customerId)
    .where('program_kind', '=', kind)
    .where('points', '>', 0)
    .execute();
  return rows.map((r) => ({ programId: r.program_id ?? '', points: r.points, at: r.created_at }));
}

/**
 * Awards one earning event inside the caller's transaction (see `awardEvent`). Points that wait
 * for an approval (`status: 'pending'` decisions) are not written: the approval writes them.
 */
export async function awardEventIn(tx: Db, deps: EventDeps, shopId: string, input: AwardEventInput): Promise<AwardEventResult> {
  if (input.key.length === 0 || input.key.length > 200) throw new ApiError(400, 'invalid_event_key', 'An event key is 1 to 200 characters');
  const at = input.at ?? nowIso(deps);
  const sourceId = `${input.event}:${input.key}`;
  const shop = await shopOrThrow(tx, shopId);
  const customer = await eventCustomer(tx, shopId, input.customerId);
  const kind = `earning.${input.event}`;
  const programs = (await listDocuments(tx, shopId, [kind])).filter((p) => input.programId === undefined || p.id === input.programId);
  const empty: EventEvaluation = { event: input.event, totalPoints: 0, decisions: [] };
  const already = await tx.selectFrom('ledger_entries').select('id').where('shop_id', '=', shopId).where('source_type', '=', EVENT_SOURCE).where('source_id', '=', sourceId).executeTakeFirst();
  if (already) return { awarded: 0, entries: [], duplicate: true, evaluation: empty };
  if (programs.length === 0) return { awarded: 0, entries: [], duplicate: false, evaluation: empty };

  const history = await pastAwards(tx, shopId, input.customerId, kind);
  const event: EarningEvent = {
    type: input.event,
    at,
    customer,
    ...(input.googleReview ? { googleReview: input.googleReview } : {}),
    ...(input.survey ? { survey: input.survey } : {}),
    ...(input.actionKey !== undefined ? { actionKey: input.actionKey } : {}),
    // The streak's earlier visits are the days its programs awarded (store-local dates).
    ...(input.event === 'streak_interact_website' ? { visitDates: [...new Set(history.map((h) => localDate(new Date(h.at), shop.timeZone)))] } : {}),
  };
  const evaluation = evaluateEvent(programs, event, history, shop.timeZone);
  const version = new Map(programs.map((p) => [p.id, p.version]));
  const pending = shop.pendingPoints.enabled;
  const until = availableAt(new Date(at), shop.pendingPoints).toISOString();
  const awarding = evaluation.decisions.filter((d): d is EventDecision & { status: 'available' } => d.outcome === 'award' && d.status === 'available');
  const entries: LedgerEntriesTable[] = awarding.map((d) => ({
    id: crypto.randomUUID(),
    shop_id: shopId,
    customer_id: input.customerId,
    type: pending ? 'pending_earn_point' : 'earn_point',
    points: d.points,
    program_id: d.programId,
    program_kind: d.kind,
    program_version: version.get(d.programId) ?? null,
    source_type: EVENT_SOURCE,
    source_id: sourceId,
    reverses_id: null,
    explanation: JSON.stringify({ event: input.event, key: input.key, ...(input.details ?? {}), decision: d }),
    created_at: at,
    available_at: pending ? until : null,
  }));
  await appendEntries(tx, entries);
  if (entries.length > 0) await awardMilestones(tx, deps, shopId, input.customerId, at);
  return { awarded: entries.reduce((n, e) => n + e.points, 0), entries, duplicate: false, evaluation };
}

/**
 * Awards an earning event to a customer (the contract of issue 11): runs the shop's active
 * programs of the event's kind through the engine with the customer's history and the store's
 * timezone, and appends one ledger entry per awarding program (pending until the waiting period
 * ends when the shop uses pending points), then the milestones the award reaches — all in one
 * transaction. Idempotent per `<event>:<key>`.
 * Throws ApiError 404 `unknown_shop` / `customer_not_found`, 400 `invalid_event_key`.
 * @example await awardEvent(deps, shop, { event: 'sign_up', key: customerId, customerId })
 */
export async function awardEvent(deps: EventDeps, shopId: string, input: AwardEventInput): Promise<AwardEventResult> {
  const result = await deps.db.transaction().execute((tx) => awardEventIn(tx, deps, shopId, input));
  // Coupon-type milestone rewards the award reached, issued after the transaction.
  if (!result.duplicate && result.awarded > 0) await issueMilestoneRewards(deps, shopId, input.customerId);
  return result;
}

/**
 * Awards several earning events of one customer in one transaction (the visit ping's visit and
 * streak programs): the customer is created first when the shop has not seen them (ensureCustomer),
 * then each event as `awardEvent` would, one commit for all; coupon-type milestone rewards are
 * issued after it. Answers one result per input, in order. Throws as `awardEvent`.
 */
export async function awardEvents(deps: EventDeps, shopId: string, customerId: string, inputs: readonly AwardEventInput[], now: string): Promise<AwardEventResult[]> {
  const results = await deps.db.transaction().execute(async (tx) => {
    await ensureCustomer(tx, shopId, customerId, now);
    const out: AwardEventResult[] = [];
    for (const input of inputs) out.push(await awardEventIn(tx, deps, shopId, input));
    return out;
  });
  if (results.some((r) => !r.duplicate && r.awarded > 0)) await issueMilestoneRewards(deps, shopId, customerId);
  return results;
}

/** The social follow, share and join events and the survey: awarded by a storefront claim. */
export const CLAIMABLE_EVENTS: readonly EventKind[] = [
  'social_activity', 'like_facebook', 'follow_instagram', 'follow_twitter', 'follow_pinterest', 'share_facebook', 'share_twitter',
  'follow_tiktok', 'subscribe_youtube', 'join_discord', 'join_telegram', 'join_whatsapp', 'join_line', 'fill_survey',
];

/** What the app reads of a `customers/create` or `customers/update` body. */
export interface CustomerWebhook {
  id: string;
  email: string;
  firstName: string;
  lastName: string;
  /** `email_marketing_consent.state` (`subscribed`, `not_subscribed`, `unsubscribed`, …), or null. */
  consent: string | null;
  /** MM/DD from the platform's standard `facts.birth_date` metafield (YYYY-MM-DD), when sent. */
  birthday: string | null;
}

const text = (v: unknown, max = 255): string => (typeof v === 'string' ? v.slice(0, max) : '');

/**
 * The parts of a customer webhook body the app uses. Throws ApiError 400 `invalid_customer` with
 * the field path when the body is not a customer. The birthday comes from the `facts.birth_date`
 * metafield (the platform's standard "Birth date" definition) when the webhook subscription
 * includes the `facts` metafield namespace; the platform's customer has no birthday field of its own.
 */
export function parseCustomerWebhook(body: unknown): CustomerWebhook {
  if (body === null || typeof body !== 'object' || Array.isArray(body)) throw new ApiError(400, 'invalid_customer', 'The webhook body must be a customer object');
  const raw = body as Record<string, unknown>;
  const id = typeof raw.id === 'number' && Number.isSafeInteger(raw.id) && raw.id > 0 ? String(raw.id) : typeof raw.id === 'string' && /^\d{1,30}$/.test(raw.id) ? raw.id : null;
  if (!id) throw new ApiError(400, 'invalid_customer', 'The customer id is missing or not a number', [{ path: '/id', message: 'The customer id is missing or not a number' }]);
  const consent = raw.email_marketing_consent !== null && typeof raw.email_marketing_consent === 'object' ? text((raw.email_marketing_consent as Record<string, unknown>).state, 64) || null : null;
  const metafields = Array.isArray(raw.metafields) ? (raw.metafields as unknown[]).slice(0, 250) : [];
  let birthday: string | null = null;
  for (const m of metafields) {
    if (m === null || typeof m !== 'object') continue;
    const { namespace, key, value } = m as Record<string, unknown>;
    const match = namespace === 'facts' && key === 'birth_date' && typeof value === 'string' ? /^\d{4}-(\d{2})-(\d{2})$/.exec(value) : null;
    if (match) birthday = `${match[1]}/${match[2]}`;
  }
  return { id, email: text(raw.email), firstName: text(raw.first_name), lastName: text(raw.last_name), consent, birthday };
}

/** Sets a customer's birthday from the platform (recorded as a `birthday_changed` event by `platform`), inside the caller's transaction. */
async function syncBirthday(tx: Db, shopId: string, customerId: string, birthday: string, now: string): Promise<void> {
  const row = await tx.selectFrom('customers').select('birthday').where('shop_id', '=', shopId).where('id', '=', customerId).executeTakeFirst();
  if (!row || row.birthday === birthday) return;
  await tx.updateTable('customers').set({ birthday, updated_at: now }).where('shop_id', '=', shopId).where('id', '=', customerId).execute();
  await tx.insertInto('customer_events').values({ id: crypto.randomUUID(), shop_id: shopId, customer_id: customerId, kind: 'birthday_changed', detail: JSON.stringify({ from: row.birthday, to: birthday }), actor: 'platform', created_at: now }).execute();
}

/**
 * Applies a `customers/create` or `customers/update` webhook (spec 001 §3 sign_up,
 * sign_up_newsletter): the customer is created or refreshed; a created customer earns the sign-up
 * programs (once per customer, source id `sign_up:<customer id>`); a customer whose e-mail
 * marketing consent is `subscribed` earns the newsletter programs (once per customer, source id
 * `sign_up_newsletter:<customer id>`, so a later unsubscribe and subscribe earns nothing more);
 * a `facts.birth_date` metafield sets the birthday. Safe to repeat. Answers the points awarded.
 */
export async function ingestCustomerWebhook(deps: EventDeps, shopId: string, topic: 'customers/create' | 'customers/update', body: unknown): Promise<{ customerId: string; signUp: number; newsletter: number }> {
  const c = parseCustomerWebhook(body);
  const now = nowIso(deps);
  const result = await deps.db.transaction().execute(async (tx) => {
    await shopOrThrow(tx, shopId);
    await upsertCustomer(tx, shopId, { id: c.id, email: c.email, firstName: c.firstName, lastName: c.lastName }, now);
    if (c.birthday) await syncBirthday(tx, shopId, c.id, c.birthday, now);
    const signUp = topic === 'customers/create' ? (await awardEventIn(tx, deps, shopId, { event: 'sign_up', key: c.id, customerId: c.id, at: now, details: { topic } })).awarded : 0;
    const newsletter = c.consent === 'subscribed' ? (await awardEventIn(tx, deps, shopId, { event: 'sign_up_newsletter', key: c.id, customerId: c.id, at: now, details: { topic, consent: c.consent } })).awarded : 0;
    return { customerId: c.id, signUp, newsletter };
  });
  // Coupon-type milestone rewards the awards reached, issued after the transaction.
  if (result.signUp + result.newsletter > 0) await issueMilestoneRewards(deps, shopId, c.id);
  return result;
}
