/**
 * The English chrome catalog: the main file, the program catalogue's file and every area's
 * `en.json`, bundled with the app (English is the fallback of every other language). Imported one by
 * one, not globbed, so each key is typed (`MessageKey` in ../index.ts). A new area adds its
 * `areas/<area>/en.json` here; the other languages pick up `areas/<area>/<lang>.json` on their own.
 */
import en from '../en.json';
import enCatalogue from '../en-catalogue.json';
import importEn from '../areas/import/en.json';
import tiersEn from '../areas/tiers/en.json';
import rewardsEn from '../areas/rewards/en.json';
import referralsEn from '../areas/referrals/en.json';
import eventsEn from '../areas/events/en.json';
import settingsEn from '../areas/settings/en.json';
import versionsEn from '../areas/versions/en.json';
import storefrontEn from '../areas/storefront/en.json';
import translationsEn from '../areas/translations/en.json';
import segmentsEn from '../areas/segments/en.json';
import walletEn from '../areas/wallet/en.json';

/** Every English chrome text by key. */
export const english = { ...en, ...enCatalogue, ...importEn, ...tiersEn, ...rewardsEn, ...referralsEn, ...eventsEn, ...settingsEn, ...versionsEn, ...storefrontEn, ...translationsEn, ...segmentsEn, ...walletEn };
