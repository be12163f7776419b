import type { JsonObject } from '../../../engine/types';
import { request } from '../../api/client';

/**
 * The Settings screen's calls (server/routes/settings.ts; spec 002 §2 Settings sections, §7 "save
 * settings", "generate the secret key").
 */

/** The sections `GET/PUT /api/settings/:section` serve (the `settings.shop` document's top-level objects). */
export const SETTINGS_SECTIONS = ['general', 'email', 'prelaunch', 'order', 'colors', 'developers', 'segments'] as const;
export type SettingsSection = (typeof SETTINGS_SECTIONS)[number];

/** Every section with the server's defaults filled in. */
export type SettingsData = Record<SettingsSection, JsonObject>;

/** The shop's app id and the hint (last 4 characters) of its secret key. */
export interface AppCredentials {
  appId: string;
  secretHint: string | null;
  createdAt: string | null;
}

export const settingsApi = {
  all: async () => (await request<{ data: SettingsData }>('/api/settings')).data,
  /**
   * Saves one whole section; `confirm` acknowledges sandbox → live.
   * @throws ApiError 422 with paths such as `/order/exchangeRate`; 409 `confirmation_required`
   */
  /** One section with the server's defaults filled in. */
  section: async (section: SettingsSection) => (await request<{ data: JsonObject }>(`/api/settings/${section}`)).data,
  save: async (section: SettingsSection, values: JsonObject, confirm = false) =>
    (await request<{ data: JsonObject }>(`/api/settings/${section}`, { method: 'PUT', body: confirm ? { ...values, confirm: true } : values })).data,
  credentials: async () => (await request<{ data: AppCredentials }>('/api/settings/developers/credentials')).data,
  /** A new secret key, answered once. */
  generateSecretKey: async () => (await request<{ data: AppCredentials & { secretKey: string } }>('/api/settings/developers/secret-key', { method: 'POST' })).data,
};
