import type { KindFamily } from '../../engine/types';
import type { ProgramListType } from '../api/endpoints';

/** The two tabs of /programs, as written in the `type` query parameter. */
export type ProgramTab = 'earning' | 'redeem';

/** Which program list a tab shows: redeem rewards are stored as `spending` programs. */
export const listTypeOfTab: Record<ProgramTab, ProgramListType> = { earning: 'earning', redeem: 'spending' };

/** Which kinds the add menu offers on a tab. */
export const familyOfTab: Record<ProgramTab, KindFamily> = { earning: 'earning', redeem: 'redeem' };

export function tabOfFamily(family: string): ProgramTab {
  return family === 'redeem' || family === 'spending' ? 'redeem' : 'earning';
}

export function parseTab(value: string | null): ProgramTab {
  return value === 'redeem' ? 'redeem' : 'earning';
}

export const paths = {
  list: (tab: ProgramTab) => `/programs?type=${tab}`,
  create: (event: string) => `/programs/${encodeURIComponent(event)}/new`,
  edit: (id: string) => `/programs/point/${encodeURIComponent(id)}`,
};
