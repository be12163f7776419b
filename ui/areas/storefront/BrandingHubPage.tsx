import './storefront.css';
import { Link } from 'react-router-dom';
import { api } from '../../api/endpoints';
import { useResource } from '../../api/use-resource';
import { Badge } from '../../components/Badge';
import { Card } from '../../components/Card';
import { EmptyState } from '../../components/EmptyState';
import { Page } from '../../components/Page';
import { SkeletonPage } from '../../components/Skeleton';
import { useT } from '../../i18n';
import { LoadFailed } from '../../pages/LoadFailed';
import { BRANDING_PAGES, brandingCards, brandingVisibility } from './sections';

/**
 * `/storefront/branding` (spec 000 §2 "Branding hub cards"): widget design, referrals, checkout
 * discount (only with the unified checkout discount custom feature), visit website popup, reward
 * reminder, legacy signup widget (only while the old thank-you widget is used; labelled deprecated);
 * then the other branding pages (point, customer invite, sign-up block).
 */
export function BrandingHubPage() {
  const t = useT();
  const shop = useResource('shop', () => api.shop());
  if (shop.loading && !shop.data) return <SkeletonPage label={t('common.loading')} />;
  if (shop.error || !shop.data) return <LoadFailed title={t('storefront.branding.title')} error={shop.error} onRetry={shop.reload} />;
  const cards = brandingCards(brandingVisibility(shop.data.shop.settings));
  const carded = new Set(cards.map((c) => c.to));
  const more = BRANDING_PAGES.filter((p) => !carded.has(`/storefront/${p.path}`) && p.kind !== 'storefront.branding_signup_widget' && p.kind !== 'storefront.branding_checkout_discount');
  return (
    <Page title={t('storefront.branding.title')} backTo="/storefront" backLabel={t('storefront.design.title')}>
      {cards.length === 0 ? (
        <EmptyState heading={t('storefront.branding.empty')} />
      ) : (
        <ul className="branding-cards">
          {cards.map((card) => (
            <li key={card.id}>
              <Card title={t(card.titleKey)} actions={card.deprecated ? <Badge tone="attention">{t('storefront.branding.deprecated')}</Badge> : undefined}>
                <p>{t(card.descriptionKey)}</p>
                <Link className="btn btn--secondary" to={card.to} aria-label={t('storefront.branding.customizeNamed', { name: t(card.titleKey) })}>
                  {t('storefront.branding.customize')}
                </Link>
              </Card>
            </li>
          ))}
        </ul>
      )}
      {more.length > 0 && (
        <Card title={t('storefront.branding.more')}>
          <ul className="storefront-links">
            {more.map((p) => (
              <li key={p.path}>
                <Link to={`/storefront/${p.path}`}>{t(p.titleKey)}</Link>
              </li>
            ))}
          </ul>
        </Card>
      )}
    </Page>
  );
}
