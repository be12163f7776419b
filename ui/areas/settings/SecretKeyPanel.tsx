import { useState } from 'react';
import { useResource } from '../../api/use-resource';
import { Banner } from '../../components/Banner';
import { Button } from '../../components/Button';
import { Modal } from '../../components/Modal';
import { SkeletonText } from '../../components/Skeleton';
import { useT } from '../../i18n';
import { useToast } from '../../state/toasts';
import { settingsApi } from './api';

/**
 * Developers → manage keys (spec 002 §3 App credentials, §7 "generate the secret key"): the app id
 * and the last 4 characters of the secret key; a new key replaces the old one (asked first, since
 * integrations using the old key stop working) and is shown once.
 */
export function SecretKeyPanel() {
  const t = useT();
  const toast = useToast();
  const credentials = useResource('settings:credentials', () => settingsApi.credentials());
  const [asking, setAsking] = useState(false);
  const [busy, setBusy] = useState(false);
  const [shown, setShown] = useState<string | null>(null);

  const generate = async () => {
    setBusy(true);
    try {
      const answer = await settingsApi.generateSecretKey();
      credentials.setData({ appId: answer.appId, secretHint: answer.secretHint, createdAt: answer.createdAt });
      setShown(answer.secretKey);
      setAsking(false);
    } catch {
      toast(t('settings.saveFailed'), 'error');
    } finally {
      setBusy(false);
    }
  };

  return (
    <div className="stack settings-keys">
      <h3 className="settings-keys__title">{t('settings.keys.title')}</h3>
      {credentials.error !== undefined ? (
        <Banner tone="critical" title={t('settings.loadFailed')} action={{ label: t('common.reload'), onAction: credentials.reload }} />
      ) : !credentials.data ? (
        <SkeletonText lines={2} />
      ) : (
        <>
          <dl className="settings-keys__list">
            <dt>{t('settings.keys.appId')}</dt>
            <dd className="settings-keys__value">{credentials.data.appId || t('settings.keys.none')}</dd>
            <dt>{t('settings.keys.secret')}</dt>
            <dd className="settings-keys__value">{credentials.data.secretHint ? `••••${credentials.data.secretHint}` : t('settings.keys.none')}</dd>
          </dl>
          {shown && (
            <Banner tone="success" title={t('settings.keys.copyNow')} onDismiss={() => setShown(null)}>
              <code className="settings-keys__secret">{shown}</code>
            </Banner>
          )}
          <div>
            <Button type="button" onClick={() => (credentials.data?.secretHint ? setAsking(true) : void generate())} loading={busy && !asking}>
              {t('settings.keys.generate')}
            </Button>
          </div>
        </>
      )}
      <Modal open={asking} title={t('settings.keys.confirmTitle')} onClose={() => setAsking(false)} primaryAction={{ label: t('settings.keys.generate'), destructive: true, loading: busy, onAction: () => void generate() }}>
        <p>{t('settings.keys.confirmBody')}</p>
      </Modal>
    </div>
  );
}
