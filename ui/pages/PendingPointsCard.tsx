import { useEffect, useState, type FormEvent } from 'react';
import { ApiError } from '../api/client';
import { api, type PendingPointsState } from '../api/endpoints';
import { useResource } from '../api/use-resource';
import { Banner } from '../components/Banner';
import { Button } from '../components/Button';
import { Card } from '../components/Card';
import { Modal } from '../components/Modal';
import { SkeletonText } from '../components/Skeleton';
import { Toggle } from '../components/Toggle';
import { useT } from '../i18n';
import { useToast } from '../state/toasts';

/**
 * Settings → Points: pending points (spec 002 §4). The switch and the waiting period in days, with
 * the points waiting now; turning it off while points wait asks first, because it makes them all
 * available at once and cannot be undone.
 */
export function PendingPointsCard() {
  const t = useT();
  const toast = useToast();
  const state = useResource<PendingPointsState>('settings:pending-points', () => api.pendingPoints());
  const [enabled, setEnabled] = useState(false);
  const [days, setDays] = useState('14');
  const [error, setError] = useState<string | null>(null);
  const [confirming, setConfirming] = useState(false);
  const [busy, setBusy] = useState(false);
  useEffect(() => {
    if (!state.data) return;
    setEnabled(state.data.enabled);
    setDays(String(state.data.days));
  }, [state.data]);
  const dirty = state.data !== undefined && (enabled !== state.data.enabled || days !== String(state.data.days));
  const save = async (convertPending: boolean) => {
    const n = Number(days);
    if (!Number.isInteger(n) || n < 1 || n > 365) {
      setError(t('settings.pending.daysInvalid'));
      return;
    }
    setError(null);
    if (state.data?.enabled && !enabled && state.data.waiting.points !== 0 && !convertPending) {
      setConfirming(true);
      return;
    }
    setBusy(true);
    try {
      state.setData(await api.savePendingPoints({ enabled, days: n, convertPending }));
      setConfirming(false);
      toast(t('settings.pending.saved'));
    } catch (e) {
      if (e instanceof ApiError && e.code === 'confirmation_required') {
        state.reload();
        setConfirming(true);
      } else if (e instanceof ApiError && e.details.some((d) => d.path === '/days')) setError(e.details.find((d) => d.path === '/days')!.message);
      else toast(t('settings.pending.failed'), 'error');
    } finally {
      setBusy(false);
    }
  };
  const submit = (event: FormEvent) => {
    event.preventDefault();
    void save(false);
  };
  return (
    <Card title={t('settings.pending.title')}>
      <p className="page-intro">{t('settings.pending.help')}</p>
      {state.error !== undefined ? (
        <Banner tone="critical" title={t('settings.pending.loadFailed')} action={{ label: t('common.reload'), onAction: state.reload }} />
      ) : !state.data ? (
        <SkeletonText lines={3} />
      ) : (
        <form className="stack" onSubmit={submit} noValidate>
          <label className="checkbox-row" htmlFor="pending-enabled">
            <Toggle id="pending-enabled" checked={enabled} onChange={setEnabled} />
            {t('settings.pending.enabled')}
          </label>
          <div className="form-field">
            <label className="form-field__label" htmlFor="pending-days">
              {t('settings.pending.days')}
            </label>
            <div className={error ? 'input input--invalid' : 'input'}>
              <input id="pending-days" className="input__field" type="number" min={1} max={365} step={1} inputMode="numeric" value={days} disabled={!enabled} onChange={(e) => setDays(e.target.value)} aria-invalid={error ? true : undefined} aria-describedby={error ? 'pending-days-error' : undefined} />
            </div>
            {error && (
              <p className="form-field__error" id="pending-days-error">
                {error}
              </p>
            )}
          </div>
          {state.data.waiting.points !== 0 && <p className="text-subdued">{t('settings.pending.waiting', { points: state.data.waiting.points.toLocaleString(), customers: state.data.waiting.customers.toLocaleString() })}</p>}
          <div>
            <Button type="submit" variant="primary" disabled={!dirty} loading={busy && !confirming}>
              {t('settings.pending.save')}
            </Button>
          </div>
        </form>
      )}
      <Modal open={confirming} title={t('settings.pending.confirmTitle')} onClose={() => setConfirming(false)} primaryAction={{ label: t('settings.pending.confirm'), destructive: true, loading: busy, onAction: () => void save(true) }}>
        <p>{t('settings.pending.confirmBody', { points: (state.data?.waiting.points ?? 0).toLocaleString(), customers: (state.data?.waiting.customers ?? 0).toLocaleString() })}</p>
      </Modal>
    </Card>
  );
}
