import { useAtomValue } from 'jotai';
import { useEffect, useState } from 'react';
import { ApiError } from '../../api/client';
import { tierApi, type CustomerTier } from '../../api/endpoints';
import { useResource } from '../../api/use-resource';
import { Badge } from '../../components/Badge';
import { Banner } from '../../components/Banner';
import { Button } from '../../components/Button';
import { Card } from '../../components/Card';
import { Modal } from '../../components/Modal';
import { SkeletonText } from '../../components/Skeleton';
import { useT, type Translate } from '../../i18n';
import { currencyAtom } from '../../state/session';
import { useToast } from '../../state/toasts';

export interface TierCardProps {
  /** The customer (platform id, exact string). */
  customerId: string;
  /** The customer's tier as the profile knows it; the card reloads when it changes. */
  tierId: string | null;
  /** Called with the customer's tier after an admin assigns or unassigns an exclusive tier. */
  onChange?: (tier: CustomerTier) => void;
}

/** A value of the entry method in words: "1,200 points", "$250.00", "3 orders". */
function amount(t: Translate, method: CustomerTier['entryMethod'], value: number, currency: string): string {
  if (method === 'amount_spent') {
    const digits = new Intl.NumberFormat(undefined, { style: 'currency', currency }).resolvedOptions().maximumFractionDigits ?? 2;
    return new Intl.NumberFormat(undefined, { style: 'currency', currency }).format(value / 10 ** digits);
  }
  return t(method === 'number_of_orders' ? 'tiers.card.orders' : 'tiers.card.points', { count: value.toLocaleString() });
}

/**
 * A customer's VIP tier on the profile (spec 002 §2 Customer detail, §3 Customer "VIP tier, tier
 * points earned, tier amount spent, tier order count", §4 exclusive assignment): the tier, the
 * progress to the next one over the assessment period, and assign / unassign of an exclusive tier
 * after confirmation.
 */
export function TierCard({ customerId, tierId, onChange }: TierCardProps) {
  const t = useT();
  const toast = useToast();
  const currency = useAtomValue(currencyAtom);
  const tier = useResource(`tier:${customerId}:${tierId ?? ''}`, () => tierApi.customerTier(customerId));
  const [mode, setMode] = useState<'assign' | 'unassign' | null>(null);
  const [choice, setChoice] = useState('');
  const [note, setNote] = useState('');
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  useEffect(() => {
    setChoice(tier.data?.exclusiveTiers[0]?.id ?? '');
    setNote('');
    setError(null);
  }, [mode, tier.data]);

  if (tier.error !== undefined) {
    return (
      <Card title={t('tiers.card.title')}>
        <Banner tone="critical" title={t('tiers.card.loadFailed')} action={{ label: t('common.reload'), onAction: tier.reload }} />
      </Card>
    );
  }
  const v = tier.data;
  if (!v) {
    return (
      <Card title={t('tiers.card.title')}>
        <SkeletonText lines={3} />
      </Card>
    );
  }

  const submit = async () => {
    setBusy(true);
    setError(null);
    try {
      const next = mode === 'assign' ? await tierApi.assign(customerId, choice, note) : await tierApi.unassign(customerId);
      tier.setData(next);
      onChange?.(next);
      toast(t(mode === 'assign' ? 'tiers.card.assigned' : 'tiers.card.unassigned'));
      setMode(null);
    } catch (e) {
      setError(e instanceof ApiError ? (e.details[0]?.message ?? e.message) : t(mode === 'assign' ? 'tiers.card.assignFailed' : 'tiers.card.unassignFailed'));
    } finally {
      setBusy(false);
    }
  };

  const next = v.assessment.explanation.next;
  const seen = v.assessment.explanation.seen;
  const from = v.ladder.find((l) => l.id === v.assessment.tierId)?.required ?? 0;
  const progress = next ? Math.min(1, Math.max(0, (seen - from) / Math.max(1, next.required - from))) : 1;
  const actions = v.manual ? (
    <Button variant="plain" onClick={() => setMode('unassign')}>
      {t('tiers.card.unassign')}
    </Button>
  ) : v.exclusiveTiers.length > 0 ? (
    <Button variant="plain" onClick={() => setMode('assign')}>
      {t('tiers.card.assign')}
    </Button>
  ) : null;

  return (
    <Card title={t('tiers.card.title')} actions={actions}>
      <div className="stack tier-card">
        <div className="tier-card__name">
          {v.tierName ? <Badge tone="info">{v.tierName}</Badge> : <span className="text-subdued">{t('tiers.card.none')}</span>}
          {v.manual && <Badge tone="attention">{t('tiers.card.manual')}</Badge>}
        </div>
        {!v.launched && <p className="text-subdued">{t('tiers.card.notLaunched')}</p>}
        <dl className="details-list">
          <dt>{t('tiers.card.tierPoints')}</dt>
          <dd>{v.stats.tierPoints.toLocaleString()}</dd>
          <dt>{t('tiers.card.spent')}</dt>
          <dd>{amount(t, 'amount_spent', v.stats.amountSpentMinor, currency)}</dd>
          <dt>{t('tiers.card.orderCount')}</dt>
          <dd>{v.stats.orders.toLocaleString()}</dd>
        </dl>
        {v.manual ? null : next ? (
          <div className="tier-card__progress">
            <progress max={1} value={progress} aria-label={t('tiers.card.progressLabel', { tier: next.tierName })} />
            <p className="text-subdued">{t('tiers.card.toNext', { amount: amount(t, v.entryMethod, next.remaining, currency), tier: next.tierName })}</p>
          </div>
        ) : v.ladder.length > 0 ? (
          <p className="text-subdued">{t('tiers.card.top')}</p>
        ) : null}
      </div>
      <Modal
        open={mode !== null}
        title={mode === 'assign' ? t('tiers.card.assignTitle') : t('tiers.card.unassignTitle')}
        onClose={() => setMode(null)}
        primaryAction={{ label: mode === 'assign' ? t('tiers.card.assign') : t('tiers.card.unassign'), onAction: () => void submit(), loading: busy, destructive: mode === 'unassign' }}
      >
        <div className="stack">
          {error && <Banner tone="critical" title={error} />}
          {mode === 'unassign' ? (
            <p>{t('tiers.card.unassignBody', { tier: v.tierName ?? '—' })}</p>
          ) : (
            <>
              <p>{t('tiers.card.assignBody')}</p>
              <div className="form-field">
                <label className="form-field__label" htmlFor={`tier-assign-${customerId}`}>
                  {t('tiers.card.exclusiveTier')}
                </label>
                <div className="input">
                  <select id={`tier-assign-${customerId}`} className="input__field" value={choice} onChange={(e) => setChoice(e.target.value)}>
                    {v.exclusiveTiers.map((x) => (
                      <option key={x.id} value={x.id}>
                        {x.name}
                      </option>
                    ))}
                  </select>
                </div>
              </div>
              <div className="form-field">
                <label className="form-field__label" htmlFor={`tier-note-${customerId}`}>
                  {t('tiers.card.note')}
                </label>
                <div className="input">
                  <textarea id={`tier-note-${customerId}`} className="input__field input__field--multiline" rows={2} maxLength={500} value={note} onChange={(e) => setNote(e.target.value)} />
                </div>
              </div>
            </>
          )}
        </div>
      </Modal>
    </Card>
  );
}
