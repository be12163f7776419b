import { useAtomValue } from 'jotai';
import { useEffect, useState } from 'react';
import { useParams } from 'react-router-dom';
import { ApiError } from '../../api/client';
import { api, type ActivityEntry, type ActivityTab, type CustomerProfile } from '../../api/endpoints';
import { useResource } from '../../api/use-resource';
import { Badge } from '../../components/Badge';
import { Banner } from '../../components/Banner';
import { Button } from '../../components/Button';
import { Card } from '../../components/Card';
import { Modal } from '../../components/Modal';
import { Page } from '../../components/Page';
import { SkeletonText } from '../../components/Skeleton';
import { Tabs } from '../../components/Tabs';
import { useT, type MessageKey } from '../../i18n';
import { LoadFailed } from '../../pages/LoadFailed';
import { shopAtom } from '../../state/session';
import { useToast } from '../../state/toasts';
import { customerName, describeEntry, typeLabels, typeTones } from './format';

const ACTIVITY_TABS: ActivityTab[] = ['all', 'earned', 'redeemed', 'refunded', 'expired', 'orders', 'admin'];
const activityLabels: Record<ActivityTab, MessageKey> = {
  all: 'activity.tabs.all',
  earned: 'activity.tabs.earned',
  redeemed: 'activity.tabs.redeemed',
  refunded: 'activity.tabs.refunded',
  expired: 'activity.tabs.expired',
  orders: 'activity.tabs.orders',
  admin: 'activity.tabs.admin',
};
const eventLabels: Record<string, MessageKey> = { excluded: 'customers.event.excluded', rejoined: 'customers.event.rejoined' };

/** Spec 002 §3 Adjust points: amount (negative subtracts), admin note, customer note, tier-points adjustment. */
function AdjustPointsModal({ customer, open, onClose, onDone }: { customer: CustomerProfile; open: boolean; onClose: () => void; onDone: (c: CustomerProfile) => void }) {
  const t = useT();
  const toast = useToast();
  const [points, setPoints] = useState('');
  const [adminNote, setAdminNote] = useState('');
  const [customerNote, setCustomerNote] = useState('');
  const [adjustTierPoints, setAdjustTierPoints] = useState(false);
  const [allowNegative, setAllowNegative] = useState(false);
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [busy, setBusy] = useState(false);
  useEffect(() => {
    if (!open) return;
    setPoints('');
    setAdminNote('');
    setCustomerNote('');
    setAdjustTierPoints(false);
    setAllowNegative(false);
    setErrors({});
  }, [open]);
  const amount = Number(points);
  const valid = points.trim() !== '' && Number.isInteger(amount) && amount !== 0;
  const submit = async () => {
    if (!valid) {
      setErrors({ '/points': t('customers.adjust.pointsInvalid') });
      return;
    }
    setBusy(true);
    setErrors({});
    try {
      const updated = await api.adjustPoints(customer.id, { points: amount, adminNote, customerNote, adjustTierPoints, allowNegative });
      toast(t('customers.adjust.done'));
      onDone(updated);
      onClose();
    } catch (e) {
      if (e instanceof ApiError && e.details.length > 0) setErrors(Object.fromEntries(e.details.map((d) => [d.path, e.code === 'negative_balance' ? `${d.message}. ${t('customers.adjust.allowNegativeHint')}` : d.message])));
      else toast(e instanceof ApiError ? e.message : t('customers.adjust.failed'), 'error');
    } finally {
      setBusy(false);
    }
  };
  const field = (path: string) => (errors[path] ? { 'aria-invalid': true, 'aria-describedby': `adjust-${path.slice(1)}-error` } : {});
  return (
    <Modal open={open} title={t('customers.adjust.title')} onClose={onClose} primaryAction={{ label: t('customers.adjust.submit'), onAction: () => void submit(), loading: busy }}>
      <form
        className="stack"
        onSubmit={(e) => {
          e.preventDefault();
          void submit();
        }}
      >
        <p>{t('customers.adjust.balance', { points: customer.points.toLocaleString() })}</p>
        <div className="form-field">
          <label className="form-field__label" htmlFor="adjust-points">
            {t('customers.adjust.points')}
          </label>
          <div className={errors['/points'] ? 'input input--invalid' : 'input'}>
            <input id="adjust-points" className="input__field" type="number" step={1} inputMode="numeric" value={points} onChange={(e) => setPoints(e.target.value)} {...field('/points')} />
          </div>
          <p className="form-field__help">{t('customers.adjust.pointsHelp')}</p>
          {errors['/points'] && (
            <p className="form-field__error" id="adjust-points-error">
              {errors['/points']}
            </p>
          )}
        </div>
        {[
          ['adminNote', adminNote, setAdminNote, 'customers.adjust.adminNote'],
          ['customerNote', customerNote, setCustomerNote, 'customers.adjust.customerNote'],
        ].map(([name, value, set, label]) => (
          <div className="form-field" key={name as string}>
            <label className="form-field__label" htmlFor={`adjust-${name as string}`}>
              {t(label as MessageKey)}
            </label>
            <div className="input">
              <textarea id={`adjust-${name as string}`} className="input__field input__field--multiline" rows={2} maxLength={500} value={value as string} onChange={(e) => (set as (v: string) => void)(e.target.value)} {...field(`/${name as string}`)} />
            </div>
            {errors[`/${name as string}`] && (
              <p className="form-field__error" id={`adjust-${name as string}-error`}>
                {errors[`/${name as string}`]}
              </p>
            )}
          </div>
        ))}
        <label className="checkbox-row">
          <input type="checkbox" checked={adjustTierPoints} onChange={(e) => setAdjustTierPoints(e.target.checked)} />
          {t('customers.adjust.tierPoints')}
        </label>
        <label className="checkbox-row">
          <input type="checkbox" checked={allowNegative} onChange={(e) => setAllowNegative(e.target.checked)} />
          {t('customers.adjust.allowNegative')}
        </label>
      </form>
    </Modal>
  );
}

/** Exclude a member or let a left customer join again, with a note, after confirmation. */
function MembershipModal({ customer, open, onClose, onDone }: { customer: CustomerProfile; open: boolean; onClose: () => void; onDone: (c: CustomerProfile) => void }) {
  const t = useT();
  const toast = useToast();
  const [note, setNote] = useState('');
  const [busy, setBusy] = useState(false);
  const action = customer.type === 'left' ? 'rejoin' : 'exclude';
  useEffect(() => setNote(''), [open]);
  const confirm = async () => {
    setBusy(true);
    try {
      onDone(await api.changeMembership(customer.id, action, note));
      toast(t('customers.membership.done'));
      onClose();
    } catch (e) {
      toast(e instanceof ApiError ? e.message : t('customers.membership.failed'), 'error');
    } finally {
      setBusy(false);
    }
  };
  return (
    <Modal
      open={open}
      title={t(action === 'exclude' ? 'customers.membership.excludeTitle' : 'customers.membership.rejoinTitle')}
      onClose={onClose}
      primaryAction={{ label: t(action === 'exclude' ? 'customers.membership.exclude' : 'customers.membership.rejoin'), destructive: action === 'exclude', loading: busy, onAction: () => void confirm() }}
    >
      <p>{t(action === 'exclude' ? 'customers.membership.excludeBody' : 'customers.membership.rejoinBody')}</p>
      <div className="form-field">
        <label className="form-field__label" htmlFor="membership-note">
          {t('customers.membership.note')}
        </label>
        <div className="input">
          <input id="membership-note" className="input__field" maxLength={500} value={note} onChange={(e) => setNote(e.target.value)} />
        </div>
      </div>
    </Modal>
  );
}

/** The activity card: tabs, entries in plain words, and more on demand. */
function Activity({ customerId, currency, version }: { customerId: string; currency: string; version: number }) {
  const t = useT();
  const [tab, setTab] = useState<ActivityTab>('all');
  const [more, setMore] = useState<ActivityEntry[]>([]);
  const [cursor, setCursor] = useState<string | null>(null);
  const [loadingMore, setLoadingMore] = useState(false);
  const first = useResource(`activity:${customerId}:${tab}:${version}`, () => api.customerActivity(customerId, tab));
  useEffect(() => {
    setMore([]);
    setCursor(null);
  }, [first.data]);
  const entries = first.data ? [...first.data.data, ...more] : undefined;
  const next = cursor ?? first.data?.pageInfo.endCursor ?? null;
  const hasMore = more.length > 0 || cursor !== null ? cursor !== null : Boolean(first.data?.pageInfo.hasNextPage);
  const loadMore = async () => {
    if (!next) return;
    setLoadingMore(true);
    try {
      const page = await api.customerActivity(customerId, tab, next);
      setMore((m) => [...m, ...page.data]);
      setCursor(page.pageInfo.hasNextPage ? page.pageInfo.endCursor : null);
    } finally {
      setLoadingMore(false);
    }
  };
  return (
    <Card title={t('activity.title')} flush>
      <div className="card__section">
        <Tabs tabs={ACTIVITY_TABS.map((id) => ({ id, label: t(activityLabels[id]) }))} selected={tab} label={t('activity.tabs.label')} onSelect={(id) => setTab(id as ActivityTab)} />
      </div>
      <div role="tabpanel" aria-labelledby={`tab-${tab}`}>
        {first.error !== undefined ? (
          <div className="card__section">
            <Banner tone="critical" title={t('activity.failed')} action={{ label: t('common.reload'), onAction: first.reload }} />
          </div>
        ) : entries === undefined ? (
          <div className="card__section">
            <SkeletonText lines={4} />
          </div>
        ) : entries.length === 0 ? (
          <p className="card__section text-subdued">{t('activity.empty')}</p>
        ) : (
          <ul className="activity-list">
            {entries.map((e) => {
              const { text, note } = describeEntry(e, t, currency);
              return (
                <li key={e.id} className="activity-list__item">
                  <div className="activity-list__text">
                    <span>{text}</span>
                    {note && <span className="text-subdued">{note}</span>}
                    <time className="text-subdued" dateTime={e.createdAt}>
                      {new Date(e.createdAt).toLocaleString()}
                      {e.availableAt && new Date(e.availableAt) > new Date() ? ` · ${t('activity.pendingUntil', { date: new Date(e.availableAt).toLocaleDateString() })}` : ''}
                    </time>
                  </div>
                  <span className={e.points >= 0 ? 'activity-list__points activity-list__points--plus' : 'activity-list__points activity-list__points--minus'}>
                    {e.points >= 0 ? `+${e.points.toLocaleString()}` : `−${Math.abs(e.points).toLocaleString()}`}
                  </span>
                </li>
              );
            })}
          </ul>
        )}
        {hasMore && (
          <div className="card__section">
            <Button loading={loadingMore} onClick={() => void loadMore()}>
              {t('activity.more')}
            </Button>
          </div>
        )}
      </div>
    </Card>
  );
}

/**
 * `/customers/profile/:id` (spec 002 §2 Customer detail): overview of the balances, personal info,
 * membership with its history, the activity, and the merchant's actions (adjust points, exclude or
 * let join again).
 */
export function CustomerProfilePage() {
  const t = useT();
  const { id = '' } = useParams();
  const shop = useAtomValue(shopAtom);
  const customer = useResource(`customer:${id}`, () => api.customer(id));
  const [adjusting, setAdjusting] = useState(false);
  const [membership, setMembership] = useState(false);
  const [version, setVersion] = useState(0);
  if (customer.error !== undefined) {
    return <LoadFailed title={t('customers.profile')} error={customer.error} backTo="/customers" onRetry={customer.reload} />;
  }
  const c = customer.data;
  const changed = (next: CustomerProfile) => {
    customer.setData(next);
    setVersion((v) => v + 1);
  };
  const currency = shop?.shop.currency ?? 'USD';
  return (
    <Page
      title={c ? customerName(c, t('customers.noName')) : t('customers.profile')}
      backTo="/customers"
      backLabel={t('customers.back')}
      titleMeta={c ? <Badge tone={typeTones[c.type] ?? 'neutral'}>{typeLabels[c.type] ? t(typeLabels[c.type]!) : c.type}</Badge> : null}
      primaryAction={
        c ? (
          <Button variant="primary" onClick={() => setAdjusting(true)}>
            {t('customers.adjust.title')}
          </Button>
        ) : null
      }
      secondaryActions={c && c.type !== 'guest' ? <Button onClick={() => setMembership(true)}>{t(c.type === 'left' ? 'customers.membership.rejoin' : 'customers.membership.exclude')}</Button> : null}
    >
      {!c ? (
        <Card>
          <SkeletonText lines={6} />
        </Card>
      ) : (
        <div className="profile-grid">
          <Card title={t('customers.overview')}>
            <dl className="stat-grid">
              {(
                [
                  ['customers.available', c.points],
                  ['customers.pending', c.pendingPoints],
                  ['customers.lifetime', c.lifetimePoints],
                  ['customers.spent', c.spentPoints],
                ] as const
              ).map(([label, value]) => (
                <div key={label} className="stat-grid__item">
                  <dt>{t(label)}</dt>
                  <dd>{value.toLocaleString()}</dd>
                </div>
              ))}
            </dl>
          </Card>
          <Card title={t('customers.personal')}>
            <dl className="details-list">
              <dt>{t('customers.col.email')}</dt>
              <dd>{c.email || '—'}</dd>
              <dt>{t('customers.col.phone')}</dt>
              <dd>{c.phone ?? '—'}</dd>
              <dt>{t('customers.col.birthday')}</dt>
              <dd>{c.birthday ?? '—'}</dd>
              <dt>{t('customers.since')}</dt>
              <dd>{new Date(c.createdAt).toLocaleDateString()}</dd>
            </dl>
          </Card>
          <Card title={t('customers.membershipTitle')}>
            {c.events.length === 0 ? (
              <p className="text-subdued">{t('customers.noEvents')}</p>
            ) : (
              <ul className="event-list">
                {c.events.map((e) => (
                  <li key={e.id}>
                    {eventLabels[e.kind] ? t(eventLabels[e.kind]!) : e.kind}
                    {e.detail?.note ? ` — ${e.detail.note}` : ''}{' '}
                    <span className="text-subdued">
                      {new Date(e.createdAt).toLocaleString()} · {e.actor}
                    </span>
                  </li>
                ))}
              </ul>
            )}
          </Card>
          <div className="profile-grid__wide">
            <Activity customerId={c.id} currency={currency} version={version} />
          </div>
          <AdjustPointsModal customer={c} open={adjusting} onClose={() => setAdjusting(false)} onDone={changed} />
          <MembershipModal customer={c} open={membership} onClose={() => setMembership(false)} onDone={changed} />
        </div>
      )}
    </Page>
  );
}
