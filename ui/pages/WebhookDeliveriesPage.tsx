import { useSetAtom } from 'jotai';
import { useState } from 'react';
import { useSearchParams } from 'react-router-dom';
import { ApiError } from '../api/client';
import { api, type DeliveryStatus, type ReconcileResult, type WebhookDelivery } from '../api/endpoints';
import { useResource } from '../api/use-resource';
import { Badge, type BadgeTone } from '../components/Badge';
import { Banner } from '../components/Banner';
import { Button } from '../components/Button';
import { Card } from '../components/Card';
import { Select } from '../components/Select';
import { EmptyState } from '../components/EmptyState';
import { IndexTable, IndexTableRow } from '../components/IndexTable';
import { Page } from '../components/Page';
import { Tabs } from '../components/Tabs';
import { useT, type MessageKey } from '../i18n';
import { showToastAtom } from '../state/toasts';

type Filter = 'all' | DeliveryStatus;
const FILTERS: Filter[] = ['all', 'dead', 'queued', 'done'];
const filterLabels: Record<Filter, MessageKey> = {
  all: 'webhooks.tabs.all',
  dead: 'webhooks.status.dead',
  queued: 'webhooks.status.queued',
  done: 'webhooks.status.done',
};
/** What a delivery is about: the order id, or "Customer <id>" for a customer's deliveries (their key is `customer:<id>`). */
const subjectOf = (orderKey: string, t: ReturnType<typeof useT>): string => (orderKey.startsWith('customer:') ? t('webhooks.customerKey', { id: orderKey.slice('customer:'.length) }) : orderKey);
const statusTones: Record<DeliveryStatus, BadgeTone> = { queued: 'attention', done: 'success', dead: 'critical' };
const topicLabels: Record<string, MessageKey> = {
  'orders/create': 'webhooks.topic.ordersCreate',
  'refunds/create': 'webhooks.topic.refundsCreate',
  'orders/cancelled': 'webhooks.topic.ordersCancelled',
  'loyalty/visit': 'webhooks.topic.visit',
};
/** The look-back windows offered for reconciliation, in hours (the API takes 1 … 720). */
const WINDOWS = [24, 72, 168, 720] as const;
const windowLabels: Record<(typeof WINDOWS)[number], MessageKey> = {
  24: 'webhooks.window.day',
  72: 'webhooks.window.threeDays',
  168: 'webhooks.window.week',
  720: 'webhooks.window.month',
};

const parseFilter = (value: string | null): Filter => (FILTERS.includes(value as Filter) ? (value as Filter) : 'all');

/** Checks the platform's recent orders for what no delivery brought (POST /api/webhook-deliveries/reconcile). */
function ReconcileCard({ onQueued }: { onQueued: () => void }) {
  const t = useT();
  const [hours, setHours] = useState<(typeof WINDOWS)[number]>(72);
  const [running, setRunning] = useState(false);
  const [result, setResult] = useState<ReconcileResult | null>(null);
  const [error, setError] = useState<string | null>(null);
  const run = async () => {
    setRunning(true);
    setError(null);
    setResult(null);
    try {
      const answer = await api.reconcile(hours);
      setResult(answer);
      if (answer.queued > 0) onQueued();
    } catch (e) {
      setError(e instanceof ApiError ? e.message : t('common.genericError'));
    } finally {
      setRunning(false);
    }
  };
  return (
    <Card title={t('webhooks.reconcileTitle')}>
      <p className="page-intro">{t('webhooks.reconcileHelp')}</p>
      <div className="inline-form">
        <Select label={t('webhooks.window.label')} value={hours} options={WINDOWS.map((w) => ({ value: w, label: t(windowLabels[w]) }))} onChange={(v) => setHours(Number(v) as (typeof WINDOWS)[number])} disabled={running} />
        <Button loading={running} onClick={() => void run()}>
          {t('webhooks.reconcile')}
        </Button>
      </div>
      <div aria-live="polite">
        {result && (
          <Banner tone={result.queued > 0 ? 'success' : 'info'} title={t('webhooks.reconciled', { checked: result.checked, queued: result.queued })} onDismiss={() => setResult(null)}>
            {result.truncated ? t('webhooks.reconcileTruncated') : null}
          </Banner>
        )}
        {error && <Banner tone="critical" title={t('webhooks.reconcileFailed')} onDismiss={() => setError(null)}>{error}</Banner>}
      </div>
    </Card>
  );
}

function DeliveryRows({ deliveries, retrying, onRetry }: { deliveries: WebhookDelivery[] | undefined; retrying: string | null; onRetry: (d: WebhookDelivery) => void }) {
  const t = useT();
  const headings = [
    { title: t('webhooks.col.topic') },
    { title: t('webhooks.col.order') },
    { title: t('webhooks.col.status') },
    { title: t('webhooks.col.attempts'), align: 'end' as const },
    { title: t('webhooks.col.received') },
    { title: t('webhooks.col.actions'), hidden: true, align: 'end' as const },
  ];
  return (
    <IndexTable label={t('webhooks.title')} headings={headings}>
      {deliveries === undefined
        ? Array.from({ length: 4 }, (_, row) => (
            <tr key={row} aria-hidden="true">
              {headings.map((h) => (
                <td key={h.title}>
                  <span className="skeleton skeleton--line" />
                </td>
              ))}
            </tr>
          ))
        : deliveries.map((d) => {
            const status = d.status as DeliveryStatus;
            return (
              <IndexTableRow key={d.id}>
                <td className="index-table__primary">
                  {topicLabels[d.topic] ? t(topicLabels[d.topic]!) : d.topic}
                  {d.lastError && <div className="webhooks__error">{t('webhooks.lastError', { error: d.lastError })}</div>}
                </td>
                <td>{subjectOf(d.orderKey, t)}</td>
                <td>
                  <Badge tone={statusTones[status] ?? 'neutral'}>{filterLabels[status] ? t(filterLabels[status]) : d.status}</Badge>
                </td>
                <td className="index-table__cell--end">{d.attempts}</td>
                <td>
                  <time dateTime={d.receivedAt}>{new Date(d.receivedAt).toLocaleString()}</time>
                </td>
                <td className="index-table__cell--end">
                  {status === 'dead' && (
                    <Button variant="plain" loading={retrying === d.id} onClick={() => onRetry(d)} aria-label={t('webhooks.retryLabel', { order: d.orderKey })}>
                      {t('webhooks.retry')}
                    </Button>
                  )}
                </td>
              </IndexTableRow>
            );
          })}
    </IndexTable>
  );
}

/**
 * `/settings/webhooks` (issue 14): the shop's webhook deliveries newest first, filtered by status;
 * a failed (dead-lettered) delivery can be retried, and the recent orders reconciled with the platform.
 */
export function WebhookDeliveriesPage() {
  const t = useT();
  const [search, setSearch] = useSearchParams();
  const filter = parseFilter(search.get('status'));
  const includeVisits = search.get('source') === 'all';
  const deliveries = useResource(`deliveries:${filter}:${includeVisits}`, () => api.webhookDeliveries(filter === 'all' ? undefined : filter, includeVisits));
  /** The status tab and the visits switch live in the address, so a reload or a shared link keeps both. */
  const setView = (status: Filter, visits: boolean) => setSearch({ ...(status === 'all' ? {} : { status }), ...(visits ? { source: 'all' } : {}) });
  // The switch shows a click at once: the router changes the address in a transition, and until it
  // commits React would hold the checkbox at the address's old value (a flicker back, and under load
  // a click that seemed not to take). Whenever the address changes, the switch follows it.
  const [visitsSwitch, setVisitsSwitch] = useState({ fromAddress: includeVisits, checked: includeVisits });
  if (visitsSwitch.fromAddress !== includeVisits) setVisitsSwitch({ fromAddress: includeVisits, checked: includeVisits });
  const showToast = useSetAtom(showToastAtom);
  const [retrying, setRetrying] = useState<string | null>(null);
  const retry = async (d: WebhookDelivery) => {
    setRetrying(d.id);
    try {
      await api.retryDelivery(d.id);
      showToast({ message: t('webhooks.retried') });
      deliveries.reload();
    } catch (e) {
      showToast({ message: e instanceof ApiError ? e.message : t('webhooks.retryFailed'), tone: 'error' });
    } finally {
      setRetrying(null);
    }
  };
  const empty = deliveries.data !== undefined && deliveries.data.length === 0;
  return (
    <Page title={t('webhooks.title')} secondaryActions={<Button onClick={deliveries.reload}>{t('common.reload')}</Button>}>
      <p className="page-intro">{t('webhooks.intro')}</p>
      <ReconcileCard onQueued={deliveries.reload} />
      <Tabs tabs={FILTERS.map((id) => ({ id, label: t(filterLabels[id]) }))} selected={filter} label={t('webhooks.tabs.label')} onSelect={(id) => setView(parseFilter(id), includeVisits)} />
      <label className="checkbox-row">
        <input
          type="checkbox"
          checked={visitsSwitch.checked}
          onChange={(e) => {
            setVisitsSwitch({ fromAddress: includeVisits, checked: e.target.checked });
            setView(filter, e.target.checked);
          }}
        />
        {t('webhooks.showVisits')}
      </label>
      <div role="tabpanel" aria-labelledby={`tab-${filter}`} className="tabs__panel">
        {deliveries.error !== undefined ? (
          <Banner tone="critical" title={t('webhooks.listFailed')} action={{ label: t('common.reload'), onAction: deliveries.reload }}>
            {deliveries.error instanceof ApiError ? deliveries.error.message : null}
          </Banner>
        ) : empty ? (
          <Card>
            <EmptyState heading={t(filter === 'dead' ? 'webhooks.emptyDead' : 'webhooks.empty')}>{t('webhooks.emptyBody')}</EmptyState>
          </Card>
        ) : (
          <Card flush>
            <DeliveryRows deliveries={deliveries.data} retrying={retrying} onRetry={(d) => void retry(d)} />
          </Card>
        )}
      </div>
    </Page>
  );
}
