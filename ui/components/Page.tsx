import type { ReactNode } from 'react';
import { Link } from 'react-router-dom';
import { t } from '../i18n';

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

/** A screen: header with title, optional back link and actions, then the content. */
export function Page({ title, backTo, backLabel, titleMeta, primaryAction, secondaryActions, narrow, children }: PageProps) {
  return (
    <div className={narrow ? 'page page--narrow' : 'page'}>
      <header className="page__header">
        {backTo && (
          <Link className="page__back" to={backTo} aria-label={backLabel ?? t('common.back')}>
            <span aria-hidden="true">←</span>
          </Link>
        )}
        <div className="page__title-wrap">
          <h1 className="page__title">{title}</h1>
          {titleMeta}
        </div>
        <div className="page__actions">
          {secondaryActions}
          {primaryAction}
        </div>
      </header>
      <div className="page__content">{children}</div>
    </div>
  );
}
