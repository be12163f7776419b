/**
 * The webhook topics the app handles: one entry each, so a new topic is one entry here (issue 14).
 * `prepare` runs while the platform waits, on the parsed body: a cheap shape check (a 400 with the
 * field path for a body that can never be processed) and the order the delivery is about, which
 * orders processing. `process` runs later from the queue and must be safe to repeat: every
 * processor records its own receipt, so a retried or redelivered delivery changes nothing twice.
 */
import type { AppDeps } from '../deps';
import type { Db } from '../db/database';
import { issueMilestoneRewards } from '../services/milestone-rewards';
import { issueReferralRewards } from '../services/referral-rewards';
import { ingestOrder, parseOrder, type IngestResult } from '../services/orders';
import { ingestCancellation, ingestRefund, parseCancellation, parseRefund } from '../services/refunds';
import { ingestCustomerWebhook, parseCustomerWebhook } from '../services/earning-events';
import { privacyTopic } from '../services/privacy';
import { parseVisit, processVisit, VISIT_TOPIC } from '../services/visits';

/**
 * Marks the delivery processed, with its result, inside the processor's own transaction (so the
 * two commit together). A processor that does not call it is marked processed afterwards.
 */
export type FinishDelivery = (tx: Db, result: unknown) => Promise<void>;

/** One topic: its synchronous check and its queued processor. */
export interface WebhookTopic {
  /** Throws ApiError 400 for a body that can never be processed; returns the order it concerns. */
  prepare(body: unknown): { orderKey: string };
  /** Applies the delivery (idempotent); the answer is stored as the delivery's result. */
  process(deps: AppDeps, shopId: string, body: unknown, finish: FinishDelivery): Promise<unknown>;
}

const orderSummary = (result: IngestResult) => ({ orderId: result.orderId, duplicate: result.duplicate, pointsAwarded: result.pointsAwarded });

export const WEBHOOK_TOPICS: Readonly<Record<string, WebhookTopic>> = {
  'orders/create': {
    prepare: (body) => ({ orderKey: parseOrder(body).id }),
    process: async (deps, shopId, body, finish) => {
      const result = await ingestOrder(deps, shopId, body, { inTransaction: (tx, r) => finish(tx, orderSummary(r)) });
      // Coupon-type milestone rewards the order reached, and the discount rewards of a referral it
      // completed, made on the platform after its transaction (never holding the database).
      const customerId = result.customerId;
      if (customerId && !result.duplicate) {
        await issueMilestoneRewards(deps, shopId, customerId);
        await issueReferralRewards(deps, shopId, { orderId: result.orderId });
      }
      return orderSummary(result);
    },
  },
  'refunds/create': {
    prepare: (body) => ({ orderKey: parseRefund(body).orderId }),
    process: (deps, shopId, body) => ingestRefund(deps, shopId, body),
  },
  'orders/cancelled': {
    prepare: (body) => ({ orderKey: parseCancellation(body).orderId }),
    process: (deps, shopId, body) => ingestCancellation(deps, shopId, body),
  },
  // Sign-up and newsletter points, birthday from the `facts.birth_date` metafield (server/services/earning-events.ts).
  'customers/create': {
    prepare: (body) => ({ orderKey: `customer:${parseCustomerWebhook(body).id}` }),
    process: (deps, shopId, body) => ingestCustomerWebhook(deps, shopId, 'customers/create', body),
  },
  'customers/update': {
    prepare: (body) => ({ orderKey: `customer:${parseCustomerWebhook(body).id}` }),
    process: (deps, shopId, body) => ingestCustomerWebhook(deps, shopId, 'customers/update', body),
  },
  // Privacy webhooks and the uninstall (server/services/privacy.ts).
  'customers/data_request': privacyTopic('customers/data_request'),
  'customers/redact': privacyTopic('customers/redact'),
  'shop/redact': privacyTopic('shop/redact'),
  'app/uninstalled': privacyTopic('app/uninstalled'),
};

/**
 * The app's own events, queued and processed like webhooks (durable intake, retries, dead letters,
 * per-customer order) but never accepted from the webhook route: the storefront's visit ping
 * (server/services/visits.ts).
 */
export const APP_TOPICS: Readonly<Record<string, WebhookTopic>> = {
  [VISIT_TOPIC]: {
    prepare: (body) => ({ orderKey: `customer:${parseVisit(body).customerId}` }),
    process: (deps, shopId, body) => processVisit(deps, shopId, parseVisit(body)),
  },
};

/** The platform topic's entry, or undefined for a topic the app does not take from the platform. */
export function webhookTopic(topic: string): WebhookTopic | undefined {
  return Object.hasOwn(WEBHOOK_TOPICS, topic) ? WEBHOOK_TOPICS[topic] : undefined;
}

/** The processor of a queued delivery: a platform topic or one of the app's own (APP_TOPICS). */
export function queuedTopic(topic: string): WebhookTopic | undefined {
  return webhookTopic(topic) ?? (Object.hasOwn(APP_TOPICS, topic) ? APP_TOPICS[topic] : undefined);
}
