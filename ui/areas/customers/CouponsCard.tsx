import { useEffect, useState } from 'react';
import { ApiError } from '../../api/client';
import { couponApi, type AdminCoupon } from '../../api/endpoints';
import { useResource } from '../../api/use-resource';
import { Badge, type BadgeTone } from '../../components/Badge';
import { Banner } from '../../components/Banner';
import { Button } from '../../components/Button';
import { Card } from '../../components/Card';
import { Modal } from '../../components/Modal';
import { SkeletonText } from '../../components/Skeleton';
import { useT, type MessageKey } from '../../i18n';
import { useToast } from '../../state/toasts';

export interface CouponsCardProps {
  /** The customer (platform id, exact string). */
  customerId: string;
  /** Reloads the card when it changes (after points moved elsewhere on the profile). */
  version?: number;
  /** Called after a revoke with the customer's available balance (whole points). */
  onRevoked?: (points: number) => void;
}

const statusLabels: Record<AdminCoupon['status'], MessageKey> = {
  available: 'rewards.coupons.status.available',
  redeemed: 'rewards.coupons.status.redeemed',
  revoked: 'rewards.coupons.status.revoked',
};
const statusTones: Record<AdminCoupon['status'], BadgeTone> = { available: 'success', redeemed: 'info', revoked: 'neutral' };
const NOTE_MAX = 500;

/**
 * A customer's coupon history on the profile (spec 002 §3 Coupon history "discount code, redeemed
 * points, expiry, used, revoke reason"; §4 revoke and refund, not undoable; §5 "Revoke coupon
 * requires an admin note"): each coupon with its status, and revoke with a confirmation and a note.
 */
export function CouponsCard({ customerId, version = 0, onRevoked }: CouponsCardProps) {
  const t = useT();
  const toast = useToast();
  const coupons = useResource(`coupons:${customerId}:${version}`, () => couponApi.list(customerId));
  const [target, setTarget] = useState<AdminCoupon | null>(null);
  const [note, setNote] = useState('');
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  useEffect(() => {
    setNote('');
    setError(null);
  }, [target]);

  const revoke = async () => {
    if (!target) return;
    if (note.trim().length === 0) {
      setError(t('rewards.coupons.noteRequired'));
      return;
    }
    setBusy(true);
    setError(null);
    try {
      const result = await couponApi.revoke(target.id, note.trim());
      toast(t('rewards.coupons.revoked'));
      setTarget(null);
      coupons.reload();
      onRevoked?.(result.points);
    } catch (e) {
      setError(e instanceof ApiError ? (e.details[0]?.message ?? e.message) : t('rewards.coupons.revokeFailed'));
    } finally {
      setBusy(false);
    }
  };

  const list = coupons.data;
  return (
    <Card title={t('rewards.coupons.title')} flush>
      {coupons.error !== undefined ? (
        <div className="card__section">
          <Banner tone="critical" title={t('rewards.coupons.loadFailed')} action={{ label: t('common.reload'), onAction: coupons.reload }} />
        </div>
      ) : list === undefined ? (
        <div className="card__section">
          <SkeletonText lines={3} />
        </div>
      ) : list.length === 0 ? (
        <p className="card__section text-subdued">{t('rewards.coupons.empty')}</p>
      ) : (
        <ul className="activity-list" aria-label={t('rewards.coupons.title')}>
          {list.map((c) => (
            <li key={c.id} className="activity-list__item">
              <div className="activity-list__text">
                <span>
                  <code className="coupon-code">{c.code}</code> · {c.title} <Badge tone={statusTones[c.status]}>{t(statusLabels[c.status])}</Badge>
                </span>
                <span className="text-subdued">
                  {t('rewards.coupons.points', { points: c.pointsSpent.toLocaleString() })} · {t('rewards.coupons.redeemedOn', { date: new Date(c.createdAt).toLocaleString() })} ·{' '}
                  {c.expiresAt ? t('rewards.coupons.expires', { date: new Date(c.expiresAt).toLocaleDateString() }) : t('rewards.coupons.noExpiry')}
                </span>
                {c.status === 'revoked' && c.revokedAt && (
                  <span className="text-subdued">{t('rewards.coupons.revokedNote', { date: new Date(c.revokedAt).toLocaleString(), actor: c.revokedBy ?? '—', note: c.note ?? '—' })}</span>
                )}
              </div>
              {c.revocable && (
                <Button variant="plain" onClick={() => setTarget(c)}>
                  {t('rewards.coupons.revoke')}
                </Button>
              )}
            </li>
          ))}
        </ul>
      )}
      <Modal
        open={target !== null}
        title={t('rewards.coupons.revokeTitle', { code: target?.code ?? '' })}
        onClose={() => setTarget(null)}
        primaryAction={{ label: t('rewards.coupons.revoke'), onAction: () => void revoke(), loading: busy, destructive: true }}
      >
        <div className="stack">
          {error && <Banner tone="critical" title={error} />}
          <p>{t('rewards.coupons.revokeBody', { points: (target?.pointsSpent ?? 0).toLocaleString() })}</p>
          <div className="form-field">
            <label className="form-field__label" htmlFor={`coupon-note-${customerId}`}>
              {t('rewards.coupons.note')}
            </label>
            <div className="input">
              <textarea id={`coupon-note-${customerId}`} className="input__field input__field--multiline" rows={2} maxLength={NOTE_MAX} required value={note} onChange={(e) => setNote(e.target.value)} />
            </div>
          </div>
        </div>
      </Modal>
    </Card>
  );
}
