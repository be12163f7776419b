import { useEffect } from 'react';
import { Link } from 'react-router-dom';
import { useResource } from '../../api/use-resource';
import { Badge, type BadgeTone } from '../../components/Badge';
import { Banner } from '../../components/Banner';
import { ButtonLink } from '../../components/Button';
import { Card } from '../../components/Card';
import { EmptyState } from '../../components/EmptyState';
import { IndexTable, IndexTableRow } from '../../components/IndexTable';
import { Page } from '../../components/Page';
import { SkeletonPage } from '../../components/Skeleton';
import { currentLanguage, useT, type MessageKey } from '../../i18n';
import { useToast } from '../../state/toasts';
import { billingApi, formatMoney, type PausedProgram, type SubscriptionInfo } from './api';

const STATUS_TONES: Record<string, BadgeTone> = { active: 'success', pending: 'attention', declined: 'critical', cancelled: 'neutral', replaced: 'neutral' };
const STATUS_LABELS: Record<string, MessageKey> = {
  active: 'billing.status.active',
  pending: 'billing.status.pending',
  declined: 'billing.status.declined',
  cancelled: 'billing.status.cancelled',
  replaced: 'billing.status.replaced',
};

/** Programs the plan keeps paused, each linking to the plan that unlocks it (spec 002 §4). */
export function PausedPrograms({ programs }: { programs: PausedProgram[] }) {
  const t = useT();
  if (programs.length === 0) return null;
  return (
    <Banner tone="warning" title={t('billing.paused.title', { count: programs.length })}>
      <p>{t('billing.paused.body')}</p>
      <ul className="billing-paused">
        {programs.map((p) => (
          <li key={p.id}>
            <Link to={`/programs/point/${encodeURIComponent(p.id)}`}>{p.title}</Link>
            {p.unlockPlan && <> · {t('programs.availableIn', { plan: p.unlockPlan })}</>}
          </li>
        ))}
      </ul>
    </Banner>
  );
}

/**
 * `/billing-dashboard` (spec 002 §2 pricing page with billing history): the current plan and
 * subscription (interval, price, discount, trial end), this month's orders against the allowance
 * and the usage charge, programs paused by the plan, the billing history, and the way to change
 * plan or cancel (through /downSell). A failed load shows the spec's "Failed to get subscription
 * info…" as a toast and a banner.
 */
export function BillingDashboardPage() {
  const t = useT();
  const toast = useToast();
  const language = currentLanguage();
  const info = useResource<SubscriptionInfo>('billing:subscription', () => billingApi.subscription());
  useEffect(() => {
    if (info.error !== undefined) toast(t('billing.infoFailed'), 'error');
  }, [info.error, toast, t]);

  if (info.error !== undefined && !info.data) {
    return (
      <Page title={t('billing.dashboard.title')} narrow>
        <Banner tone="critical" title={t('billing.infoFailed')} action={{ label: t('common.reload'), onAction: info.reload }} />
      </Page>
    );
  }
  if (!info.data) return <SkeletonPage label={t('common.loading')} />;
  const { subscription, allowance, history } = info.data;
  const date = (iso: string | null) => (iso ? new Date(iso).toLocaleDateString(language) : '—');
  return (
    <Page title={t('billing.dashboard.title')} primaryAction={<ButtonLink to="/subscription" variant="primary">{t('billing.changePlan')}</ButtonLink>}>
      <PausedPrograms programs={info.data.paused} />
      <div className="billing-summary">
        <Card title={t('billing.dashboard.plan')}>
          <p className="billing-summary__plan">
            <strong>{info.data.planName}</strong> {subscription && <Badge tone="success">{t('billing.status.active')}</Badge>}
          </p>
          {subscription ? (
            <ul className="billing-facts">
              <li>{t(subscription.interval === 'annual' ? 'billing.priceYear' : 'billing.priceMonth', { price: formatMoney(subscription.price, language) })}</li>
              {subscription.discountPercent > 0 && <li>{t('billing.discount', { percent: subscription.discountPercent, months: subscription.discountMonths, code: subscription.discountCode ?? '' })}</li>}
              {subscription.trialEndsAt && <li>{t('billing.trialEnds', { date: date(subscription.trialEndsAt) })}</li>}
              <li>{t('billing.since', { date: date(subscription.activatedAt) })}</li>
            </ul>
          ) : (
            <p>{t('billing.noSubscription')}</p>
          )}
          {subscription && (
            <div className="billing-summary__actions">
              <ButtonLink to="/downSell?plan=free" variant="critical-plain">
                {t('billing.cancel')}
              </ButtonLink>
            </div>
          )}
        </Card>
        <Card title={t('billing.dashboard.usage')}>
          <p>{allowance.limit === null ? t('billing.usageUnlimited', { used: allowance.used.toLocaleString(language) }) : t('billing.usage', { used: allowance.used.toLocaleString(language), limit: allowance.limit.toLocaleString(language) })}</p>
          {allowance.limit !== null && <progress className="billing-meter" max={allowance.limit} value={Math.min(allowance.used, allowance.limit)} aria-label={t('billing.dashboard.usage')} />}
          {allowance.message && <Banner tone={allowance.state === 'reached' ? 'critical' : 'warning'} title={allowance.message} />}
          <p>{t('billing.usageCharge', { price: formatMoney(info.data.usageChargeMinor, language) })}</p>
        </Card>
      </div>
      <Card title={t('billing.history')} flush>
        {history.length === 0 ? (
          <EmptyState heading={t('billing.historyEmpty')}>{t('billing.historyEmptyBody')}</EmptyState>
        ) : (
          <IndexTable
            label={t('billing.history')}
            headings={[{ title: t('billing.col.plan') }, { title: t('billing.col.status') }, { title: t('billing.col.price'), align: 'end' }, { title: t('billing.col.date') }]}
          >
            {history.map((row) => (
              <IndexTableRow key={row.id}>
                <td className="index-table__primary">
                  {row.planName} · {t(row.interval === 'annual' ? 'billing.yearly' : 'billing.monthly')}
                </td>
                <td>
                  <Badge tone={STATUS_TONES[row.status] ?? 'neutral'}>{STATUS_LABELS[row.status] ? t(STATUS_LABELS[row.status]!) : row.status}</Badge>
                </td>
                <td className="index-table__cell--end">{formatMoney(row.price, language)}</td>
                <td>{date(row.activatedAt ?? row.createdAt)}</td>
              </IndexTableRow>
            ))}
          </IndexTable>
        )}
      </Card>
    </Page>
  );
}
