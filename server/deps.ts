/** What `createApp` needs; tests pass their own (in-memory database, fixed clock). */
import type { Registry } from '../engine/registry';
import type { AuthConfig } from './config';
import type { Db } from './db/database';
import type { Logger } from './logging';
import type { PlatformDiscounts } from './platform/discounts';
import type { PlatformOrders } from './platform/orders';
import type { PlatformBilling } from './platform/billing';
import type { PlatformCustomerSegments } from './platform/customer-segments';
import type { AccessTokenOptions } from './platform/access-tokens';
import type { WebhookQueue } from './webhooks/queue';
import type { EmailAdapter } from './email/adapter';

export interface AppDeps {
  db: Db;
  registry: Registry;
  auth: AuthConfig;
  /** Current time; defaults to the wall clock. */
  now?: () => Date;
  /** Folder of the built UI (index.html + assets) to serve, or undefined for API only. */
  uiDir?: string;
  /** Structured request log (server/logging.ts); silent when absent. */
  logger?: Logger;
  /** The webhook queue; createApp makes one (processing after each delivery) when absent. */
  queue?: WebhookQueue;
  /**
   * The platform's orders for reconciliation (server/platform/orders.ts); defaults to the Admin API
   * adapter, or in demo mode to an empty local one.
   */
  platformOrders?: PlatformOrders;
  /**
   * Discount codes and gift cards on the platform (server/platform/discounts.ts): redemption and
   * the referral friend's coupon. main.ts passes LocalDiscounts in demo mode, tests their own.
   */
  platformDiscounts?: PlatformDiscounts;
  /**
   * The platform's billing (server/platform/billing.ts); defaults to the Admin GraphQL adapter, or
   * in demo mode to the local one whose confirmation page is the app's own.
   */
  platformBilling?: PlatformBilling;
  /**
   * Customers' RFM groups on the platform (server/platform/customer-segments.ts); defaults to the
   * Admin GraphQL adapter, or in demo mode to the local one that files customers by their stored orders.
   */
  platformSegments?: PlatformCustomerSegments;
  /**
   * E-mail the app sends (server/email/adapter.ts): main.ts passes SMTP when SMTP_URL or SMTP_HOST
   * is set; absent, messages go to the local outbox of `db` (demo mode, tests).
   */
  email?: EmailAdapter;
  /** Offline access tokens (server/platform/access-tokens.ts): the token endpoint's fetch and the encryption keys; from the environment when absent. */
  accessTokens?: AccessTokenOptions;
}

/** Hono environment of every route: the verified tenant and user. */
export type AppEnv = { Variables: { shopId: string; userId: string } };
