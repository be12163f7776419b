import { useAtomValue } from 'jotai';
import { lazy, Suspense } from 'react';
import type { BookingPopupDecision } from '../../../server/services/booking-popup';
import type { ShopResponse } from '../../api/endpoints';
import { shopAtom } from '../../state/session';

/** The shop answer with the server's popup decision (`GET /api/shops` `bookingPopup`). */
export type ShopWithPopup = ShopResponse & { bookingPopup?: BookingPopupDecision };

/** Whether the server said to show the booking popup; an answer without the field (an older server) shows none. */
export function showsPopup(shop: ShopResponse): boolean {
  return (shop as ShopWithPopup).bookingPopup?.show === true;
}

const BookingPopup = lazy(() => import('./BookingPopup').then((m) => ({ default: m.BookingPopup })));

/**
 * Where the chrome draws the floating booking popup (ui/areas/billing/BookingPopup.tsx): its code is
 * fetched only for a shop the server shows it to (a few shops in their first week), so every other
 * visit's first load does without it (issue 12 "Speed").
 */
export function BookingPopupSlot() {
  const shop = useAtomValue(shopAtom);
  if (!shop || !showsPopup(shop)) return null;
  return (
    <Suspense fallback={null}>
      <BookingPopup />
    </Suspense>
  );
}
