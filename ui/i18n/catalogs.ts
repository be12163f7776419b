/**
 * The admin's chrome catalogs per in-app language, all at once, for tests and checks
 * (`tests/ui/i18n-catalogs.test.ts` holds every other language to English's keys and placeholders).
 * The app itself bundles only English (`languages/en.ts`) and fetches another language's catalog
 * (`languages/<lang>.ts`, one chunk each) when the admin is shown in it (see index.ts).
 *
 * Each catalog is a main file (`ui/i18n/<lang>.json`, plus `en-catalogue.json` for English) and the
 * area files (`ui/i18n/areas/<area>/<lang>.json`); each area keeps its texts in files of its own so
 * areas are translated (and changed) apart; a key lives in exactly one file.
 */
import de from './languages/de';
import { english } from './languages/en';
import es from './languages/es';
import fr from './languages/fr';
import id from './languages/id';
import it from './languages/it';
import ja from './languages/ja';

export { english };

/** The translated catalogs (en-US has none: it reads English throughout). */
export const translated: Record<'fr' | 'es' | 'de' | 'it' | 'ja' | 'id', Record<string, string>> = { fr, es, de, it, ja, id };
