import { widgetApi } from '../../api/endpoints';
import { t } from '../../i18n';

/** One thing a catalogue picker lists: an id it stores and what the merchant reads. */
export interface CatalogItem {
  id: string;
  title: string;
  detail?: string;
}

/** Where a picker searches and how it words itself. */
export interface CatalogSource {
  search: (query: string, signal: AbortSignal) => Promise<CatalogItem[]>;
  byIds: (ids: string[], signal: AbortSignal) => Promise<CatalogItem[]>;
  searchLabel: () => string;
  fullMessage: (max: number) => string;
}

const products = (params: { query?: string; ids?: string[] }, signal: AbortSignal) =>
  widgetApi.products(params, signal).then((list) => list.map((p) => ({ id: p.id, title: p.title, detail: p.vendor })));

const collections = (params: { query?: string; ids?: string[] }, signal: AbortSignal) =>
  widgetApi.collections(params, signal).then((list) => list.map((c) => ({ id: c.id, title: c.title })));

/** The catalogue lists the pickers choose from (`GET /api/catalog/products|collections`). */
export const catalogSources: Record<'products' | 'collections', CatalogSource> = {
  products: {
    search: (query, signal) => products({ query }, signal),
    byIds: (ids, signal) => products({ ids }, signal),
    searchLabel: () => t('form.picker.searchProducts'),
    // Spec 001 §4: at most 100 specific products.
    fullMessage: (max) => t('form.picker.fullProducts', { max }),
  },
  collections: {
    search: (query, signal) => collections({ query }, signal),
    byIds: (ids, signal) => collections({ ids }, signal),
    searchLabel: () => t('form.picker.searchCollections'),
    fullMessage: (max) => t('form.picker.fullCollections', { max }),
  },
};
