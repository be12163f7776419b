/**
 * Rate limit of the storefront API (issue 11, docs/storefront-api.md "Transport"): a token bucket
 * per shopper (shop + signed-in customer id) and one per shop, in this process's memory. A request
 * takes one token from each; when either bucket is empty the answer is 429 `rate_limited` with
 * `Retry-After` (whole seconds until a token is back) in the app's one error shape. Guests share
 * their shop's bucket only (the platform's proxy hides who they are).
 *
 * Configuration (environment, read when the app is built): `PROXY_SHOPPER_RATE` tokens per second
 * per shopper (5) with `PROXY_SHOPPER_BURST` (30) at most; `PROXY_SHOP_RATE` (300) and
 * `PROXY_SHOP_BURST` (1,000) per shop. Several server processes each keep their own buckets, so the
 * effective limit is per process.
 */

/** One bucket's shape: refill `rate` tokens per second up to `burst`. */
export interface BucketLimit {
  /** Tokens added per second (may be fractional). */
  rate: number;
  /** Bucket size: the most requests at once after a quiet spell. */
  burst: number;
}

/** The storefront limits. */
export interface ProxyRateLimits {
  shopper: BucketLimit;
  shop: BucketLimit;
}

/** Defaults: a shopper's widget makes a handful of calls per page view; a busy shop a few hundred per second. */
export const DEFAULT_PROXY_RATE_LIMITS: ProxyRateLimits = { shopper: { rate: 5, burst: 30 }, shop: { rate: 300, burst: 1000 } };

const positive = (text: string | undefined, fallback: number): number => {
  const n = Number(text);
  return text !== undefined && text.trim() !== '' && Number.isFinite(n) && n > 0 ? n : fallback;
};

/** Limits from `PROXY_SHOPPER_RATE`, `PROXY_SHOPPER_BURST`, `PROXY_SHOP_RATE`, `PROXY_SHOP_BURST` (a missing or non-positive value keeps the default). */
export function proxyRateLimitsFromEnv(env: Readonly<Record<string, string | undefined>> = process.env): ProxyRateLimits {
  const d = DEFAULT_PROXY_RATE_LIMITS;
  return {
    shopper: { rate: positive(env.PROXY_SHOPPER_RATE, d.shopper.rate), burst: positive(env.PROXY_SHOPPER_BURST, d.shopper.burst) },
    shop: { rate: positive(env.PROXY_SHOP_RATE, d.shop.rate), burst: positive(env.PROXY_SHOP_BURST, d.shop.burst) },
  };
}

interface Bucket {
  tokens: number;
  /** Milliseconds (epoch) of the last refill. */
  at: number;
}

/** Buckets looked at by each take for being full again (and dropped): more than one take can add. */
const SWEEP_PER_TAKE = 4;

/**
 * Token buckets by key, refilled lazily on each take. Buckets idle long enough to be full again
 * are dropped a few at a time on every take (a cursor walks the map round and round), so memory
 * follows the shoppers of the last moments, not all time, and no take pays for a walk over every
 * shopper (with a different shopper per request that walk stalled the server every 10 s).
 */
export class TokenBuckets {
  private readonly buckets = new Map<string, Bucket>();
  private cursor: Iterator<[string, Bucket]> | null = null;
  /** Milliseconds after which an untouched bucket is full again (and can be forgotten). */
  private readonly refillMs: number;

  constructor(readonly limit: BucketLimit) {
    this.refillMs = (limit.burst / limit.rate) * 1000;
  }

  /**
   * Takes one token for `key` at `nowMs`. Answers 0 when taken, else the seconds (whole, at least
   * 1) until one is back; a refused request takes nothing.
   */
  take(key: string, nowMs: number): number {
    this.sweep(nowMs);
    const { rate, burst } = this.limit;
    let b = this.buckets.get(key);
    if (!b) {
      b = { tokens: burst, at: nowMs };
      this.buckets.set(key, b);
    } else if (nowMs > b.at) {
      b.tokens = Math.min(burst, b.tokens + ((nowMs - b.at) / 1000) * rate);
      b.at = nowMs;
    }
    if (b.tokens >= 1) {
      b.tokens -= 1;
      return 0;
    }
    return Math.max(1, Math.ceil((1 - b.tokens) / rate));
  }

  /** Gives back a token taken by mistake (the other bucket refused the request). */
  giveBack(key: string): void {
    const b = this.buckets.get(key);
    if (b) b.tokens = Math.min(this.limit.burst, b.tokens + 1);
  }

  /** Buckets held now (for tests and diagnostics). */
  get size(): number {
    return this.buckets.size;
  }

  private sweep(nowMs: number): void {
    for (let i = 0; i < SWEEP_PER_TAKE; i++) {
      this.cursor ??= this.buckets.entries();
      const next = this.cursor.next();
      if (next.done) {
        this.cursor = null;
        return;
      }
      const [key, b] = next.value;
      if (nowMs - b.at >= this.refillMs) this.buckets.delete(key);
    }
  }
}

/**
 * The two buckets of the storefront API (per shopper, per shop) and the 429 answer's wording.
 * `take` answers 0 when the request may go on, else the whole seconds for `Retry-After`.
 */
export class ProxyRateLimiter {
  private readonly shops: TokenBuckets;
  private readonly shoppers: TokenBuckets;

  constructor(limits: ProxyRateLimits) {
    this.shops = new TokenBuckets(limits.shop);
    this.shoppers = new TokenBuckets(limits.shopper);
  }

  /** Takes a token from the shopper's bucket (none for a guest, `customerId` null) and the shop's; a refusal by the shop gives the shopper's back. */
  take(shopId: string, customerId: string | null, nowMs: number): number {
    let wait = 0;
    const shopperKey = customerId === null ? null : `${shopId}\u0000${customerId}`;
    if (shopperKey !== null) wait = this.shoppers.take(shopperKey, nowMs);
    if (wait === 0) {
      wait = this.shops.take(shopId, nowMs);
      if (wait > 0 && shopperKey !== null) this.shoppers.giveBack(shopperKey);
    }
    return wait;
  }
}

/** The 429 body for a wait of `seconds`. */
export function rateLimitedBody(seconds: number): { error: { code: 'rate_limited'; message: string } } {
  return { error: { code: 'rate_limited', message: `Too many requests. Please try again in ${seconds} second${seconds === 1 ? '' : 's'}.` } };
}
