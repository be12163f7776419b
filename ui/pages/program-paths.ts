import type { ProgramListType } from '../api/endpoints';

/** The tabs of /programs, as written in the `type` query parameter (spec 000 §2, spec 001 §2). */
export type ProgramTab = 'earning' | 'redeem' | 'referral' | 'milestone' | 'tier';

/** The tabs that list programs and offer the add menu. */
export type ProgramListTab = 'earning' | 'redeem' | 'milestone';

export const programTabs: readonly ProgramTab[] = ['earning', 'redeem', 'referral', 'milestone', 'tier'];

/** Which program list a tab shows: redeem rewards are stored as `spending` programs, milestones are earning programs. */
export const listTypeOfTab: Record<ProgramListTab, ProgramListType> = { earning: 'earning', redeem: 'spending', milestone: 'earning' };

export const MILESTONE_KIND = 'earning.milestone';

/** Which kinds a program tab lists and its add menu offers: milestones have a tab of their own. */
export function tabOffersKind(tab: ProgramListTab, kind: string): boolean {
  if (tab === 'milestone') return kind === MILESTONE_KIND;
  const family = kind.split('.')[0];
  if (tab === 'earning') return family === 'earning' && kind !== MILESTONE_KIND;
  return family === 'redeem';
}

export function isProgramListTab(tab: ProgramTab): tab is ProgramListTab {
  return tab === 'earning' || tab === 'redeem' || tab === 'milestone';
}

/** The /programs tab a document of this kind is listed on (`earning.milestone` → milestone). */
export function tabOfKind(kind: string): ProgramTab {
  if (kind === MILESTONE_KIND) return 'milestone';
  const family = kind.split('.')[0];
  if (family === 'redeem' || family === 'referral' || family === 'tier') return family;
  return 'earning';
}

/** Unknown or missing values fall back to earning, the spec's default. */
export function parseTab(value: string | null): ProgramTab {
  return programTabs.find((tab) => tab === value) ?? 'earning';
}

export const paths = {
  list: (tab: ProgramTab) => `/programs?type=${tab}`,
  create: (event: string) => `/programs/${encodeURIComponent(event)}/new`,
  edit: (id: string) => `/programs/point/${encodeURIComponent(id)}`,
  editSettings: (id: string) => `/programs/edit-settings/${encodeURIComponent(id)}`,
  tierCreate: '/programs/tier/create',
  tier: (id: string) => `/programs/tier/${encodeURIComponent(id)}`,
  tierReward: (id: string) => `/membership/tier-reward/${encodeURIComponent(id)}`,
  referral: '/programs/referral',
  friendReward: '/programs/referral/friendReward',
  customerReward: '/programs/referral/customerReward',
  membership: '/membership',
  vip: (tab?: string) => (tab ? `/membership/vip?tab=${tab}` : '/membership/vip'),
  deals: '/membership/exclusive-deal',
  dealCreate: '/membership/exclusive-deal/new',
  deal: (id: string) => `/membership/exclusive-deal/${encodeURIComponent(id)}`,
  partners: '/wholesale/vip',
  partnerCreate: '/wholesale/vip/new',
  partner: (id: string) => `/wholesale/vip/${encodeURIComponent(id)}`,
};

/** Lists outside /programs that hold a kind's documents; every other kind is listed on its /programs tab. */
const listOutsidePrograms: Record<string, string> = {
  'tier.settings': paths.membership,
  'tier.partner': paths.partners,
  'membership.exclusive_deal': paths.deals,
  // The shop's settings document: its sections are the Settings screen (ui/areas/settings).
  'settings.shop': '/settings',
};

/** Where the back arrow of a document's editor leads: the list that shows the document. */
export function listPathOf(kind: string): string {
  return listOutsidePrograms[kind] ?? paths.list(tabOfKind(kind));
}
