import type { JsonObject, KindDetail, KindSummary, StoredDocument } from '../../engine/types';
import { request } from './client';

/** A program as `/api/lp/programs…` lists it (spec 001 §3 Program). */
export type ProgramRow = StoredDocument & {
  type: 'earning' | 'spending';
  /** Kind name, e.g. `place_order`. */
  event: string;
  title: string;
  status: boolean;
};

/** The program list a tab of /programs shows. */
export type ProgramListType = 'earning' | 'spending';

export interface ShopResponse {
  shop: { id: string; name: string; domain: string; plan: string; currency: string; ianaTimezone: string };
  shopInfo: { currency: string; ianaTimezone: string; planName: string; shopOwner: string };
}

export interface AuthConfig {
  demo: boolean;
  shopDomain: string | null;
}

const kindPath = (kind: string) => `/api/kinds/${encodeURIComponent(kind)}`;

/** Typed calls of the API contract; one function per route. */
export const api = {
  authConfig: () => request<AuthConfig>('/auth/config', { anonymous: true }),
  demoLogin: () =>
    request<{ token: string; shopDomain: string }>('/auth/demo-login', { method: 'POST', anonymous: true }),
  shop: () => request<ShopResponse>('/api/shops'),
  kinds: async () => (await request<{ data: KindSummary[] }>('/api/kinds')).data,
  kind: async (kind: string) => (await request<{ data: KindDetail }>(kindPath(kind))).data,
  programs: async (type: ProgramListType) =>
    (await request<{ data: ProgramRow[] }>(`/api/lp/programs/${type}`)).data,
  program: async (id: string) =>
    (await request<{ data: ProgramRow }>(`/api/lp/programs/${encodeURIComponent(id)}`)).data,
  createDoc: async (kind: string, data: JsonObject) =>
    (await request<{ data: StoredDocument }>(`${kindPath(kind)}/docs`, { method: 'POST', body: { data } })).data,
  updateDoc: async (kind: string, id: string, data: JsonObject, version: number) =>
    (
      await request<{ data: StoredDocument }>(`${kindPath(kind)}/docs/${encodeURIComponent(id)}`, {
        method: 'PUT',
        body: { data, version },
      })
    ).data,
  deleteDoc: (kind: string, id: string) =>
    request<{ success: true }>(`${kindPath(kind)}/docs/${encodeURIComponent(id)}`, { method: 'DELETE' }),
};
