import { useAtom } from 'jotai';
import { useEffect, useId, useRef, useState, type KeyboardEvent } from 'react';
import type { BookingPopupDecision } from '../../../server/services/booking-popup';
import { ApiError } from '../../api/client';
import type { ShopResponse } from '../../api/endpoints';
import { Button } from '../../components/Button';
import { useT } from '../../i18n';
import { shopAtom } from '../../state/session';
import { billingApi } from './api';

/** The popup's id in the shop's `bannersDismiss` list (server/services/booking-popup.ts BOOKING_POPUP_BANNER_ID). */
export const BOOKING_POPUP_BANNER_ID = 'booking_popup';

/** The shop answer with the server's popup decision (`GET /api/shops` `bookingPopup`). */
type ShopWithPopup = ShopResponse & { bookingPopup?: BookingPopupDecision };

/** Whether the server said to show the popup; an answer without the field (an older server) shows none. */
function showsPopup(shop: ShopResponse): boolean {
  return (shop as ShopWithPopup).bookingPopup?.show === true;
}

/** The shop answer with the popup marked dismissed, so it stays hidden for the rest of the session. */
function withPopupHidden(shop: ShopResponse): ShopResponse {
  const next: ShopWithPopup = { ...shop, bookingPopup: { show: false, hiddenBecause: ['dismissed'] } };
  return next;
}

/**
 * The floating booking popup, "Book a call" (spec 000 §2, §4; coverage SH10). The server decides
 * whether it shows (`GET /api/shops` `bookingPopup`: installed within 7 days, on a higher platform
 * plan, below Advanced, not dismissed); this only draws it. "Book a call" records the call request
 * through the onboarding-call request (`source: booking_popup`), which also dismisses it on the
 * server; the close button and Escape dismiss it for good (`POST /api/shop` `bannersDismiss`).
 * It floats in the bottom corner on wide screens and sits at the end of the page on narrow ones, so
 * it never covers a phone's content. It does not take focus when it appears; when it closes, focus
 * goes to the page.
 */
export function BookingPopup() {
  const t = useT();
  const [shop, setShop] = useAtom(shopAtom);
  const titleId = useId();
  const [phase, setPhase] = useState<'offer' | 'booking' | 'booked'>('offer');
  const [error, setError] = useState<string | null>(null);
  const closeRef = useRef<HTMLButtonElement>(null);

  useEffect(() => {
    // The book button is gone once booked: keep focus in the popup, on its close button.
    if (phase === 'booked') closeRef.current?.focus();
  }, [phase]);

  if (!shop || !showsPopup(shop)) return null;

  const hide = () => {
    setShop((current) => (current ? withPopupHidden(current) : current));
    document.getElementById('main')?.focus();
  };
  const dismiss = () => {
    hide();
    // A booked call dismissed the popup on the server already.
    if (phase !== 'booked') billingApi.dismissBanner(BOOKING_POPUP_BANNER_ID).catch((cause: unknown) => console.error('Saving the dismissal failed', cause));
  };
  const book = async () => {
    setPhase('booking');
    setError(null);
    try {
      await billingApi.bookOnboardingCall('', 'booking_popup');
      setPhase('booked');
    } catch (cause) {
      setError(cause instanceof ApiError ? cause.message : t('billing.bookingPopup.failed'));
      setPhase('offer');
    }
  };
  const onKeyDown = (event: KeyboardEvent) => {
    if (event.key !== 'Escape') return;
    event.preventDefault();
    dismiss();
  };

  return (
    <aside className="booking-popup" aria-labelledby={titleId} onKeyDown={onKeyDown}>
      <div className="booking-popup__header">
        <h2 id={titleId} className="booking-popup__title">
          {t('billing.bookingPopup.title')}
        </h2>
        <button ref={closeRef} type="button" className="icon-button" aria-label={t('billing.bookingPopup.close')} onClick={dismiss}>
          ×
        </button>
      </div>
      {/* One live region: the offer's text becomes the thanks once booked, and is read out. */}
      <p aria-live="polite">{t(phase === 'booked' ? 'billing.bookingPopup.booked' : 'billing.bookingPopup.body')}</p>
      {phase !== 'booked' && (
        <>
          {error && (
            <p className="booking-popup__error" role="alert">
              {error}
            </p>
          )}
          <div>
            <Button variant="primary" loading={phase === 'booking'} onClick={() => void book()}>
              {t('billing.bookingPopup.book')}
            </Button>
          </div>
        </>
      )}
    </aside>
  );
}
