import { useState } from 'react';
import { Link } from 'react-router-dom';
import { ApiError } from '../../api/client';
import { referralApi, type ReferralReward, type ReferralRow } from '../../api/endpoints';
import { useResource } from '../../api/use-resource';
import { Badge, type BadgeTone } from '../../components/Badge';
import { Banner } from '../../components/Banner';
import { Button } from '../../components/Button';
import { Card } from '../../components/Card';
import { SkeletonText } from '../../components/Skeleton';
import { useT, type MessageKey } from '../../i18n';
import { useToast } from '../../state/toasts';

const statusLabels: Record<ReferralRow['status'], MessageKey> = {
  pending: 'referrals.status.pending',
  completed: 'referrals.status.completed',
  canceled: 'referrals.status.canceled',
};
const statusTones: Record<ReferralRow['status'], BadgeTone> = { pending: 'attention', completed: 'success', canceled: 'critical' };
const reasonLabels: Record<string, MessageKey> = {
  self_referral: 'referrals.reason.self_referral',
  same_email: 'referrals.reason.same_email',
  same_device: 'referrals.reason.same_device',
  same_shipping_address: 'referrals.reason.same_shipping_address',
  same_ip: 'referrals.reason.same_ip',
  same_email_domain: 'referrals.reason.same_email_domain',
  existing_customer: 'referrals.reason.existing_customer',
  advocate_not_eligible: 'referrals.reason.advocate_not_eligible',
  referral_limit: 'referrals.reason.referral_limit',
  order_cancelled: 'referrals.reason.order_cancelled',
};

/**
 * A customer's referrals on the profile (spec 002 §2 Customer detail "referrals", §3 Activity
 * referral: status, referral date, referred e-mail; Customer.referral link): their link (or a
 * button to create it, with "You have reached the referral limit" / "Failed to create referral
 * link"), the friends they referred with each status and reward, and who referred them.
 */
export function ReferralsCard({ customerId }: { customerId: string }) {
  const t = useT();
  const toast = useToast();
  const data = useResource(`referrals:${customerId}`, () => referralApi.ofCustomer(customerId));
  const [busy, setBusy] = useState(false);

  const createLink = async () => {
    setBusy(true);
    try {
      await referralApi.createLink(customerId);
      data.reload();
    } catch (e) {
      toast(e instanceof ApiError && e.code === 'referral_limit' ? e.message : t('referrals.linkFailed'), 'error');
    } finally {
      setBusy(false);
    }
  };
  const reward = (r: ReferralReward): string =>
    !r.issued ? t('referrals.reward.none') : r.type === 'points' ? t('referrals.reward.points', { points: r.value.toLocaleString() }) : t('referrals.reward.coupon', { code: r.code ?? '' });

  const value = data.data;
  return (
    <Card title={t('referrals.card.title')} flush>
      {data.error !== undefined ? (
        <div className="card__section">
          <Banner tone="critical" title={t('referrals.card.loadFailed')} action={{ label: t('common.reload'), onAction: data.reload }} />
        </div>
      ) : value === undefined ? (
        <div className="card__section">
          <SkeletonText lines={3} />
        </div>
      ) : (
        <>
          <div className="card__section referral-card__link">
            {value.link ? (
              <span>
                {t('referrals.card.link')} <a href={value.link.url}>{value.link.url}</a>
              </span>
            ) : (
              <>
                <span className="text-subdued">{t('referrals.card.noLink')}</span>
                <Button loading={busy} onClick={() => void createLink()}>
                  {t('referrals.card.createLink')}
                </Button>
              </>
            )}
            {value.referredBy && (
              <span className="text-subdued">
                {t('referrals.card.referredBy')} <Link to={`/customers/profile/${value.referredBy.advocateId}`}>{value.referredBy.advocateId}</Link>
              </span>
            )}
          </div>
          {value.referrals.length === 0 ? (
            <p className="card__section text-subdued">{t('referrals.card.empty')}</p>
          ) : (
            <ul className="activity-list" aria-label={t('referrals.card.title')}>
              {value.referrals.map((r) => (
                <li key={r.id} className="activity-list__item">
                  <div className="activity-list__text">
                    <span>
                      <Link to={`/customers/profile/${r.friendCustomerId}`}>{r.friendEmail || r.friendCustomerId}</Link> <Badge tone={statusTones[r.status]}>{t(statusLabels[r.status])}</Badge>
                    </span>
                    <span className="text-subdued">
                      {new Date(r.createdAt).toLocaleString()} ·{' '}
                      {r.status === 'canceled' && r.reason ? t(reasonLabels[r.reason] ?? 'referrals.reason.other') : t('referrals.card.rewards', { advocate: reward(r.advocateReward), friend: reward(r.friendReward) })}
                    </span>
                  </div>
                </li>
              ))}
            </ul>
          )}
        </>
      )}
    </Card>
  );
}
