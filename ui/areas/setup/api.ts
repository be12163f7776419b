/**
 * The setup wizard's calls (server/routes/setup.ts; spec 000 §2, spec 002 §2 ST7) and the step
 * actions, which save ordinary documents through the documents API (`/api/kinds/:kind/docs`).
 */
import type { JsonObject } from '../../../engine/types';
import { request } from '../../api/client';
import { api } from '../../api/endpoints';

/** `GET /api/setup`: the shop's flag and what each step has produced. */
export interface SetupState {
  setupDone: boolean;
  setupDoneAt: string | null;
  steps: { earning: boolean; redeeming: boolean; widgetTheme: boolean };
}

/** The widget design kind the theme step saves (one per shop). */
export const WIDGET_DESIGN_KIND = 'storefront.widget_design';

/** The starter earning programs offered by the first step, in the order shown. */
export const STARTER_EARNING = ['earning.place_order', 'earning.sign_up', 'earning.birthday'] as const;
/** The starter rewards offered by the second step, in the order shown. */
export const STARTER_REWARDS = ['redeem.amount_discount', 'redeem.percentage_discount', 'redeem.free_shipping'] as const;

/** A colour preset of the theme step: the widget design's `colors` (spec 002 §2 widget theme). */
export interface ThemePreset {
  id: 'indigo' | 'forest' | 'sunset' | 'midnight' | 'rose';
  colors: { banner: string; button: string; buttonText: string; block: string; text: string };
}

/** Presets whose button text keeps a contrast of at least 4.5:1 on the button colour. */
export const THEME_PRESETS: readonly ThemePreset[] = [
  { id: 'indigo', colors: { banner: '#3d4ec2', button: '#3d4ec2', buttonText: '#ffffff', block: '#f6f6f7', text: '#202223' } },
  { id: 'forest', colors: { banner: '#1f6f4a', button: '#1f6f4a', buttonText: '#ffffff', block: '#f1f8f4', text: '#1c2b22' } },
  { id: 'sunset', colors: { banner: '#b4400a', button: '#b4400a', buttonText: '#ffffff', block: '#fff5ed', text: '#2b1d14' } },
  { id: 'midnight', colors: { banner: '#111827', button: '#111827', buttonText: '#ffffff', block: '#f3f4f6', text: '#111827' } },
  { id: 'rose', colors: { banner: '#be185d', button: '#be185d', buttonText: '#ffffff', block: '#fdf2f8', text: '#2a1520' } },
];

export const setupApi = {
  state: () => request<{ data: SetupState }>('/api/setup').then((r) => r.data),
  /** Finish or skip (true), or run the setup again (false). */
  setDone: (setupDone: boolean) => request<{ data: SetupState }>('/api/setup', { method: 'PUT', body: { setupDone } }).then((r) => r.data),
  /**
   * Turns on a program of `kind`: the shop's first one of that kind is switched on, or a new one is
   * created with the template's defaults.
   * @throws ApiError from the documents API (plan gate 403, limits 409, validation 422)
   */
  async turnOn(kind: string): Promise<void> {
    const [existing] = await api.docs(kind);
    if (existing) {
      if ((existing.data as { status?: unknown }).status !== true) await api.updateDoc(kind, existing.id, { ...existing.data, status: true }, existing.version);
      return;
    }
    await api.createDoc(kind, { status: true });
  },
  /**
   * Saves the widget design's colours (the design's other settings are kept, or the template's
   * defaults for a shop without a design).
   */
  async saveTheme(colors: ThemePreset['colors']): Promise<void> {
    const [design] = await api.docs(WIDGET_DESIGN_KIND);
    if (design) {
      const current = (design.data.colors ?? {}) as JsonObject;
      await api.updateDoc(WIDGET_DESIGN_KIND, design.id, { ...design.data, colors: { ...current, ...colors } }, design.version);
      return;
    }
    await api.createDoc(WIDGET_DESIGN_KIND, { colors });
  },
};
