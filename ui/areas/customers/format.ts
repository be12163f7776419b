import type { ActivityEntry, CustomerRow, CustomerTab } from '../../api/endpoints';
import type { BadgeTone } from '../../components/Badge';
import type { MessageKey, Translate } from '../../i18n';

/** Spec 002 §3 customer types: Member, Guest, Left Program. */
export const typeLabels: Record<string, MessageKey> = { member: 'customers.type.member', guest: 'customers.type.guest', left: 'customers.type.left' };
export const typeTones: Record<string, BadgeTone> = { member: 'success', guest: 'neutral', left: 'attention' };

/** The platform's RFM groups in the admin's words (spec 002 §2 "11 predefined RFM groups"). */
export const rfmLabels: Record<string, MessageKey> = {
  CHAMPIONS: 'segments.group.CHAMPIONS',
  LOYAL: 'segments.group.LOYAL',
  ACTIVE: 'segments.group.ACTIVE',
  NEW: 'segments.group.NEW',
  PROMISING: 'segments.group.PROMISING',
  NEEDS_ATTENTION: 'segments.group.NEEDS_ATTENTION',
  ALMOST_LOST: 'segments.group.ALMOST_LOST',
  AT_RISK: 'segments.group.AT_RISK',
  PREVIOUSLY_LOYAL: 'segments.group.PREVIOUSLY_LOYAL',
  DORMANT: 'segments.group.DORMANT',
  PROSPECTS: 'segments.group.PROSPECTS',
};

/** First and last name, or `fallback` when the platform sent neither. */
export function customerName(c: Pick<CustomerRow, 'firstName' | 'lastName'>, fallback: string): string {
  return `${c.firstName} ${c.lastName}`.trim() || fallback;
}

interface Working {
  earnBy?: string;
  base?: number;
  roundingMethod?: string;
  rate?: { earnPoint: number; rateMoney: number; rateItem: number };
}
interface OrderExplanation {
  orderId?: string;
  orderName?: string;
  decision?: { programTitle?: string; message?: string; working?: Working | null };
}
interface AdjustmentExplanation {
  adminNote?: string;
  customerNote?: string;
}

const roundingKeys: Record<string, MessageKey> = {
  roundingDown: 'activity.rounding.down',
  roundingUp: 'activity.rounding.up',
  roundingNearest: 'activity.rounding.nearest',
};

/**
 * A ledger entry in plain words in the admin's language, from the explanation stored with it:
 * "Place an order: 12 points = $125.50 ÷ $100 × 10, rounded down" for an order award whose
 * working kept the rate; the stored message otherwise. `currency` formats money (minor units from
 * the working, with `exponent` decimals).
 */
export function describeEntry(entry: ActivityEntry, t: Translate, currency: string, exponent = 2): { text: string; note?: string } {
  const money = (major: number) => new Intl.NumberFormat(undefined, { style: 'currency', currency }).format(major);
  if (entry.sourceType === 'order') {
    const e = (entry.explanation ?? {}) as OrderExplanation;
    const d = e.decision ?? {};
    const title = d.programTitle ?? t('activity.orderProgram');
    const w = d.working;
    const rounding = w?.roundingMethod && roundingKeys[w.roundingMethod] ? t(roundingKeys[w.roundingMethod]!) : '';
    if (w?.rate && (w.earnBy === 'order' || w.earnBy === 'price') && typeof w.base === 'number') {
      return { text: t('activity.orderMoney', { title, points: entry.points, amount: money(w.base / 10 ** exponent), per: money(w.rate.rateMoney), earn: w.rate.earnPoint, rounding }) };
    }
    if (w?.rate && w.earnBy === 'quantity' && typeof w.base === 'number') {
      return { text: t('activity.orderItems', { title, points: entry.points, items: w.base, per: w.rate.rateItem, earn: w.rate.earnPoint, rounding }) };
    }
    if (w?.earnBy === 'fixed_order') return { text: t('activity.orderFixed', { title, points: entry.points, order: e.orderName ?? e.orderId ?? entry.sourceId }) };
    return { text: d.message ?? t('activity.orderProgram') };
  }
  if (entry.sourceType === 'refund') return { text: t('activity.refund', { order: entry.sourceId.length > 0 ? String((entry.explanation as { orderId?: string } | null)?.orderId ?? entry.sourceId) : '' }) };
  if (entry.sourceType === 'cancellation') return { text: t('activity.cancellation', { order: String((entry.explanation as { orderId?: string } | null)?.orderId ?? entry.sourceId) }) };
  if (entry.sourceType === 'review') {
    const e = (entry.explanation ?? {}) as { productTitle?: string | null; decision?: { programTitle?: string } };
    return { text: t('activity.review', { title: e.decision?.programTitle ?? t('activity.reviewProgram'), points: entry.points, product: e.productTitle ?? '' }).replace(/\s+—\s*$/, '') };
  }
  if (entry.sourceType === 'expiry') {
    const e = (entry.explanation ?? {}) as { consumed?: { earnedOn?: string }[] };
    const dates = [...new Set((e.consumed ?? []).map((c) => c.earnedOn).filter((d): d is string => typeof d === 'string'))];
    return { text: t('activity.expiry', { points: Math.abs(entry.points), dates: dates.join(', ') || '—' }) };
  }
  if (entry.sourceType === 'tier_entry_reward') {
    const e = (entry.explanation ?? {}) as { tierName?: string };
    return { text: t('activity.entryReward', { tier: e.tierName ?? '—', points: entry.points }) };
  }
  if (entry.sourceType === 'pending_conversion') return { text: t(entry.type === 'pending_deduct' ? 'activity.pendingDeduct' : 'activity.pendingConvert', { points: Math.abs(entry.points) }) };
  if (entry.sourceType === 'import') {
    const e = (entry.explanation ?? {}) as { import?: { fileName?: string; row?: number } };
    return { text: t('activity.import', { file: e.import?.fileName ?? '—', row: e.import?.row ?? '—' }) };
  }
  if (entry.sourceType === 'redemption') {
    const e = (entry.explanation ?? {}) as { reward?: { title?: string }; code?: string };
    return { text: t('rewards.activity.redemption', { title: e.reward?.title ?? '—', code: e.code ?? '—' }) };
  }
  if (entry.sourceType === 'revoke') {
    const e = (entry.explanation ?? {}) as { code?: string; adminNote?: string };
    return { text: t('rewards.activity.revoke', { code: e.code ?? '—' }), ...(e.adminNote ? { note: t('rewards.activity.revokeNote', { note: e.adminNote }) } : {}) };
  }
  if (entry.sourceType === 'admin_adjustment') {
    const e = (entry.explanation ?? {}) as AdjustmentExplanation;
    return { text: e.adminNote ? t('activity.adjustmentNote', { note: e.adminNote }) : t('activity.adjustment'), ...(e.customerNote ? { note: t('activity.customerNote', { note: e.customerNote }) } : {}) };
  }
  return { text: entry.type };
}

/** Each customers list tab's label (spec 002 §2 tabs), for the tabs and the export dialog's scope. */
export const tabLabels: Record<CustomerTab, MessageKey> = {
  all: 'customers.tabs.all',
  member: 'customers.tabs.member',
  guest: 'customers.tabs.guest',
  left: 'customers.tabs.left',
  b2b: 'customers.tabs.b2b',
  left_segment: 'customers.tabs.leftSegment',
};
