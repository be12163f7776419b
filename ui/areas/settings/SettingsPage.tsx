import { useCallback, type ReactNode } from 'react';
import { Link } from 'react-router-dom';
import type { JsonObject } from '../../../engine/types';
import { api } from '../../api/endpoints';
import { useResource } from '../../api/use-resource';
import { Banner } from '../../components/Banner';
import { ButtonLink } from '../../components/Button';
import { Card } from '../../components/Card';
import { LanguageSwitcher } from '../../components/LanguageSwitcher';
import { Page } from '../../components/Page';
import { SkeletonPage } from '../../components/Skeleton';
import { useLabelLanguage, useT, type MessageKey } from '../../i18n';
import { PendingPointsCard } from '../../pages/PendingPointsCard';
import { PointExpiryCard } from '../../pages/PointExpiryCard';
import { settingsApi, type SettingsData, type SettingsSection } from './api';
import { SecretKeyPanel } from './SecretKeyPanel';
import { SettingsSectionCard } from './SettingsSectionCard';

/** The spec's sections in its order (spec 002 §2); form sections are `settings.shop` objects, the rest link to their screens. */
const INDEX: { id: string; label: MessageKey; to?: string }[] = [
  { id: 'general', label: 'settings.section.general' },
  { id: 'email', label: 'settings.section.email' },
  { id: 'prelaunch', label: 'settings.section.prelaunch' },
  { id: 'order', label: 'settings.section.order' },
  { id: 'languages', label: 'settings.section.languages' },
  { id: 'colors', label: 'settings.section.colors' },
  { id: 'subscription', label: 'settings.section.subscription', to: '/settings/subscription/plans' },
  { id: 'translations', label: 'settings.section.translations', to: '/settings/translations/editor' },
  { id: 'notifications', label: 'settings.section.notifications', to: '/settings/notifications' },
  { id: 'segments', label: 'settings.section.segments', to: '/customers/segments' },
  { id: 'developers', label: 'settings.section.developers' },
];

/** A section that lives on its own screen: what it holds and the way there. */
function LinkCard({ id, title, body, to, action }: { id: string; title: string; body: string; to: string; action: string }) {
  return (
    <div id={`settings-${id}`} className="settings-section">
      <Card title={title}>
        <p className="page-intro">{body}</p>
        <ButtonLink to={to}>{action}</ButtonLink>
      </Card>
    </div>
  );
}

/**
 * `/settings` (spec 002 §2 Settings sections): General, Email, Pre-launch, Order (with pending
 * points and point expiry), In-app languages, Colors, Subscription, Translations, Notifications and
 * Developers. Each form section is the `settings.shop` schema cut to that section and saves on its
 * own; the shop's settings are read once and kept as each section saves.
 */
export function SettingsPage() {
  const t = useT();
  const language = useLabelLanguage();
  const kind = useResource(`kind:settings.shop:${language}`, () => api.kind('settings.shop', language), { keepData: true });
  const settings = useResource('settings:all', () => settingsApi.all());
  const { setData } = settings;
  const onSaved = useCallback((section: SettingsSection, values: JsonObject) => setData((all) => (all ? { ...all, [section]: values } : all)), [setData]);

  if (kind.error !== undefined || settings.error !== undefined) {
    return (
      <Page title={t('settings.title')} narrow>
        <Banner
          tone="critical"
          title={t('settings.loadFailed')}
          action={{
            label: t('common.reload'),
            onAction: () => {
              kind.reload();
              settings.reload();
            },
          }}
        />
      </Page>
    );
  }
  if (!kind.data || !settings.data) return <SkeletonPage cards={3} label={t('common.loading')} />;
  const loaded: SettingsData = settings.data;
  const form = (section: SettingsSection, title: MessageKey, help: MessageKey, children?: ReactNode) => (
    <SettingsSectionCard key={section} section={section} title={t(title)} help={t(help)} kind={kind.data!} saved={loaded[section]} onSaved={onSaved}>
      {children}
    </SettingsSectionCard>
  );

  return (
    <Page title={t('settings.title')} narrow>
      <nav className="settings-index" aria-label={t('settings.index')}>
        <ul className="settings-index__list">
          {INDEX.map((entry) => (
            <li key={entry.id}>
              {entry.to ? (
                <Link className="settings-index__link" to={entry.to}>
                  {t(entry.label)}
                </Link>
              ) : (
                <a className="settings-index__link" href={`#settings-${entry.id}`}>
                  {t(entry.label)}
                </a>
              )}
            </li>
          ))}
        </ul>
      </nav>
      {form('general', 'settings.section.general', 'settings.help.general')}
      {form('email', 'settings.section.email', 'settings.help.email')}
      {form('prelaunch', 'settings.section.prelaunch', 'settings.help.prelaunch')}
      {form('order', 'settings.section.order', 'settings.help.order')}
      <PendingPointsCard />
      <PointExpiryCard />
      <div id="settings-languages" className="settings-section">
        <Card title={t('settings.section.languages')}>
          <p className="page-intro">{t('settings.help.languages')}</p>
          <LanguageSwitcher />
        </Card>
      </div>
      {form('colors', 'settings.section.colors', 'settings.help.colors')}
      <LinkCard id="subscription" title={t('settings.section.subscription')} body={t('settings.help.subscription')} to="/settings/subscription/plans" action={t('settings.open.subscription')} />
      <LinkCard id="translations" title={t('settings.section.translations')} body={t('settings.help.translations')} to="/settings/translations/editor" action={t('settings.open.translations')} />
      <LinkCard id="notifications" title={t('settings.section.notifications')} body={t('settings.help.notifications')} to="/settings/notifications" action={t('settings.open.notifications')} />
      {form(
        'developers',
        'settings.section.developers',
        'settings.help.developers',
        <>
          <SecretKeyPanel />
          <div className="stack settings-keys">
            <p className="page-intro">{t('settings.webhooksHelp')}</p>
            <div>
              <ButtonLink to="/settings/webhooks">{t('webhooks.title')}</ButtonLink>
            </div>
          </div>
        </>,
      )}
    </Page>
  );
}
