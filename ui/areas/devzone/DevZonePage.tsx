import { Link, useLocation } from 'react-router-dom';
import { ButtonLink } from '../../components/Button';
import { Card } from '../../components/Card';
import { EmptyState } from '../../components/EmptyState';
import { Page } from '../../components/Page';
import { useT } from '../../i18n';
import { StaffOnly } from './StaffOnly';
import { DEV_ZONE_TOOLS } from './tools';


/** `/dev_zone`: the staff tools, each a link. */
export function DevZonePage() {
  const t = useT();
  return (
    <StaffOnly title={t('devzone.title')}>
      <Page title={t('devzone.title')} narrow>
        <p className="page-intro">{t('devzone.intro')}</p>
        <Card>
          <ul className="devzone-tools">
            {DEV_ZONE_TOOLS.map((tool) => (
              <li key={tool.path}>
                <Link className="devzone-tools__link" to={`/dev_zone/${tool.path}`}>
                  {t(tool.label)}
                </Link>
              </li>
            ))}
          </ul>
        </Card>
      </Page>
    </StaffOnly>
  );
}

/**
 * A developer-zone screen the spec names without describing (spec 001 §2: "the content of the other
 * developer screens is not shown"): its name and the way back; webhook logs lead to the shop's
 * webhook deliveries, which exist.
 */
export function DevZoneToolPage() {
  const t = useT();
  const { pathname } = useLocation();
  const tool = DEV_ZONE_TOOLS.find((entry) => pathname.endsWith(`/dev_zone/${entry.path}`));
  const title = tool ? t(tool.label) : t('devzone.title');
  return (
    <StaffOnly title={title}>
      <Page title={title} backTo="/dev_zone" backLabel={t('devzone.title')} narrow>
        <Card>
          <EmptyState heading={t('devzone.tool.soonHeading')} action={tool?.path === 'webhooks_logs' ? <ButtonLink to="/settings/webhooks">{t('webhooks.title')}</ButtonLink> : undefined}>
            {t('devzone.tool.soonBody')}
          </EmptyState>
        </Card>
      </Page>
    </StaffOnly>
  );
}
