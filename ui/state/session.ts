import { atom } from 'jotai';
import type { ShopResponse } from '../api/endpoints';

/** The signed-in shop (`GET /api/shops`), loaded once by the app frame; null until then. */
export const shopAtom = atom<ShopResponse | null>(null);

/** The shop's currency for money fields; USD until the shop has loaded. */
export const currencyAtom = atom((get) => {
  const shop = get(shopAtom);
  return shop?.shopInfo.currency ?? shop?.shop.currency ?? 'USD';
});

/** The shop's IANA timezone (store-local dates), or undefined until the shop has loaded. */
export const timezoneAtom = atom((get) => {
  const shop = get(shopAtom);
  return shop?.shopInfo.ianaTimezone ?? shop?.shop.ianaTimezone;
});
