/**
 * The storefront visit ping (issue 11, spec 001 §3 "Visit website" and "Visit streak"; spec 002 §4
 * locks streaks once on). `POST /proxy/visit` records the visit durably through the webhook queue
 * (server/webhooks/queue.ts: on SQLite with a processing thread, one append to the intake journal)
 * and answers 202 at once; the queue's processor then awards it through the same engine as every
 * other event, in the customer's order (`customer:<id>`, shared with the customer webhooks).
 *
 * Why not award while the widget waits: awarding runs both visit programs through the engine with
 * the shopper's history and writes up to two ledger entries (about 2.4 ms on the 2-core machine),
 * while the ping comes on every visit of every shopper; `npm run bench:storefront` asks for the
 * ping within 2× of a bare signature check. The widget reloads the balance card a moment later.
 *
 * Everything that decides the award travels with the visit: the shopper, the ping's moment (limits
 * and the streak's store-local day are those of the visit, not of its processing) and its key, so
 * a late or repeated processing awards exactly what an immediate one would have.
 */
import { localDate } from '../../engine/store-time';
import type { AppDeps } from '../deps';
import { ApiError } from '../errors';
import type { NewDelivery } from '../webhooks/queue';
import { awardEvents } from './earning-events';
import { shopOrThrow } from './orders';

/** The queue topic of a visit (the app's own; the webhook route never accepts it from outside). */
export const VISIT_TOPIC = 'loyalty/visit';

/** A visit as queued: the signed-in shopper, the ping's ISO 8601 moment and its key (the `Idempotency-Key`, else a fresh UUID). */
export interface Visit {
  customerId: string;
  at: string;
  key: string;
}

/**
 * The queue delivery of `visit` for `shopId`. With the widget's `Idempotency-Key` (`given`) the
 * delivery's id is `visit:<customer>:<key>`, so a retried ping is stored once; a ping without one
 * is its own visit.
 */
export function visitDelivery(shopId: string, visit: Visit, given: boolean): NewDelivery {
  return { shopId, topic: VISIT_TOPIC, webhookId: given ? `visit:${visit.customerId}:${visit.key}`.slice(0, 255) : null, orderKey: `customer:${visit.customerId}`, body: JSON.stringify(visit), parsed: visit };
}

/** The stored visit, checked. Throws ApiError 400 `invalid_visit` (a dead letter: it can never be processed). */
export function parseVisit(body: unknown): Visit {
  const v = body as Partial<Visit> | null;
  if (!v || typeof v.customerId !== 'string' || v.customerId === '' || typeof v.key !== 'string' || typeof v.at !== 'string' || Number.isNaN(Date.parse(v.at))) {
    throw new ApiError(400, 'invalid_visit', 'A visit needs customerId, key and an ISO 8601 at');
  }
  return { customerId: v.customerId, at: v.at, key: v.key };
}

/**
 * Awards a visit (idempotent): the visit programs per visit within their limits (source id
 * `interact_website:<customer>:<key>`), the streak programs once per store-local day of the visit
 * (`streak_interact_website:<customer>:<date>`), one transaction. Answers the points awarded.
 * Throws ApiError 404 `unknown_shop` for a shop without the app.
 */
export async function processVisit(deps: AppDeps, shopId: string, visit: Visit): Promise<{ customerId: string; awarded: number }> {
  const shop = await shopOrThrow(deps.db, shopId);
  const { customerId, at, key } = visit;
  const [site, streak] = await awardEvents(
    deps,
    shop.id,
    customerId,
    [
      { event: 'interact_website', key: `${customerId}:${key}`, customerId, at },
      { event: 'streak_interact_website', key: `${customerId}:${localDate(new Date(at), shop.timeZone)}`, customerId, at },
    ],
    at,
  );
  return { customerId, awarded: site!.awarded + streak!.awarded };
}
