import type { JsonObject } from '../../engine/types';

/**
 * A document's display name: its own `title` (programs, referral program) or `name` (tiers, deals),
 * else the fallback (the kind's title).
 */
export function documentTitle(data: JsonObject, fallback: string): string {
  const own = typeof data.title === 'string' && data.title ? data.title : typeof data.name === 'string' ? data.name : '';
  return own || fallback;
}
