import { ButtonAnchor, ButtonLink } from '../components/Button';
import { useT } from '../i18n';

/** Where "Contact us" writes to; set VITE_SUPPORT_EMAIL at build time. */
const supportEmail: string = import.meta.env.VITE_SUPPORT_EMAIL ?? 'support@example.com';

/**
 * The Not Found screen (spec 000 §8): unknown paths, and (with `crashed`) rendering crashes, which
 * explain that a technical problem occurred.
 */
export function NotFoundPage({ crashed = false }: { crashed?: boolean }) {
  const t = useT();
  return (
    <div className="not-found" role={crashed ? 'alert' : undefined}>
      <div className="not-found__art" aria-hidden="true">
        404
      </div>
      <h1 className="not-found__title">{t('notFound.title')}</h1>
      <p className="not-found__body">{t(crashed ? 'notFound.crash' : 'notFound.body')}</p>
      <div className="not-found__actions">
        <ButtonAnchor variant="primary" href={`mailto:${supportEmail}`}>
          {t('notFound.contact')}
        </ButtonAnchor>
        <ButtonLink to="/programs">{t('notFound.home')}</ButtonLink>
      </div>
    </div>
  );
}
