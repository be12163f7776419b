import { useAtomValue } from 'jotai';
import { useEffect, useRef, type ReactNode } from 'react';
import { Link, useLocation } from 'react-router-dom';
import { useT } from '../i18n';
import { shopAtom } from '../state/session';
import { LanguageSwitcher } from './LanguageSwitcher';

export interface PageProps {
  title: string;
  /** Where the back arrow goes (a path inside the app). */
  backTo?: string;
  backLabel?: string;
  titleMeta?: ReactNode;
  primaryAction?: ReactNode;
  secondaryActions?: ReactNode;
  narrow?: boolean;
  children: ReactNode;
}

/**
 * Whether page headers offer the language switcher: the shop's `isShowSettingLanguage` (spec 000 §4;
 * on unless the shop turned it off). Hidden until the shop has loaded, and for a server that sends
 * no settings (it could not save the choice).
 */
function useShowsLanguageSwitcher(): boolean {
  const settings = useAtomValue(shopAtom)?.shop.settings;
  return settings !== undefined && settings.isShowSettingLanguage !== false;
}

/**
 * The walkthrough's "each page sets the document title and moves focus to its heading": the tab
 * reads "<title> · <app>", and after each navigation focus lands on the h1 (so a screen reader
 * starts at the new page) unless a field of the page already took it (autofocus).
 */
function usePageAnnouncement(title: string) {
  const t = useT();
  const heading = useRef<HTMLHeadingElement>(null);
  const { pathname } = useLocation();
  useEffect(() => {
    document.title = `${title} · ${t('app.name')}`;
  }, [title, t]);
  useEffect(() => {
    const active = document.activeElement;
    if (active instanceof HTMLElement && active.closest('.page__content, [role="dialog"]')) return;
    heading.current?.focus({ preventScroll: true });
  }, [pathname]);
  return heading;
}

/** A screen: header with title, optional back link, actions and the language switcher, then the content. */
export function Page({ title, backTo, backLabel, titleMeta, primaryAction, secondaryActions, narrow, children }: PageProps) {
  const t = useT();
  const showLanguage = useShowsLanguageSwitcher();
  const heading = usePageAnnouncement(title);
  return (
    <div className={narrow ? 'page page--narrow' : 'page'}>
      <header className="page__header">
        {backTo && (
          <Link className="page__back" to={backTo} aria-label={backLabel ?? t('common.back')}>
            <span aria-hidden="true">←</span>
          </Link>
        )}
        <div className="page__title-wrap">
          <h1 ref={heading} className="page__title" tabIndex={-1}>
            {title}
          </h1>
          {titleMeta}
        </div>
        <div className="page__actions">
          {secondaryActions}
          {primaryAction}
        </div>
        {showLanguage && <LanguageSwitcher />}
      </header>
      <div className="page__content">{children}</div>
    </div>
  );
}
