import { Link } from 'react-router-dom';
import { Card } from '../components/Card';
import { Page } from '../components/Page';
import { useT } from '../i18n';
import { PendingPointsCard } from './PendingPointsCard';
import { PointExpiryCard } from './PointExpiryCard';

/**
 * `/settings` (spec 002 §2 Settings): the settings sections. Points → pending points, point expiry and
 * Developers → webhook deliveries are live; the schema-driven sections (General, Email, Order, languages, colors, notifications) are
 * issue 12's and are named here until they land.
 */
export function SettingsPage() {
  const t = useT();
  return (
    <Page title={t('settings.title')} narrow>
      <PendingPointsCard />
      <PointExpiryCard />
      <Card title={t('settings.developers')}>
        <p className="page-intro">{t('settings.webhooksHelp')}</p>
        <Link className="btn btn--secondary" to="/settings/webhooks">
          {t('webhooks.title')}
        </Link>
      </Card>
      <p className="page-intro page-intro--after">{t('settings.more')}</p>
    </Page>
  );
}
