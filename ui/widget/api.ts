/**
 * The widget's calls to the storefront API (docs/storefront-api.md). The widget calls the shop's own
 * domain under the app-proxy path (default `/apps/loyalty`); the platform signs and forwards them to
 * `/proxy/*`. Answers are `{ data }`; errors `{ error: { code, message } }` whose message is the
 * spec's shopper wording, thrown as `WidgetApiError`.
 */

// The answers' shapes are the server's own types (type-only imports: nothing of the server is bundled).
import type { WidgetConfig } from '../../server/proxy/widget';
import type { HistoryEntry as HistoryItem, RewardView as Reward, ShopperView, WayToEarn } from '../../server/proxy/shopper';
import type { CouponView as Coupon } from '../../server/services/redemption';

export type { Coupon, HistoryItem, Reward, ShopperView, WayToEarn, WidgetConfig };

/** A refused call, with the spec's message for the shopper. */
export class WidgetApiError extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
  ) {
    super(message);
  }
}

/** What the widget reads and does; `WidgetApi` over the network, `PreviewApi` from sample data. */
export type WidgetCalls = Pick<WidgetApi, 'config' | 'shopper' | 'waysToEarn' | 'rewards' | 'coupons' | 'history' | 'referral' | 'redeem' | 'revoke' | 'claim' | 'visit'>;

/** Everything the admin's live preview shows, embedded in the preview page as JSON. */
export interface PreviewData {
  config: WidgetConfig;
  shopper: ShopperView | null;
  earn: WayToEarn[];
  rewards: Reward[];
  coupons: Coupon[];
  history: HistoryItem[];
  referral: { url: string; code: string } | null;
}

/** The admin's preview: sample shop data, no network; actions answer as if they worked, changing nothing. */
export class PreviewApi implements WidgetCalls {
  constructor(private readonly data: PreviewData) {}
  config = () => Promise.resolve(this.data.config);
  shopper = () => Promise.resolve(this.data.shopper);
  waysToEarn = () => Promise.resolve(this.data.earn);
  rewards = () => Promise.resolve(this.data.rewards);
  coupons = () => Promise.resolve(this.data.coupons);
  history = () => Promise.resolve({ items: this.data.history, endCursor: null });
  referral = () => Promise.resolve(this.data.referral);
  redeem = (rewardId: string) => {
    const coupon = this.data.coupons[0] ?? { id: 'sample', code: 'SAMPLE-CODE', rewardId, title: rewardId, pointsSpent: 0, createdAt: new Date().toISOString(), expiresAt: null, status: 'available' as const, revocable: false };
    return Promise.resolve({ coupon, points: this.data.shopper?.points ?? 0 });
  };
  revoke = (couponId: string) => Promise.resolve({ coupon: this.data.coupons.find((c) => c.id === couponId)!, points: this.data.shopper?.points ?? 0 });
  claim = () => Promise.resolve({ awarded: 0 });
  visit = () => Promise.resolve({ queued: false });
}

/**
 * The calls, bound to one proxy path and language: first the page's (`<html lang>`); once the
 * configuration answered, the language the shop's detect method picked from the page's and the
 * browser's (`browserLanguage`), so every later call names it.
 */
export class WidgetApi {
  constructor(
    private readonly base: string,
    private language: string,
    private readonly browserLanguage = '',
  ) {}

  private async send<T>(method: 'GET' | 'POST', path: string, body?: unknown, headers: Record<string, string> = {}): Promise<T> {
    const sep = path.includes('?') ? '&' : '?';
    const res = await fetch(`${this.base}${path}${sep}language=${encodeURIComponent(this.language)}`, {
      method,
      credentials: 'same-origin',
      headers: { Accept: 'application/json', ...(body === undefined ? {} : { 'Content-Type': 'application/json' }), ...headers },
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
    });
    const json = (await res.json().catch(() => null)) as { data?: T; error?: { code?: string; message?: string } } | null;
    if (!res.ok) throw new WidgetApiError(res.status, json?.error?.code ?? 'error', json?.error?.message ?? `HTTP ${res.status}`);
    return json?.data as T;
  }

  private async list<T>(path: string): Promise<{ items: T[]; endCursor: string | null }> {
    const sep = path.includes('?') ? '&' : '?';
    const res = await fetch(`${this.base}${path}${sep}language=${encodeURIComponent(this.language)}`, { credentials: 'same-origin', headers: { Accept: 'application/json' } });
    const json = (await res.json().catch(() => null)) as { data?: T[]; pageInfo?: { hasNextPage: boolean; endCursor: string | null }; error?: { code?: string; message?: string } } | null;
    if (!res.ok) throw new WidgetApiError(res.status, json?.error?.code ?? 'error', json?.error?.message ?? `HTTP ${res.status}`);
    return { items: json?.data ?? [], endCursor: json?.pageInfo?.hasNextPage ? json.pageInfo.endCursor : null };
  }

  config = async () => {
    const config = await this.send<WidgetConfig>('GET', this.browserLanguage ? `/widget?browserLanguage=${encodeURIComponent(this.browserLanguage)}` : '/widget');
    if (config?.language) this.language = config.language;
    return config;
  };
  shopper = () => this.send<ShopperView | null>('GET', '/customer');
  waysToEarn = () => this.send<WayToEarn[]>('GET', '/ways-to-earn');
  rewards = () => this.send<Reward[]>('GET', '/rewards');
  coupons = () => this.send<Coupon[]>('GET', '/coupons');
  history = (cursor?: string | null) => this.list<HistoryItem>(`/history${cursor ? `?cursor=${encodeURIComponent(cursor)}` : ''}`);
  referral = () => this.send<{ url: string; code: string } | null>('GET', '/referral');
  /** Redeems with a fresh Idempotency-Key per click (a retried click sends the same key). */
  redeem = (rewardId: string, points: number | undefined, idempotencyKey: string) =>
    this.send<{ coupon: Coupon; points: number }>('POST', '/redeem', { rewardId, ...(points === undefined ? {} : { points }) }, { 'Idempotency-Key': idempotencyKey });
  revoke = (couponId: string) => this.send<{ coupon: Coupon; points: number }>('POST', `/coupons/${encodeURIComponent(couponId)}/revoke`, {});
  claim = (programId: string) => this.send<{ awarded: number }>('POST', '/claim', { programId });
  /** Records a visit (202): the award follows from the server's queue, `queued` false for a guest. */
  visit = () => this.send<{ queued: boolean }>('POST', '/visit', {});
}
