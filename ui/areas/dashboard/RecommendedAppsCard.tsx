import { Link } from 'react-router-dom';
import { useResource } from '../../api/use-resource';
import { Card } from '../../components/Card';
import { SkeletonText } from '../../components/Skeleton';
import { useT } from '../../i18n';
import { request } from '../../api/client';

/** A recommended app as `GET /api/recommended-apps` answers a merchant (spec 001 §3; the dev zone manages the list). */
interface RecommendedApp {
  id: string;
  title: string;
  description: string;
  img: string;
  appStoreUrl: string;
  integrationUrl: string | null;
  isActive: boolean;
}

const loadApps = async () => (await request<{ data: RecommendedApp[] }>('/api/recommended-apps')).data;

/**
 * The merchant dashboard's recommended apps (spec 001 §1: "the list of recommended apps shown on
 * the merchant dashboard"), in the order staff set in the dev zone; inactive apps are not shown
 * (spec 001 §5). An app with an integration route opens it in the admin, else its App Store page.
 * Nothing is drawn when the list is empty or cannot be loaded: it is a suggestion, not the dashboard's job.
 */
export function RecommendedAppsCard() {
  const t = useT();
  const apps = useResource('dashboard:recommended-apps', loadApps);
  if (apps.error !== undefined || (apps.data && apps.data.filter((a) => a.isActive).length === 0)) return null;
  return (
    <Card title={t('devzone.dashboard.title')}>
      {!apps.data ? (
        <SkeletonText lines={2} />
      ) : (
        <ul className="recommended-apps">
          {apps.data
            .filter((app) => app.isActive)
            .map((app) => (
              <li key={app.id} className="recommended-apps__item">
                <img className="devzone-apps__logo" src={app.img} alt="" width={40} height={40} loading="lazy" />
                <div className="devzone-apps__body">
                  <p className="devzone-apps__title">{app.title}</p>
                  <p className="text-subdued devzone-apps__description">{app.description}</p>
                </div>
                {app.integrationUrl?.startsWith('/') ? (
                  <Link className="btn btn--secondary" to={app.integrationUrl}>
                    {t('devzone.dashboard.open')}
                  </Link>
                ) : (
                  <a className="btn btn--secondary" href={app.appStoreUrl} target="_blank" rel="noopener noreferrer">
                    {t('devzone.dashboard.install')}
                  </a>
                )}
              </li>
            ))}
        </ul>
      )}
    </Card>
  );
}
