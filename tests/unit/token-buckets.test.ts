/** The storefront rate limit's buckets (server/proxy/rate-limit.ts): limits, refill, and memory that follows recent shoppers. */
import { describe, expect, it } from 'vitest';
import { TokenBuckets } from '../../server/proxy/rate-limit';

describe('TokenBuckets', () => {
  it('allows the burst, then answers the whole seconds until a token is back, and refills with time', () => {
    const buckets = new TokenBuckets({ rate: 0.5, burst: 3 });
    expect([0, 1, 2].map(() => buckets.take('shopper', 0))).toEqual([0, 0, 0]);
    expect(buckets.take('shopper', 0)).toBe(2);
    expect(buckets.take('shopper', 2_000)).toBe(0);
    expect(buckets.take('other', 2_000)).toBe(0);
  });

  it('drops buckets that are full again a few at a time, so a stream of new shoppers does not grow memory', () => {
    const buckets = new TokenBuckets({ rate: 5, burst: 30 }); // full again 6 s after its last take
    for (let i = 0; i < 10_000; i++) buckets.take(`early-${i}`, 0);
    expect(buckets.size).toBe(10_000);
    // 10,000 other shoppers, each once, after the first ones are full again.
    for (let i = 0; i < 10_000; i++) buckets.take(`late-${i}`, 10_000);
    // Every early bucket was looked at and dropped; the late ones are kept (not full yet).
    expect(buckets.size).toBeLessThanOrEqual(10_000 + 100);
    expect(buckets.size).toBeGreaterThanOrEqual(10_000);
    // A kept bucket still limits: the 31st take at once is refused.
    for (let i = 0; i < 29; i++) expect(buckets.take('late-0', 10_000)).toBe(0);
    expect(buckets.take('late-0', 10_000)).toBeGreaterThan(0);
  });
});
