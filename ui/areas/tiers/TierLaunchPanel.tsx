import { useEffect, useState } from 'react';
import { ApiError } from '../../api/client';
import { tierApi, type TierProgramStatus } from '../../api/endpoints';
import { useResource } from '../../api/use-resource';
import { Badge } from '../../components/Badge';
import { Banner } from '../../components/Banner';
import { Button } from '../../components/Button';
import { Card } from '../../components/Card';
import { Modal } from '../../components/Modal';
import { SkeletonText } from '../../components/Skeleton';
import { useT } from '../../i18n';
import { useToast } from '../../state/toasts';

type Action = 'launch' | 'relaunch' | 'deactivate';

/** The server's refusal as shown in a dialog: its message and, for `tiers_in_use`, the programs it lists. */
interface Refusal {
  message: string;
  items: string[];
}

const refusalOf = (e: unknown, fallback: string): Refusal =>
  e instanceof ApiError ? { message: e.message, items: e.details.map((d) => d.message) } : { message: fallback, items: [] };

/**
 * The VIP Tiers screen's Launch tab (spec 002 §4 "VIP Tier program: launch, deactivate, relaunch"):
 * the program's state, and Launch / Relaunch / Deactivate, each after a confirmation dialog that
 * shows the server's message when it refuses (deactivation lists the programs still using tiers).
 */
export function TierLaunchPanel() {
  const t = useT();
  const toast = useToast();
  const status = useResource('tiers:status', () => tierApi.status());
  const [action, setAction] = useState<Action | null>(null);
  const [notes, setNotes] = useState('');
  const [grant, setGrant] = useState(false);
  const [busy, setBusy] = useState(false);
  const [refusal, setRefusal] = useState<Refusal | null>(null);
  useEffect(() => {
    setNotes('');
    setGrant(false);
    setRefusal(null);
  }, [action]);

  if (status.error !== undefined) {
    return (
      <Card title={t('tiers.launch.title')}>
        <Banner tone="critical" title={t('tiers.launch.loadFailed')} action={{ label: t('common.reload'), onAction: status.reload }} />
      </Card>
    );
  }
  const s = status.data;
  if (!s) {
    return (
      <Card title={t('tiers.launch.title')}>
        <SkeletonText lines={3} />
      </Card>
    );
  }

  const run = async () => {
    if (!action) return;
    setBusy(true);
    setRefusal(null);
    try {
      let next: TierProgramStatus;
      if (action === 'deactivate') next = await tierApi.deactivate();
      else next = await (action === 'launch' ? tierApi.launch : tierApi.relaunch)({ changeNotes: notes, grantEntryRewards: grant });
      status.setData(next);
      toast(action === 'deactivate' ? t('tiers.launch.deactivated') : t(action === 'launch' ? 'tiers.launch.launched' : 'tiers.launch.relaunched', { moved: next.moved ?? 0, customers: next.customers ?? 0 }));
      setAction(null);
    } catch (e) {
      setRefusal(refusalOf(e, t('tiers.launch.failed')));
      if (e instanceof ApiError && e.code === 'tiers_in_use') status.reload();
    } finally {
      setBusy(false);
    }
  };

  const launched = s.status === 'launched';
  const titles: Record<Action, string> = { launch: t('tiers.launch.launchTitle'), relaunch: t('tiers.launch.relaunchTitle'), deactivate: t('tiers.launch.deactivateTitle') };
  const confirms: Record<Action, string> = { launch: t('tiers.launch.launch'), relaunch: t('tiers.launch.relaunch'), deactivate: t('tiers.launch.deactivate') };
  return (
    <Card
      title={t('tiers.launch.title')}
      actions={<Badge tone={launched ? 'success' : 'neutral'}>{launched ? t('tiers.launch.stateLaunched') : t('tiers.launch.stateInactive')}</Badge>}
    >
      <div className="stack">
        <p>{launched ? t('tiers.launch.launchedOn', { date: s.launchedAt ? new Date(s.launchedAt).toLocaleString() : '—', actor: s.actor ?? '—' }) : t('tiers.launch.notLaunched')}</p>
        {launched && s.changeNotes && <p className="text-subdued">{t('tiers.launch.notesShown', { notes: s.changeNotes })}</p>}
        {launched && s.usedBy.length > 0 && (
          <Banner tone="warning" title={t('tiers.launch.inUse', { count: s.usedBy.length })}>
            <ul className="tier-launch__list">
              {s.usedBy.map((u) => (
                <li key={u.id}>{u.title}</li>
              ))}
            </ul>
          </Banner>
        )}
        <div className="tier-launch__actions">
          {launched ? (
            <>
              <Button variant="primary" onClick={() => setAction('relaunch')}>
                {t('tiers.launch.relaunch')}
              </Button>
              <Button variant="critical" onClick={() => setAction('deactivate')}>
                {t('tiers.launch.deactivate')}
              </Button>
            </>
          ) : (
            <Button variant="primary" onClick={() => setAction('launch')}>
              {t('tiers.launch.launch')}
            </Button>
          )}
        </div>
      </div>
      <Modal
        open={action !== null}
        title={action ? titles[action] : ''}
        onClose={() => setAction(null)}
        primaryAction={action ? { label: confirms[action], onAction: () => void run(), loading: busy, destructive: action === 'deactivate' } : undefined}
      >
        <div className="stack">
          {refusal && (
            <Banner tone="critical" title={refusal.message}>
              {refusal.items.length > 0 && (
                <ul className="tier-launch__list">
                  {refusal.items.map((item) => (
                    <li key={item}>{item}</li>
                  ))}
                </ul>
              )}
            </Banner>
          )}
          <p>{action === 'deactivate' ? t('tiers.launch.deactivateBody') : action === 'relaunch' ? t('tiers.launch.relaunchBody') : t('tiers.launch.launchBody')}</p>
          {action === 'relaunch' && (
            <div className="form-field">
              <label className="form-field__label" htmlFor="tier-relaunch-notes">
                {t('tiers.launch.notes')}
              </label>
              <div className="input">
                <textarea id="tier-relaunch-notes" className="input__field input__field--multiline" rows={3} maxLength={500} value={notes} onChange={(e) => setNotes(e.target.value)} />
              </div>
            </div>
          )}
          {action !== 'deactivate' && (
            <label className="checkbox-row">
              <input type="checkbox" checked={grant} onChange={(e) => setGrant(e.target.checked)} />
              {t('tiers.launch.grant')}
            </label>
          )}
        </div>
      </Modal>
    </Card>
  );
}
