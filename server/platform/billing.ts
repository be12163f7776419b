/**
 * The platform's billing (issue 12 "Plans and billing"; spec 000 §4 Changing plan, §7
 * `/subscription/shopify/subscribe/{planId}`). One interface, two implementations:
 * - `ShopifyBilling`: Admin GraphQL `appSubscriptionCreate` (answers the confirmation URL the
 *   merchant approves on the platform), the subscription's `status` to verify the return, and
 *   `appSubscriptionCancel`; it calls with the shop's offline access token.
 * - `LocalBilling`: deterministic and in memory, for demo mode and tests. Its confirmation URL is
 *   a page of the app itself (`/subscription/billing?…&local_charge=…`) where the merchant approves
 *   or declines the test charge; nothing touches the network.
 */
import { ApiError } from '../errors';
import { postAdminGraphql, type Fetch } from './orders';

/** What a subscription asks the platform for. Money in minor units of USD. */
export interface SubscriptionRequest {
  /** Our subscription row's id (the return URL carries it). */
  subscriptionId: string;
  /** Shown to the merchant on the platform's confirmation page ("Essential (monthly)"). */
  name: string;
  /** Price per interval before discount, minor units. */
  priceMinor: number;
  interval: 'monthly' | 'annual';
  trialDays: number;
  /** Percent off for `intervals` billing intervals, or null. */
  discount: { percent: number; intervals: number } | null;
  /** Usage charges for orders beyond the allowance (monthly plans only): the monthly cap, minor units, and the terms shown. */
  usage: { cappedAmountMinor: number; terms: string } | null;
  /** Where the platform sends the merchant after approving. */
  returnUrl: string;
}

/** The platform's subscription statuses (AppSubscriptionStatus). */
export type ChargeStatus = 'PENDING' | 'ACTIVE' | 'DECLINED' | 'CANCELLED' | 'EXPIRED' | 'FROZEN';

/** The adapter. Every method throws ApiError 502 `platform_unavailable` when the platform fails, 401 `reinstall_required` without access. */
export interface PlatformBilling {
  /** `local` or `shopify`: the admin shows the local approval page only for `local`. */
  readonly mode: 'local' | 'shopify';
  /** The URL the platform returns the merchant to after confirming subscription `subscriptionId` of `shopId`. */
  returnUrl(shopId: string, subscriptionId: string): string;
  /** Creates the charge; answers its platform id and the URL where the merchant confirms it. */
  createSubscription(shopId: string, request: SubscriptionRequest): Promise<{ platformId: string; confirmationUrl: string }>;
  /** The charge's status now (verifies a return: only ACTIVE activates a plan). */
  subscriptionStatus(shopId: string, platformId: string): Promise<ChargeStatus>;
  /** Cancels the charge (idempotent for an already cancelled one). */
  cancelSubscription(shopId: string, platformId: string): Promise<void>;
}

/**
 * Deterministic billing without a platform: charges live in memory, ids are `local-<subscription id>`,
 * and the confirmation URL is the app's own `/subscription/billing` page, which calls `approve` or
 * `decline` (the merchant's answer on the platform's page).
 */
export class LocalBilling implements PlatformBilling {
  readonly mode = 'local' as const;
  private readonly charges = new Map<string, { shopId: string; status: ChargeStatus; request: SubscriptionRequest }>();

  returnUrl(_shopId: string, subscriptionId: string): string {
    return `/subscription/billing?subscription=${encodeURIComponent(subscriptionId)}`;
  }

  createSubscription(shopId: string, request: SubscriptionRequest): Promise<{ platformId: string; confirmationUrl: string }> {
    const platformId = `local-${request.subscriptionId}`;
    this.charges.set(platformId, { shopId, status: 'PENDING', request });
    return Promise.resolve({ platformId, confirmationUrl: `${request.returnUrl}&local_charge=${encodeURIComponent(platformId)}` });
  }

  subscriptionStatus(shopId: string, platformId: string): Promise<ChargeStatus> {
    return Promise.resolve(this.charge(shopId, platformId).status);
  }

  cancelSubscription(shopId: string, platformId: string): Promise<void> {
    const charge = this.charges.get(platformId);
    if (charge?.shopId === shopId) charge.status = 'CANCELLED';
    return Promise.resolve();
  }

  /** The merchant approves a pending charge on the (local) confirmation page. @throws ApiError 404 / 409 */
  approve(shopId: string, platformId: string): void {
    const charge = this.charge(shopId, platformId);
    if (charge.status !== 'PENDING' && charge.status !== 'ACTIVE') throw new ApiError(409, 'charge_not_pending', 'This charge can no longer be approved');
    charge.status = 'ACTIVE';
  }

  /** The merchant declines a pending charge. @throws ApiError 404 / 409 */
  decline(shopId: string, platformId: string): void {
    const charge = this.charge(shopId, platformId);
    if (charge.status !== 'PENDING' && charge.status !== 'DECLINED') throw new ApiError(409, 'charge_not_pending', 'This charge can no longer be declined');
    charge.status = 'DECLINED';
  }

  private charge(shopId: string, platformId: string) {
    const charge = this.charges.get(platformId);
    if (!charge || charge.shopId !== shopId) throw new ApiError(404, 'charge_not_found', 'The platform knows no such charge');
    return charge;
  }
}

const money = (minor: number) => ({ amount: (minor / 100).toFixed(2), currencyCode: 'USD' });

const CREATE = `mutation AppSubscriptionCreate($name: String!, $lineItems: [AppSubscriptionLineItemInput!]!, $returnUrl: URL!, $trialDays: Int, $test: Boolean) {
  appSubscriptionCreate(name: $name, returnUrl: $returnUrl, lineItems: $lineItems, trialDays: $trialDays, test: $test) {
    userErrors { field message }
    confirmationUrl
    appSubscription { id status }
  }
}`;
const STATUS = `query AppSubscriptionStatus($id: ID!) { node(id: $id) { ... on AppSubscription { id status } } }`;
const CANCEL = `mutation AppSubscriptionCancel($id: ID!) { appSubscriptionCancel(id: $id) { userErrors { field message } appSubscription { id status } } }`;

/**
 * Billing through the Admin GraphQL API. `accessToken(shopId)` gives the shop's offline token
 * (server/platform/access-tokens.ts); when the platform refuses it (401/403) `onUnauthorized` runs
 * (revokes it, so the admin asks for a reinstall) and the call throws 401 `reinstall_required`.
 * `test` creates test charges (development stores).
 */
export class ShopifyBilling implements PlatformBilling {
  readonly mode = 'shopify' as const;
  constructor(
    private readonly options: {
      apiKey: string;
      accessToken: (shopId: string) => Promise<string>;
      onUnauthorized?: (shopId: string) => Promise<void>;
      test?: boolean;
      fetch?: Fetch;
    },
  ) {}

  /** The app inside the shop admin, so the return loads embedded with a session token; the platform adds `charge_id`. */
  returnUrl(shopId: string, subscriptionId: string): string {
    return `https://${shopId}/admin/apps/${this.options.apiKey}/subscription/billing?subscription=${encodeURIComponent(subscriptionId)}`;
  }

  async createSubscription(shopId: string, request: SubscriptionRequest): Promise<{ platformId: string; confirmationUrl: string }> {
    const recurring: Record<string, unknown> = { price: money(request.priceMinor), interval: request.interval === 'annual' ? 'ANNUAL' : 'EVERY_30_DAYS' };
    if (request.discount) recurring.discount = { value: { percentage: request.discount.percent / 100 }, durationLimitInIntervals: request.discount.intervals };
    const lineItems: unknown[] = [{ plan: { appRecurringPricingDetails: recurring } }];
    // The platform takes usage pricing only beside a 30-day recurring price.
    if (request.usage && request.interval === 'monthly') lineItems.push({ plan: { appUsagePricingDetails: { terms: request.usage.terms, cappedAmount: money(request.usage.cappedAmountMinor) } } });
    const data = await this.graphql(shopId, CREATE, { name: request.name, lineItems, returnUrl: request.returnUrl, trialDays: request.trialDays, test: this.options.test === true });
    const created = (data.appSubscriptionCreate ?? {}) as { userErrors?: { message: string }[]; confirmationUrl?: string; appSubscription?: { id?: string } };
    const userError = created.userErrors?.[0];
    if (userError) throw new ApiError(422, 'billing_refused', userError.message);
    if (!created.confirmationUrl || !created.appSubscription?.id) throw new ApiError(502, 'platform_unavailable', 'The platform answered without a confirmation URL');
    return { platformId: created.appSubscription.id, confirmationUrl: created.confirmationUrl };
  }

  async subscriptionStatus(shopId: string, platformId: string): Promise<ChargeStatus> {
    const data = await this.graphql(shopId, STATUS, { id: platformId });
    const status = (data.node as { status?: string } | null)?.status;
    if (!status) throw new ApiError(404, 'charge_not_found', 'The platform knows no such subscription');
    return status as ChargeStatus;
  }

  async cancelSubscription(shopId: string, platformId: string): Promise<void> {
    const data = await this.graphql(shopId, CANCEL, { id: platformId });
    const userError = (data.appSubscriptionCancel as { userErrors?: { message: string }[] } | undefined)?.userErrors?.[0];
    if (userError) throw new ApiError(422, 'billing_refused', userError.message);
  }

  private async graphql(shopId: string, query: string, variables: Record<string, unknown>): Promise<Record<string, unknown>> {
    const response = await postAdminGraphql(this.options.fetch, shopId, await this.options.accessToken(shopId), query, variables);
    if (response.status === 401 || response.status === 403) {
      await this.options.onUnauthorized?.(shopId);
      throw new ApiError(401, 'reinstall_required', 'The app no longer has access to this shop. Install it again to continue.');
    }
    if (!response.ok) throw new ApiError(502, 'platform_unavailable', `The platform answered ${response.status}`);
    const body = (await response.json().catch(() => ({}))) as { data?: Record<string, unknown>; errors?: { message: string }[] };
    if (body.errors?.[0] || !body.data) throw new ApiError(502, 'platform_unavailable', body.errors?.[0]?.message ?? 'The platform answered without data');
    return body.data;
  }
}
