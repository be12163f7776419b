import type { JsonObject } from '../../../engine/types';
import { api } from '../../api/endpoints';
import { useResource } from '../../api/use-resource';
import { BRANDING_PAGES, STOREFRONT_PAGES } from './sections';

/** The widget design kind: one document per shop (schemas/storefront/widget_design). */
export const WIDGET_DESIGN_KIND = 'storefront.widget_design';

/** The shop's saved design and sections, as the live preview starts from them. */
export interface SavedStorefront {
  design: JsonObject | null;
  /** Saved sections by kind name (`faqs`), switched on or not (the widget skips those off). */
  sections: Record<string, JsonObject>;
}

async function loadSaved(): Promise<SavedStorefront> {
  const kinds = [WIDGET_DESIGN_KIND, ...STOREFRONT_PAGES.map((p) => p.kind), ...BRANDING_PAGES.map((p) => p.kind)];
  const docs = await Promise.all(kinds.map((kind) => api.docs(kind).then((list) => [kind, list[0]?.data ?? null] as const)));
  const sections: Record<string, JsonObject> = {};
  let design: JsonObject | null = null;
  for (const [kind, data] of docs) {
    if (kind === WIDGET_DESIGN_KIND) design = data;
    else if (data) sections[kind.slice('storefront.'.length)] = data;
  }
  return { design, sections };
}

/**
 * The saved widget design and storefront sections (one request per kind), for the live preview of
 * any storefront page: the page's own unsaved data replaces its saved copy. Undefined while loading
 * or when loading failed (the preview then shows the defaults).
 */
export function useSavedStorefront(): SavedStorefront | undefined {
  return useResource('storefront:saved', loadSaved, { keepData: true }).data;
}
