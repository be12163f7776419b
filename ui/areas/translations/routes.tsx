import type { RouteObject } from 'react-router-dom';

/**
 * The translation editor's screens (spec 001 §2 Translation editor; issue 13), mounted inside the
 * admin chrome: `/translations` (languages and the eight text variants) and
 * `/settings/translations/editor?type=&tab=&languageCode=&field=` (one variant's texts).
 */
export const translationsRoutes: RouteObject[] = [
  { path: 'translations', lazy: () => import('./TranslationsPage').then((m) => ({ Component: m.TranslationsPage })) },
  { path: 'settings/translations/editor', lazy: () => import('./TranslationEditorPage').then((m) => ({ Component: m.TranslationEditorPage })) },
];
