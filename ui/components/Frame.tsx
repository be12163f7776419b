import { useAtom } from 'jotai';
import { useEffect, useState, type ReactNode } from 'react';
import { api } from '../api/endpoints';
import { takePendingShop } from '../api/landing';
import { useT } from '../i18n';
import { useApplyLanguage } from '../state/language';
import { shopAtom } from '../state/session';
import { isEmbedded } from '../embedded';
import { EmbeddedNavMenu } from './EmbeddedNavMenu';
import { Navigation } from './Navigation';
import { AccessBanner } from '../areas/billing/AccessBanner';
import { BookingPopup } from '../areas/billing/BookingPopup';
import { SignOutButton } from '../areas/billing/SignOutButton';
import { ToastRegion } from './ToastRegion';
import { Icon } from './Icon';

/**
 * The admin chrome: top bar with the shop, side navigation, the page, and the toast region. It
 * loads the shop and keeps the shown language on the shop's (or the merchant's) choice. Embedded
 * (`/embed`), the platform's admin frame has the top bar and the navigation: the app draws neither
 * and hands its entries over as App Bridge's `<ui-nav-menu>` (EmbeddedNavMenu). Both draw the
 * floating booking popup (spec 000 §2) after the page when the server says it shows.
 */
export function Frame({ children }: { children: ReactNode }) {
  const t = useT();
  const [shop, setShop] = useAtom(shopAtom);
  useApplyLanguage();
  const [navOpen, setNavOpen] = useState(false);

  useEffect(() => {
    if (shop) return;
    let current = true;
    // The shop only labels the chrome and gives money fields their currency; a failure here is not fatal.
    // The landing screen's own shop call, when it is still out, rather than a second one.
    (takePendingShop() ?? api.shop()).then(
      (value) => current && setShop(value),
      (error: unknown) => console.error('Loading the shop failed', error),
    );
    return () => {
      current = false;
    };
  }, [shop, setShop]);

  if (isEmbedded()) {
    return (
      <div className="frame frame--embedded">
        <EmbeddedNavMenu />
        <main id="main" className="frame__main" tabIndex={-1}>
          {children}
          <BookingPopup />
        </main>
        <ToastRegion />
      </div>
    );
  }

  return (
    <div className="frame">
      <a className="skip-link" href="#main">
        {t('frame.skip')}
      </a>
      <header className="topbar">
        <button
          type="button"
          className="icon-button topbar__menu"
          aria-label={navOpen ? t('nav.close') : t('nav.open')}
          aria-expanded={navOpen}
          onClick={() => setNavOpen((open) => !open)}
        >
          <Icon name="menu" size={18} />
        </button>
        <span className="topbar__logo" aria-hidden="true">
          <Icon name="star" />
        </span>
        <span className="topbar__app">{t('app.name')}</span>
        {shop && <span className="topbar__shop">{shop.shop.name || shop.shop.domain}</span>}
        <SignOutButton />
      </header>
      <div className={navOpen ? 'frame__nav frame__nav--open' : 'frame__nav'}>
        <Navigation onNavigate={() => setNavOpen(false)} />
      </div>
      <main id="main" className="frame__main" tabIndex={-1}>
        <AccessBanner shopDomain={shop?.shop.domain ?? null} />
        {children}
        <BookingPopup />
      </main>
      <ToastRegion />
    </div>
  );
}
