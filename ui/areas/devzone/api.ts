import { request } from '../../api/client';

/** A recommended app (spec 001 §3). */
export interface RecommendedApp {
  id: string;
  title: string;
  description: string;
  img: string;
  appStoreUrl: string;
  integrationUrl: string | null;
  type: 'appInstall' | 'appIntegration';
  priority: number;
  isActive: boolean;
}

/** What the create/edit modal sends; an empty priority is assigned by the server. */
export type RecommendedAppInput = Omit<RecommendedApp, 'id' | 'priority' | 'integrationUrl'> & { integrationUrl: string; priority: number | null };

/** The developer zone's calls (server/routes/devzone.ts; spec 001 §7). */
export const devZoneApi = {
  access: async () => (await request<{ data: { staff: boolean } }>('/api/dev-zone/access')).data,
  /** Staff: every app; a merchant: the active ones. Ascending priority. */
  apps: async () => (await request<{ data: RecommendedApp[] }>('/api/recommended-apps')).data,
  create: (app: RecommendedAppInput) => request<{ data: RecommendedApp; message: string }>('/api/recommended-apps', { method: 'POST', body: app }),
  update: (id: string, app: RecommendedAppInput) => request<{ data: RecommendedApp; success: boolean }>(`/api/recommended-apps/${encodeURIComponent(id)}`, { method: 'PUT', body: app }),
  remove: (id: string) => request<{ success: boolean; message: string }>(`/api/recommended-apps/${encodeURIComponent(id)}`, { method: 'DELETE' }),
  reorder: (orderedIds: string[]) => request<{ data: RecommendedApp[]; message: string }>('/api/recommended-apps/update-priority', { method: 'POST', body: { orderedIds } }),
};
