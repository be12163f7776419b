import { useAtomValue } from 'jotai';
import { useEffect, useState } from 'react';
import { useParams } from 'react-router-dom';
import { api, type ActivityEntry, type ActivityTab, type CustomerProfile } from '../../api/endpoints';
import { useResource } from '../../api/use-resource';
import { Badge } from '../../components/Badge';
import { Banner } from '../../components/Banner';
import { Button } from '../../components/Button';
import { Card } from '../../components/Card';
import { Page } from '../../components/Page';
import { SkeletonText } from '../../components/Skeleton';
import { Tabs } from '../../components/Tabs';
import { useT, type MessageKey } from '../../i18n';
import { LoadFailed } from '../../pages/LoadFailed';
import { shopAtom } from '../../state/session';
import { customerName, describeEntry, rfmLabels, typeLabels, typeTones } from './format';
import { AdjustPointsModal, BirthdayModal, MembershipModal } from './modals';
import { TierCard } from './TierCard';
import { CouponsCard } from './CouponsCard';
import { ReferralsCard } from './ReferralsCard';
import { ProgramVersionLink } from '../versions/ProgramVersionLink';
import { GenerateWalletPassAction } from './wallet/GenerateWalletPass';

/** The activity tabs in the spec's order (spec 002 §2 Customer detail). */
const ACTIVITY_TABS: ActivityTab[] = ['all', 'points', 'tier', 'emails', 'orders', 'referral', 'earned', 'redeemed', 'refunded', 'expired', 'entry_reward', 'admin'];
const activityLabels: Record<ActivityTab, MessageKey> = {
  all: 'activity.tabs.all',
  points: 'activity.tabs.points',
  tier: 'activity.tabs.tier',
  emails: 'activity.tabs.emails',
  orders: 'activity.tabs.orders',
  referral: 'activity.tabs.referral',
  earned: 'activity.tabs.earned',
  redeemed: 'activity.tabs.redeemed',
  refunded: 'activity.tabs.refunded',
  expired: 'activity.tabs.expired',
  entry_reward: 'activity.tabs.entryReward',
  admin: 'activity.tabs.admin',
};
const eventLabels: Record<string, MessageKey> = {
  excluded: 'customers.event.excluded',
  rejoined: 'customers.event.rejoined',
  birthday_changed: 'customers.event.birthday',
  converted_to_guest: 'customers.event.convertedToGuest',
  segment_returned: 'customers.event.segmentReturned',
  segment_reverted: 'customers.event.segmentReverted',
};

/** A membership or tier event in words: its label, the note or the change it made. */
function describeEvent(kind: string, detail: unknown, t: ReturnType<typeof useT>): string {
  const d = (detail ?? {}) as { note?: string; from?: unknown; to?: unknown; fromName?: unknown; toName?: unknown; rfmGroup?: unknown };
  if (kind === 'segment_left') return t('customers.event.segmentLeft', { group: typeof d.rfmGroup === 'string' && rfmLabels[d.rfmGroup] ? t(rfmLabels[d.rfmGroup]!) : String(d.rfmGroup ?? '—') });
  const label = eventLabels[kind] ? t(eventLabels[kind]!) : kind.startsWith('tier') ? t('customers.event.tier') : kind;
  const text = (name: unknown, id: unknown) => (typeof name === 'string' && name ? name : typeof id === 'string' && id ? id : '—');
  const change = kind === 'birthday_changed' ? `: ${text(undefined, d.from)} → ${text(undefined, d.to)}` : kind.startsWith('tier') ? `: ${text(d.fromName, d.from)} → ${text(d.toName, d.to)}` : '';
  return `${label}${change}${d.note ? ` — ${d.note}` : ''}`;
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
              const { text, note } = e.entry === 'event' ? { text: describeEvent(e.type, e.explanation, t), note: e.actor ? t('activity.by', { actor: e.actor }) : undefined } : describeEntry(e, t, currency);
              return (
                <li key={e.id} className="activity-list__item">
                  <div className="activity-list__text">
                    <span>{text}</span>
                    {note && <span className="text-subdued">{note}</span>}
                    <ProgramVersionLink entry={e} />
                    <time className="text-subdued" dateTime={e.createdAt}>
                      {new Date(e.createdAt).toLocaleString()}
                      {e.availableAt && new Date(e.availableAt) > new Date() ? ` · ${t('activity.pendingUntil', { date: new Date(e.availableAt).toLocaleDateString() })}` : ''}
                    </time>
                  </div>
                  {e.entry === 'ledger' && (
                    <span className={e.points >= 0 ? 'activity-list__points activity-list__points--plus' : 'activity-list__points activity-list__points--minus'}>
                      {e.points >= 0 ? `+${e.points.toLocaleString()}` : `−${Math.abs(e.points).toLocaleString()}`}
                    </span>
                  )}
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
  const [editingBirthday, setEditingBirthday] = useState(false);
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
      secondaryActions={
        c ? (
          <>
            <GenerateWalletPassAction customerId={c.id} />
            {c.type !== 'guest' && <Button onClick={() => setMembership(true)}>{t(c.type !== 'left' ? 'customers.membership.exclude' : c.leftReason === 'segment' ? 'customers.membership.revert' : 'customers.membership.rejoin')}</Button>}
          </>
        ) : null
      }
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
              <dd className="details-list__editable">
                <span>{c.birthday ?? '—'}</span>
                <Button variant="plain" onClick={() => setEditingBirthday(true)}>
                  {t('customers.birthday.edit')}
                </Button>
              </dd>
              <dt>{t('customers.since')}</dt>
              <dd>{new Date(c.createdAt).toLocaleDateString()}</dd>
              <dt>{t('customers.segment')}</dt>
              <dd>
                {c.rfmGroup && rfmLabels[c.rfmGroup] ? t(rfmLabels[c.rfmGroup]!) : t('customers.segment.none')}
                {c.type === 'left' && c.leftReason === 'segment' && <div className="text-subdued">{t('customers.leftBySegment')}</div>}
              </dd>
            </dl>
          </Card>
          <TierCard
            customerId={c.id}
            tierId={c.tierId}
            onChange={() => {
              customer.reload();
              setVersion((v) => v + 1);
            }}
          />
          <Card title={t('customers.membershipTitle')}>
            {c.events.length === 0 ? (
              <p className="text-subdued">{t('customers.noEvents')}</p>
            ) : (
              <ul className="event-list">
                {c.events.map((e) => (
                  <li key={e.id}>
                    {describeEvent(e.kind, e.detail, t)}{' '}
                    <span className="text-subdued">
                      {new Date(e.createdAt).toLocaleString()} · {e.actor}
                    </span>
                  </li>
                ))}
              </ul>
            )}
          </Card>
          <div className="profile-grid__wide">
            <CouponsCard
              customerId={c.id}
              version={version}
              onRevoked={() => {
                customer.reload();
                setVersion((v) => v + 1);
              }}
            />
          </div>
          <div className="profile-grid__wide">
            <ReferralsCard customerId={c.id} />
          </div>
          <div className="profile-grid__wide">
            <Activity customerId={c.id} currency={currency} version={version} />
          </div>
          <AdjustPointsModal target={{ kind: 'one', customer: c }} open={adjusting} onClose={() => setAdjusting(false)} onDone={(next) => next && changed(next)} />
          <MembershipModal target={{ kind: 'one', customer: c }} action={c.type !== 'left' ? 'exclude' : c.leftReason === 'segment' ? 'revert' : 'rejoin'} open={membership} onClose={() => setMembership(false)} onDone={(next) => next && changed(next)} />
          <BirthdayModal customer={c} open={editingBirthday} onClose={() => setEditingBirthday(false)} onDone={changed} />
        </div>
      )}
    </Page>
  );
}
