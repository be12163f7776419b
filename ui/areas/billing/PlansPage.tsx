import { useState } from 'react';
import { useNavigate, useSearchParams } from 'react-router-dom';
import { ApiError } from '../../api/client';
import { useResource } from '../../api/use-resource';
import { Badge } from '../../components/Badge';
import { Banner } from '../../components/Banner';
import { Button, ButtonLink } from '../../components/Button';
import { Card } from '../../components/Card';
import { EmptyState } from '../../components/EmptyState';
import { Page } from '../../components/Page';
import { SkeletonText } from '../../components/Skeleton';
import { Tabs } from '../../components/Tabs';
import { currentLanguage, useT } from '../../i18n';
import { billingApi, formatMoney, monthlyCost, type BillingInterval, type PlanOffer, type SubscriptionInfo } from './api';
import { OffersCard } from './Offers';
import { useSubscribe } from './use-subscribe';

/** Whether moving from the current plan to `target` costs less per month (a downgrade goes through /downSell first). */
export function isDowngrade(current: PlanOffer | undefined, target: PlanOffer): boolean {
  return current !== undefined && target.price < current.price;
}

/**
 * `/subscription`, `/settings/subscription/plans` and `/customize_plan` (spec 000 §2, §4, §9; spec
 * 002 §2 pricing page with price calculator): the plans with the monthly/yearly toggle (annual =
 * 12 × monthly), trial days, orders per month, extra-order fee and the features each adds; a promo
 * code; choosing a plan subscribes, a cheaper one goes to /downSell first. `?plan=` highlights the
 * plan a gate named.
 */
export function PlansPage() {
  const t = useT();
  const navigate = useNavigate();
  const [params] = useSearchParams();
  const highlighted = params.get('plan');
  const [interval, setInterval] = useState<BillingInterval>(params.get('interval') === 'annual' ? 'annual' : 'monthly');
  const plans = useResource('billing:plans', () => billingApi.plans());
  const info = useResource<SubscriptionInfo>('billing:subscription', () => billingApi.subscription());
  const { busy, subscribeTo } = useSubscribe();
  const [code, setCode] = useState('');
  const [codeState, setCodeState] = useState<{ ok: boolean; message: string } | null>(null);
  const [orders, setOrders] = useState('1000');
  const language = currentLanguage();

  const current = plans.data?.find((p) => p.id === info.data?.plan);
  const checkCode = async () => {
    const target = plans.data?.find((p) => p.price > 0 && p.id === highlighted) ?? plans.data?.find((p) => p.price > 0);
    if (!code.trim() || !target) return;
    try {
      const promo = await billingApi.promo(code.trim(), target.id);
      setCodeState({ ok: true, message: t('billing.promo.applied', { percent: promo.percent, months: promo.months }) });
    } catch (error) {
      setCodeState({ ok: false, message: error instanceof ApiError ? error.message : t('billing.subscribeFailed') });
    }
  };
  const choose = (plan: PlanOffer) => {
    if (isDowngrade(current, plan)) {
      navigate(`/downSell?plan=${encodeURIComponent(plan.id)}&interval=${interval}`);
      return;
    }
    void subscribeTo(plan.id, interval, codeState?.ok ? code.trim() : null);
  };

  return (
    <Page title={t('billing.plans.title')} secondaryActions={<ButtonLink to="/billing-dashboard">{t('billing.dashboard.title')}</ButtonLink>}>
      {info.error !== undefined && <Banner tone="critical" title={t('billing.infoFailed')} action={{ label: t('common.reload'), onAction: info.reload }} />}
      {info.data && info.data.paused.length > 0 && <Banner tone="warning" title={t('billing.paused.title', { count: info.data.paused.length })}>{t('billing.paused.body')}</Banner>}
      <div className="billing-toolbar">
        <Tabs
          tabs={[
            { id: 'monthly', label: t('billing.monthly') },
            { id: 'annual', label: t('billing.yearly') },
          ]}
          selected={interval}
          onSelect={(id) => setInterval(id === 'annual' ? 'annual' : 'monthly')}
          label={t('billing.intervalLabel')}
        />
        <div className="billing-promo">
          <label className="form-field__label" htmlFor="billing-promo-code">
            {t('billing.promo.label')}
          </label>
          <div className="billing-promo__row">
            <div className={codeState && !codeState.ok ? 'input input--invalid' : 'input'}>
              <input
                id="billing-promo-code"
                className="input__field"
                value={code}
                onChange={(e) => {
                  setCode(e.target.value);
                  setCodeState(null);
                }}
              />
            </div>
            <Button onClick={() => void checkCode()} disabled={!code.trim()}>
              {t('billing.promo.apply')}
            </Button>
          </div>
          {codeState && <p className={codeState.ok ? 'form-field__help' : 'form-field__error'}>{codeState.message}</p>}
        </div>
      </div>
      {plans.error !== undefined ? (
        <Banner tone="critical" title={t('billing.plansFailed')} action={{ label: t('common.reload'), onAction: plans.reload }} />
      ) : plans.data === undefined ? (
        <Card>
          <SkeletonText lines={6} />
        </Card>
      ) : plans.data.length === 0 ? (
        <Card>
          <EmptyState heading={t('billing.plans.empty')} />
        </Card>
      ) : (
        <ul className="plan-grid" aria-label={t('billing.plans.title')}>
          {plans.data.map((plan) => {
            const isCurrent = plan.id === info.data?.plan;
            const price = interval === 'annual' ? plan.priceAnnually : plan.price;
            return (
              <li key={plan.id} className={plan.id === highlighted ? 'card plan-card plan-card--highlighted' : 'card plan-card'} aria-labelledby={`plan-${plan.id}`}>
                <div className="plan-card__head">
                  <h2 id={`plan-${plan.id}`} className="card__title">
                    {plan.name}
                  </h2>
                  {isCurrent && <Badge tone="success">{t('billing.currentPlan')}</Badge>}
                  {plan.mostPopular && !isCurrent && <Badge tone="info">{t('billing.mostPopular')}</Badge>}
                </div>
                <p className="plan-card__price">
                  <strong>{formatMoney(price, language)}</strong> {t(interval === 'annual' ? 'billing.perYear' : 'billing.perMonth')}
                </p>
                <ul className="plan-card__facts">
                  <li>{t('billing.ordersIncluded', { orders: plan.freePerMonth.toLocaleString(language) })}</li>
                  {plan.pricePerOrder > 0 && <li>{t('billing.extraOrder', { price: formatMoney(plan.pricePerOrder * 100, language) })}</li>}
                  {plan.trialDays > 0 && <li>{t('billing.trialDays', { days: plan.trialDays })}</li>}
                  {plan.features.map((f) => (
                    <li key={f.id}>{f.label}</li>
                  ))}
                </ul>
                <div className="plan-card__action">
                  {isCurrent && (plan.price === 0 || info.data?.subscription?.interval === interval) ? (
                    <Button disabled>{t('billing.currentPlan')}</Button>
                  ) : (
                    <Button variant={isDowngrade(current, plan) ? 'secondary' : 'primary'} loading={busy === plan.id} disabled={busy !== null || info.data === undefined} onClick={() => choose(plan)}>
                      {isDowngrade(current, plan) ? t('billing.downgradeTo', { plan: plan.name }) : t('billing.choose', { plan: plan.name })}
                    </Button>
                  )}
                </div>
              </li>
            );
          })}
        </ul>
      )}
      {plans.data && plans.data.length > 0 && (
        <Card title={t('billing.calculator.title')}>
          <div className="form-field">
            <label className="form-field__label" htmlFor="billing-orders">
              {t('billing.calculator.orders')}
            </label>
            <div className="input">
              <input id="billing-orders" className="input__field" type="number" min={0} step={1} inputMode="numeric" value={orders} onChange={(e) => setOrders(e.target.value)} />
            </div>
          </div>
          <ul className="billing-calculator">
            {plans.data.map((plan) => (
              <li key={plan.id}>
                <span>{plan.name}</span> <strong>{t('billing.calculator.cost', { price: formatMoney(monthlyCost(plan, Number(orders) || 0), language) })}</strong>
              </li>
            ))}
          </ul>
        </Card>
      )}
      <OffersCard />
    </Page>
  );
}
