import { useState } from 'react';
import { useNavigate, useSearchParams } from 'react-router-dom';
import { ApiError } from '../../api/client';
import { useResource } from '../../api/use-resource';
import { Banner } from '../../components/Banner';
import { Button, ButtonLink } from '../../components/Button';
import { Card } from '../../components/Card';
import { EmptyState } from '../../components/EmptyState';
import { Page } from '../../components/Page';
import { SkeletonPage } from '../../components/Skeleton';
import { currentLanguage, useT } from '../../i18n';
import { useToast } from '../../state/toasts';
import { billingApi, formatMoney } from './api';
import { FREE_PLAN_RELOAD_MS, useSubscribe } from './use-subscribe';

/**
 * `/downSell?plan=<target>` (spec 000 §2, §9 downgrade code; spec 002 §9 "10% discount offered to
 * stay", "downgrade may limit rewards"): before a downgrade or a cancel, what the merchant loses
 * (the programs the target plan pauses, the features and orders a month) and an offer to stay on
 * the current plan with the downgrade code; then the downgrade (or cancel) itself.
 */
export function DownSellPage() {
  const t = useT();
  const toast = useToast();
  const navigate = useNavigate();
  const language = currentLanguage();
  const [params] = useSearchParams();
  const target = params.get('plan') ?? 'free';
  const interval = params.get('interval') === 'annual' ? 'annual' : 'monthly';
  const data = useResource(`billing:downsell:${target}`, async () => {
    const [info, plans, paused] = await Promise.all([billingApi.subscription(), billingApi.plans(), billingApi.preview(target)]);
    return { info, plans, paused };
  });
  const { busy, subscribeTo } = useSubscribe();
  const [cancelling, setCancelling] = useState(false);

  if (data.error !== undefined) {
    return (
      <Page title={t('billing.downsell.title')} backTo="/billing-dashboard" backLabel={t('billing.dashboard.title')} narrow>
        <Banner tone="critical" title={data.error instanceof ApiError && data.error.status === 404 ? t('billing.downsell.unknownPlan') : t('billing.infoFailed')} action={{ label: t('common.reload'), onAction: data.reload }} />
      </Page>
    );
  }
  if (!data.data) return <SkeletonPage label={t('common.loading')} />;
  const { info, plans, paused } = data.data;
  const current = plans.find((p) => p.id === info.plan);
  const next = plans.find((p) => p.id === target);
  if (!next || !current || current.price === 0) {
    return (
      <Page title={t('billing.downsell.title')} backTo="/billing-dashboard" backLabel={t('billing.dashboard.title')} narrow>
        <Card>
          <EmptyState heading={t('billing.downsell.nothing')} action={<ButtonLink to="/subscription" variant="primary">{t('billing.plans.title')}</ButtonLink>} />
        </Card>
      </Page>
    );
  }
  const lost = plans.filter((p) => p.group > next.group && p.group <= current.group).flatMap((p) => p.features);
  const isCancel = next.price === 0;

  const proceed = async () => {
    if (!isCancel) {
      await subscribeTo(next.id, interval);
      return;
    }
    setCancelling(true);
    try {
      await billingApi.cancel();
      toast(t('billing.freeActivated'));
      window.setTimeout(() => navigate('/billing-dashboard'), FREE_PLAN_RELOAD_MS);
    } catch (error) {
      toast(error instanceof ApiError ? error.message : t('billing.subscribeFailed'), 'error');
      setCancelling(false);
    }
  };

  return (
    <Page title={t(isCancel ? 'billing.downsell.cancelTitle' : 'billing.downsell.title')} backTo="/billing-dashboard" backLabel={t('billing.dashboard.title')} narrow>
      <Card title={t('billing.downsell.offerTitle', { percent: 50, plan: current.name })}>
        <p>{t('billing.downsell.offerBody', { code: info.downgradeCode, plan: current.name, price: formatMoney(Math.round(current.price / 2), language) })}</p>
        <Button variant="primary" loading={busy === current.id} disabled={busy !== null || cancelling} onClick={() => void subscribeTo(current.id, info.subscription?.interval ?? 'monthly', info.downgradeCode)}>
          {t('billing.downsell.stay')}
        </Button>
      </Card>
      <Card title={t('billing.downsell.loseTitle', { plan: next.name })}>
        <ul className="billing-facts">
          <li>{t('billing.downsell.orders', { orders: next.freePerMonth.toLocaleString(language) })}</li>
          {lost.map((f) => (
            <li key={f.id}>{f.label}</li>
          ))}
        </ul>
        {paused.length > 0 ? (
          <Banner tone="warning" title={t('billing.downsell.pausedTitle', { count: paused.length })}>
            <ul className="billing-paused">
              {paused.map((p) => (
                <li key={p.id}>{p.title}</li>
              ))}
            </ul>
          </Banner>
        ) : (
          <p>{t('billing.downsell.nonePaused')}</p>
        )}
        <div className="billing-summary__actions">
          <ButtonLink to="/billing-dashboard">{t('billing.downsell.keep')}</ButtonLink>
          <Button variant="critical" loading={cancelling || busy === next.id} disabled={busy !== null || cancelling} onClick={() => void proceed()}>
            {isCancel ? t('billing.cancel') : t('billing.downgradeTo', { plan: next.name })}
          </Button>
        </div>
      </Card>
    </Page>
  );
}
