import type { KindDetail } from '../../engine/types';
import { labelsFor, useLabelLanguage, type AppLanguage } from '../i18n';
import { api } from './endpoints';
import { useResource } from './use-resource';

/** A kind as a screen loaded it, with the language its labels came in. */
export interface KindInLanguage {
  kind: KindDetail;
  language: AppLanguage;
}

/**
 * The screen's kind with its labels (schema titles and descriptions, ui.json help and placeholders)
 * in the admin's current language (spec 000 §4: a language applies at once). A screen loads its
 * kind with its document; when the merchant switches language, only the kind is fetched again
 * (`GET /api/kinds/:kind?language=`), never the document, so the form keeps its unsaved edits and
 * the version it read. Until the translated kind arrives, or if it cannot be loaded, the loaded one
 * stays.
 * @example const kind = useLocalizedKind(loaded.data); // loaded.data: { kind, language, … }
 */
export function useLocalizedKind(loaded: KindInLanguage | undefined): KindDetail | undefined {
  const language = useLabelLanguage();
  const kindId = loaded?.kind.id;
  const stale = kindId !== undefined && labelsFor(loaded!.language) !== language;
  const translated = useResource(
    stale ? `kind:${kindId}:${language}` : `kind:${kindId ?? ''}:as-loaded`,
    async () => (stale ? api.kind(kindId, language) : undefined),
    // Switching again (French to German) keeps the French labels up until the German ones arrive.
    { keepData: true },
  );
  if (!loaded || !stale) return loaded?.kind;
  return translated.data?.id === kindId ? translated.data : loaded.kind;
}
