import { useEffect, useRef, useState } from 'react';
import { Navigate, useNavigate, useSearchParams } from 'react-router-dom';
import { ApiError } from '../../api/client';
import { useResource } from '../../api/use-resource';
import { Banner } from '../../components/Banner';
import { Button, ButtonLink } from '../../components/Button';
import { Card } from '../../components/Card';
import { Page } from '../../components/Page';
import { SkeletonText } from '../../components/Skeleton';
import { currentLanguage, useT } from '../../i18n';
import { useToast } from '../../state/toasts';
import { billingApi, formatMoney, type PlanChange } from './api';
import { PausedPrograms } from './BillingDashboardPage';

/**
 * The local adapter's confirmation page (demo mode and tests): the pending charge, approved or
 * declined as the merchant would on the platform's page; then the return as from the platform.
 */
function LocalApproval({ subscriptionId, chargeId, onAnswered }: { subscriptionId: string; chargeId: string; onAnswered: () => void }) {
  const t = useT();
  const toast = useToast();
  const language = currentLanguage();
  const info = useResource(`billing:charge:${subscriptionId}`, () => billingApi.subscription());
  const [busy, setBusy] = useState<'approve' | 'decline' | null>(null);
  const row = info.data?.history.find((h) => h.id === subscriptionId);
  const answer = async (choice: 'approve' | 'decline') => {
    setBusy(choice);
    try {
      await billingApi.answerLocalCharge(chargeId, choice);
      onAnswered();
    } catch (error) {
      toast(error instanceof ApiError ? error.message : t('billing.subscribeFailed'), 'error');
      setBusy(null);
    }
  };
  return (
    <Card title={t('billing.local.title')}>
      <p>{t('billing.local.body')}</p>
      {info.data === undefined && info.error === undefined ? (
        <SkeletonText lines={2} />
      ) : row ? (
        <p>
          <strong>{row.planName}</strong> · {t(row.interval === 'annual' ? 'billing.priceYear' : 'billing.priceMonth', { price: formatMoney(row.price, language) })}
          {row.trialDays > 0 && <> · {t('billing.trialDays', { days: row.trialDays })}</>}
          {row.discountPercent > 0 && <> · {t('billing.discount', { percent: row.discountPercent, months: row.discountMonths, code: row.discountCode ?? '' })}</>}
        </p>
      ) : null}
      <div className="billing-summary__actions">
        <Button onClick={() => void answer('decline')} loading={busy === 'decline'} disabled={busy !== null}>
          {t('billing.local.decline')}
        </Button>
        <Button variant="primary" onClick={() => void answer('approve')} loading={busy === 'approve'} disabled={busy !== null}>
          {t('billing.local.approve')}
        </Button>
      </div>
    </Card>
  );
}

/** The return from the platform: verifies the subscription once and shows what the new plan changed. */
function Confirmation({ subscriptionId, chargeId }: { subscriptionId: string; chargeId: string | null }) {
  const t = useT();
  const toast = useToast();
  const [result, setResult] = useState<{ change?: PlanChange; error?: string }>({});
  const started = useRef(false);
  useEffect(() => {
    if (started.current) return;
    started.current = true;
    billingApi.confirm(subscriptionId, chargeId).then(
      (change) => {
        setResult({ change });
        toast(t('billing.activated', { plan: change.planName }));
      },
      (error: unknown) => setResult({ error: error instanceof ApiError ? error.message : t('billing.subscribeFailed') }),
    );
  }, [subscriptionId, chargeId, t, toast]);
  if (result.error) {
    return (
      <Banner tone="critical" title={result.error}>
        <p>
          <ButtonLink to="/subscription">{t('billing.plans.title')}</ButtonLink>
        </p>
      </Banner>
    );
  }
  if (!result.change) {
    return (
      <Card>
        <p role="status">{t('billing.verifying')}</p>
        <SkeletonText lines={2} />
      </Card>
    );
  }
  return (
    <>
      <Banner tone="success" title={t('billing.activated', { plan: result.change.planName })}>
        {result.change.resumed.length > 0 && <p>{t('billing.resumed', { count: result.change.resumed.length })}</p>}
      </Banner>
      <PausedPrograms programs={result.change.paused} />
      <div className="billing-summary__actions">
        <ButtonLink to="/billing-dashboard" variant="primary">
          {t('billing.dashboard.title')}
        </ButtonLink>
      </div>
    </>
  );
}

/**
 * `/subscription/billing` (spec 000 §2, §4): where the platform returns the merchant after the
 * confirmation (`?subscription=…&charge_id=…`), and with the local adapter its confirmation page
 * too (`&local_charge=…`). Without a subscription it is the billing dashboard.
 */
export function SubscriptionReturnPage() {
  const t = useT();
  const navigate = useNavigate();
  const [params] = useSearchParams();
  const subscriptionId = params.get('subscription');
  const localCharge = params.get('local_charge');
  if (!subscriptionId) return <Navigate to="/billing-dashboard" replace />;
  return (
    <Page title={t('billing.return.title')} backTo="/subscription" backLabel={t('billing.plans.title')} narrow>
      {localCharge ? (
        <LocalApproval
          subscriptionId={subscriptionId}
          chargeId={localCharge}
          onAnswered={() => navigate(`/subscription/billing?subscription=${encodeURIComponent(subscriptionId)}&charge_id=${encodeURIComponent(localCharge)}`, { replace: true })}
        />
      ) : (
        <Confirmation key={subscriptionId} subscriptionId={subscriptionId} chargeId={params.get('charge_id')} />
      )}
    </Page>
  );
}
