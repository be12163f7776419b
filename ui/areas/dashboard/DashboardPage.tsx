import { useState, type FormEvent } from 'react';
import { Link } from 'react-router-dom';
import { api, type DashboardData, type ReportRange, type SearchHit } from '../../api/endpoints';
import { useResource } from '../../api/use-resource';
import { Banner } from '../../components/Banner';
import { Button } from '../../components/Button';
import { Card } from '../../components/Card';
import { Page } from '../../components/Page';
import { Select } from '../../components/Select';
import { SkeletonText } from '../../components/Skeleton';
import { useT, type MessageKey } from '../../i18n';
import { SaleBanner } from '../billing/Offers';
import { GUIDE_VIDEO_URL, GuideVideoButton } from './GuideVideo';
import { RecommendedAppsCard } from './RecommendedAppsCard';

const RANGES: ReportRange[] = ['today', 'yesterday', 'last_7_days', 'last_30_days', 'last_60_days', 'last_90_days', 'last_month', 'last_year', 'week_to_date', 'month_to_date', 'year_to_date'];
const rangeLabels: Record<ReportRange, MessageKey> = {
  today: 'dashboard.range.today',
  yesterday: 'dashboard.range.yesterday',
  last_7_days: 'dashboard.range.last7',
  last_30_days: 'dashboard.range.last30',
  last_60_days: 'dashboard.range.last60',
  last_90_days: 'dashboard.range.last90',
  last_month: 'dashboard.range.lastMonth',
  last_year: 'dashboard.range.lastYear',
  week_to_date: 'dashboard.range.week',
  month_to_date: 'dashboard.range.month',
  year_to_date: 'dashboard.range.year',
};
const checklistLabels: Record<DashboardData['checklist'][number]['id'], MessageKey> = {
  earning: 'dashboard.check.earning',
  redeeming: 'dashboard.check.redeeming',
  vip: 'dashboard.check.vip',
  reviews: 'dashboard.check.reviews',
  widget: 'dashboard.check.widget',
};

/** Quick search by customer e-mail, order id or coupon code (spec 002 §2). */
function QuickSearch() {
  const t = useT();
  const [q, setQ] = useState('');
  const [hits, setHits] = useState<SearchHit[] | null>(null);
  const [failed, setFailed] = useState(false);
  const [busy, setBusy] = useState(false);
  const submit = async (event: FormEvent) => {
    event.preventDefault();
    if (!q.trim()) return;
    setBusy(true);
    setFailed(false);
    try {
      setHits(await api.quickSearch(q.trim()));
    } catch {
      setFailed(true);
    } finally {
      setBusy(false);
    }
  };
  return (
    <Card title={t('dashboard.search.title')}>
      <form className="list-toolbar__search" role="search" onSubmit={(e) => void submit(e)}>
        <label className="visually-hidden" htmlFor="quick-search">
          {t('dashboard.search.label')}
        </label>
        <div className="input">
          <input id="quick-search" className="input__field" type="search" maxLength={254} value={q} placeholder={t('dashboard.search.placeholder')} onChange={(e) => setQ(e.target.value)} />
        </div>
        <Button type="submit" loading={busy}>
          {t('customers.searchButton')}
        </Button>
      </form>
      {failed && <p className="form-field__error">{t('dashboard.search.failed')}</p>}
      {hits !== null && !failed && (
        <div aria-live="polite">
          {hits.length === 0 ? (
            <p className="text-subdued">{t('dashboard.search.none')}</p>
          ) : (
            <ul className="search-hits">
              {hits.map((h) => (
                <li key={`${h.type}:${h.id}:${h.path}`}>
                  <Link to={h.path}>{h.type === 'order' ? t('dashboard.search.order', { id: h.label }) : h.label}</Link>
                  {h.points !== null && <span className="text-subdued"> · {t('dashboard.search.points', { points: h.points.toLocaleString() })}</span>}
                </li>
              ))}
            </ul>
          )}
        </div>
      )}
    </Card>
  );
}

/**
 * `/home` (spec 002 §2 Dashboard): quick search, report cards from the ledger over the chosen date
 * range (store time), activities waiting for approval, the month's order allowance, and the
 * quick-start checklist with the guide video (spec 000 §2 "a guide video modal (16:9)").
 */
export function DashboardPage() {
  const t = useT();
  const [range, setRange] = useState<ReportRange>('last_30_days');
  const data = useResource<DashboardData>(`dashboard:${range}`, () => api.dashboard(range), { keepData: true });
  const d = data.data;
  const cards: [MessageKey, number | undefined][] = [
    ['dashboard.card.issued', d?.report.pointsIssued],
    ['dashboard.card.redeemed', d?.report.pointsRedeemed],
    ['dashboard.card.reversed', d?.report.pointsReversed],
    ['dashboard.card.orders', d?.report.ordersThatEarned],
    ['dashboard.card.newMembers', d?.report.newMembers],
    ['dashboard.card.members', d?.report.members],
  ];
  return (
    <Page title={t('dashboard.title')}>
      <SaleBanner />
      <div className="dashboard">
        <QuickSearch />
        <Card title={t('dashboard.report.title')}>
          <Select className="dashboard__range" label={t('dashboard.range.label')} value={range} options={RANGES.map((r) => ({ value: r, label: t(rangeLabels[r]) }))} onChange={(v) => setRange(v as ReportRange)} />
          {data.error !== undefined ? (
            <Banner tone="critical" title={t('dashboard.failed')} action={{ label: t('common.reload'), onAction: data.reload }} />
          ) : (
            <>
              {d && <p className="text-subdued">{d.report.range.firstDate === d.report.range.lastDate ? d.report.range.firstDate : `${d.report.range.firstDate} – ${d.report.range.lastDate}`}</p>}
              <dl className="stat-grid stat-grid--three" aria-busy={data.loading || undefined}>
                {cards.map(([label, value]) => (
                  <div key={label} className="stat-grid__item">
                    <dt>{t(label)}</dt>
                    <dd>{value === undefined ? <span className="skeleton skeleton--line" /> : value.toLocaleString()}</dd>
                  </div>
                ))}
              </dl>
            </>
          )}
        </Card>
        <div className="dashboard__row">
          <Card title={t('dashboard.approvals.title')}>
            {!d ? (
              <SkeletonText lines={2} />
            ) : d.approvals.reviews === 0 ? (
              <p className="text-subdued">{t('dashboard.approvals.none')}</p>
            ) : (
              <Link to="/customers/activity/review">{t('dashboard.approvals.reviews', { count: d.approvals.reviews })}</Link>
            )}
          </Card>
          <Card title={t('dashboard.allowance.title')}>
            {!d ? (
              <SkeletonText lines={2} />
            ) : d.allowance.limit === null ? (
              <p>{t('dashboard.allowance.unlimited', { used: d.allowance.used.toLocaleString() })}</p>
            ) : (
              <>
                <p>{t('dashboard.allowance.used', { used: d.allowance.used.toLocaleString(), limit: d.allowance.limit.toLocaleString() })}</p>
                <progress className="allowance-bar" max={d.allowance.limit} value={Math.min(d.allowance.used, d.allowance.limit)} aria-label={t('dashboard.allowance.title')} />
                {d.allowance.message && <Banner tone={d.allowance.state === 'reached' ? 'critical' : 'warning'} title={d.allowance.message} />}
              </>
            )}
          </Card>
        </div>
        <Card
          title={t('dashboard.check.title')}
          actions={
            <div className="card__actions">
              {GUIDE_VIDEO_URL && <GuideVideoButton url={GUIDE_VIDEO_URL} />}
              <Link to="/set-up">{t('setup.rerun')}</Link>
            </div>
          }
        >
          {!d ? (
            <SkeletonText lines={4} />
          ) : (
            <ul className="checklist">
              {d.checklist.map((item) => (
                <li key={item.id} className={item.done ? 'checklist__item checklist__item--done' : 'checklist__item'}>
                  <span className="checklist__mark" aria-hidden="true">
                    {item.done ? '✓' : '○'}
                  </span>
                  <Link to={item.path}>{t(checklistLabels[item.id])}</Link>
                  <span className="visually-hidden">{t(item.done ? 'dashboard.check.done' : 'dashboard.check.todo')}</span>
                </li>
              ))}
            </ul>
          )}
        </Card>
        <RecommendedAppsCard />
      </div>
    </Page>
  );
}
