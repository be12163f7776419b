/**
 * Browser storage keys the admin shares with the landing preload script (vite.config.ts), which
 * runs before the app's code and so cannot import the modules that use them.
 */

/** localStorage key prefix of the admin language a merchant picked, per shop (`<prefix><shop id>`). */
export const LANGUAGE_STORAGE_PREFIX = 'loyalty.language.';
