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
import rewardsDe from './areas/rewards/de.json';
import rewardsEn from './areas/rewards/en.json';
import rewardsEs from './areas/rewards/es.json';
import rewardsFr from './areas/rewards/fr.json';
import rewardsId from './areas/rewards/id.json';
import rewardsIt from './areas/rewards/it.json';
import rewardsJa from './areas/rewards/ja.json';
import referralsDe from './areas/referrals/de.json';
import referralsEn from './areas/referrals/en.json';
import referralsEs from './areas/referrals/es.json';
import referralsFr from './areas/referrals/fr.json';
import referralsId from './areas/referrals/id.json';
import referralsIt from './areas/referrals/it.json';
import referralsJa from './areas/referrals/ja.json';
import eventsDe from './areas/events/de.json';
import eventsEn from './areas/events/en.json';
import eventsEs from './areas/events/es.json';
import eventsFr from './areas/events/fr.json';
import eventsId from './areas/events/id.json';
import eventsIt from './areas/events/it.json';
import eventsJa from './areas/events/ja.json';
import settingsDe from './areas/settings/de.json';
import settingsEn from './areas/settings/en.json';
import settingsEs from './areas/settings/es.json';
import settingsFr from './areas/settings/fr.json';
import settingsId from './areas/settings/id.json';
import settingsIt from './areas/settings/it.json';
import settingsJa from './areas/settings/ja.json';
import versionsDe from './areas/versions/de.json';
import versionsEn from './areas/versions/en.json';
import versionsEs from './areas/versions/es.json';
import versionsFr from './areas/versions/fr.json';
import versionsId from './areas/versions/id.json';
import versionsIt from './areas/versions/it.json';
import versionsJa from './areas/versions/ja.json';
import storefrontDe from './areas/storefront/de.json';
import storefrontEn from './areas/storefront/en.json';
import storefrontEs from './areas/storefront/es.json';
import storefrontFr from './areas/storefront/fr.json';
import storefrontId from './areas/storefront/id.json';
import storefrontIt from './areas/storefront/it.json';
import storefrontJa from './areas/storefront/ja.json';
import translationsDe from './areas/translations/de.json';
import translationsEn from './areas/translations/en.json';
import translationsEs from './areas/translations/es.json';
import translationsFr from './areas/translations/fr.json';
import translationsId from './areas/translations/id.json';
import translationsIt from './areas/translations/it.json';
import translationsJa from './areas/translations/ja.json';

/** Every English chrome text by key. */
export const english = { ...en, ...enCatalogue, ...importEn, ...tiersEn, ...rewardsEn, ...referralsEn, ...eventsEn, ...settingsEn, ...versionsEn, ...storefrontEn, ...translationsEn };

/** The translated catalogs (en-US has none: it reads English throughout). */
export const translated: Record<'fr' | 'es' | 'de' | 'it' | 'ja' | 'id', Record<string, string>> = {
  fr: { ...fr, ...importFr, ...tiersFr, ...rewardsFr, ...referralsFr, ...eventsFr, ...settingsFr, ...versionsFr, ...storefrontFr, ...translationsFr },
  es: { ...es, ...importEs, ...tiersEs, ...rewardsEs, ...referralsEs, ...eventsEs, ...settingsEs, ...versionsEs, ...storefrontEs, ...translationsEs },
  de: { ...de, ...importDe, ...tiersDe, ...rewardsDe, ...referralsDe, ...eventsDe, ...settingsDe, ...versionsDe, ...storefrontDe, ...translationsDe },
  it: { ...it, ...importIt, ...tiersIt, ...rewardsIt, ...referralsIt, ...eventsIt, ...settingsIt, ...versionsIt, ...storefrontIt, ...translationsIt },
  ja: { ...ja, ...importJa, ...tiersJa, ...rewardsJa, ...referralsJa, ...eventsJa, ...settingsJa, ...versionsJa, ...storefrontJa, ...translationsJa },
  id: { ...id, ...importId, ...tiersId, ...rewardsId, ...referralsId, ...eventsId, ...settingsId, ...versionsId, ...storefrontId, ...translationsId },
};
