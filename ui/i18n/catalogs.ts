/**
 * The admin's chrome catalogs per in-app language, assembled from the main files
 * (`ui/i18n/<lang>.json`, `en-catalogue.json`) and the area files (`ui/i18n/areas/<area>/<lang>.json`).
 * Each area keeps its texts in files of its own so areas are translated (and changed) apart; a key
 * lives in exactly one file. English is the source of truth; `tests/ui/i18n-catalogs.test.ts`
 * checks that every other language has every English key with the same placeholders.
 */
import de from './de.json';
import en from './en.json';
import enCatalogue from './en-catalogue.json';
import es from './es.json';
import fr from './fr.json';
import id from './id.json';
import it from './it.json';
import ja from './ja.json';
import importDe from './areas/import/de.json';
import importEn from './areas/import/en.json';
import importEs from './areas/import/es.json';
import importFr from './areas/import/fr.json';
import importId from './areas/import/id.json';
import importIt from './areas/import/it.json';
import importJa from './areas/import/ja.json';
import tiersDe from './areas/tiers/de.json';
import tiersEn from './areas/tiers/en.json';
import tiersEs from './areas/tiers/es.json';
import tiersFr from './areas/tiers/fr.json';
import tiersId from './areas/tiers/id.json';
import tiersIt from './areas/tiers/it.json';
import tiersJa from './areas/tiers/ja.json';

/** Every English chrome text by key. */
export const english = { ...en, ...enCatalogue, ...importEn, ...tiersEn };

/** The translated catalogs (en-US has none: it reads English throughout). */
export const translated: Record<'fr' | 'es' | 'de' | 'it' | 'ja' | 'id', Record<string, string>> = {
  fr: { ...fr, ...importFr, ...tiersFr },
  es: { ...es, ...importEs, ...tiersEs },
  de: { ...de, ...importDe, ...tiersDe },
  it: { ...it, ...importIt, ...tiersIt },
  ja: { ...ja, ...importJa, ...tiersJa },
  id: { ...id, ...importId, ...tiersId },
};
