import { useState, type FormEvent } from 'react';
import { ApiError } from '../../api/client';
import { useResource, type Resource } from '../../api/use-resource';
import { Banner } from '../../components/Banner';
import { Button, ButtonLink } from '../../components/Button';
import { Card } from '../../components/Card';
import { SkeletonText } from '../../components/Skeleton';
import { currentLanguage, useT } from '../../i18n';
import { useToast } from '../../state/toasts';
import { billingApi, formatMoney, type Offers } from './api';
import { useSubscribe } from './use-subscribe';

/** The shop's offers (`GET /api/subscription/offers`), loaded once per screen. */
export function useOffers(): Resource<Offers> {
  return useResource('billing:offers', () => billingApi.offers());
}

/**
 * The sale popup (spec 000 §2 "sale and holiday promo popups", §4): the offer's code on the next
 * plan up, "Claim offer" subscribes with it ("Claim offer successfully", then the confirmation
 * page); dismissing saves `promoShowAt` and hides it for the spec's 6-hour gap. Shown as a banner
 * on the dashboard rather than a blocking dialog; nothing shows while loading or when the offers
 * cannot be read (spec 000 §8: list failures are only logged).
 */
export function SaleBanner() {
  const t = useT();
  const language = currentLanguage();
  const offers = useOffers();
  const { busy, claim } = useSubscribe();
  const [hidden, setHidden] = useState(false);
  const sale = offers.data?.sale;
  if (offers.error !== undefined) console.error('Loading the offers failed', offers.error);
  if (!sale?.show || hidden) return null;
  const dismiss = () => {
    setHidden(true);
    billingApi.dismissPromo('promoShowAt').catch((error: unknown) => console.error('Saving the dismissal failed', error));
  };
  return (
    <Banner
      tone="info"
      title={t('billing.offer.sale.title', { percent: sale.percent, plan: sale.planName, months: sale.months })}
      onDismiss={dismiss}
    >
      <p>{t('billing.offer.sale.body', { price: formatMoney(sale.discountedPrice, language), regular: formatMoney(sale.price, language), code: sale.code })}</p>
      <div className="banner__actions">
        <Button loading={busy === 'sale'} onClick={() => void claim('sale')}>
          {t('billing.offer.claim')}
        </Button>
      </div>
    </Banner>
  );
}

/** Books the onboarding call (spec 002 §6, Advanced and Ultimate), or names the plan that includes it. */
function OnboardingCall({ call, onBooked }: { call: Offers['onboardingCall']; onBooked: (next: Offers['onboardingCall']) => void }) {
  const t = useT();
  const toast = useToast();
  const [note, setNote] = useState('');
  const [saving, setSaving] = useState(false);
  const [error, setError] = useState<string | null>(null);
  if (!call.allowed) {
    return (
      <div className="billing-offer">
        <h3 className="billing-offer__title">{t('billing.offer.call.title')}</h3>
        {/* A call booked from the floating booking popup (any plan it shows on) is said here too. */}
        {call.requestedAt && <p>{t('billing.offer.call.requested', { date: new Date(call.requestedAt).toLocaleDateString(currentLanguage()) })}</p>}
        <p>{t('billing.offer.call.locked', { plan: call.unlockPlan ?? '' })}</p>
        <ButtonLink to="/settings/subscription/plans?plan=advanced_2025">{t('billing.offer.call.upgrade', { plan: call.unlockPlan ?? '' })}</ButtonLink>
      </div>
    );
  }
  const submit = async (event: FormEvent) => {
    event.preventDefault();
    setSaving(true);
    setError(null);
    try {
      onBooked(await billingApi.bookOnboardingCall(note));
      toast(t('billing.offer.call.booked'));
    } catch (cause) {
      setError(cause instanceof ApiError ? cause.message : t('common.genericError'));
    } finally {
      setSaving(false);
    }
  };
  return (
    <form className="billing-offer" onSubmit={(e) => void submit(e)}>
      <h3 className="billing-offer__title">{t('billing.offer.call.title')}</h3>
      <p>{call.requestedAt ? t('billing.offer.call.requested', { date: new Date(call.requestedAt).toLocaleDateString(currentLanguage()) }) : t('billing.offer.call.body')}</p>
      {error && <Banner tone="critical" title={error} />}
      <div className="form-field">
        <label className="form-field__label" htmlFor="billing-call-note">
          {t('billing.offer.call.note')}
        </label>
        <div className="input">
          <textarea id="billing-call-note" className="input__field" rows={2} maxLength={500} value={note} onChange={(e) => setNote(e.target.value)} />
        </div>
      </div>
      <div>
        <Button type="submit" loading={saving}>
          {t(call.requestedAt ? 'billing.offer.call.again' : 'billing.offer.call.book')}
        </Button>
      </div>
    </form>
  );
}

/**
 * The plans page's offers (PL10, PL11, PL14): the head start (a 1-year free trial, or a 20% coupon
 * for 3 months on the higher platform plans), Advanced's 14-day trial for milestones, the sale, and
 * the onboarding call. Claims go through the billing adapter like any subscription.
 */
export function OffersCard() {
  const t = useT();
  const language = currentLanguage();
  const offers = useOffers();
  const { busy, claim } = useSubscribe();
  const data = offers.data;
  return (
    <Card title={t('billing.offer.title')}>
      {offers.error !== undefined ? (
        <Banner tone="critical" title={t('billing.offer.failed')} action={{ label: t('common.reload'), onAction: offers.reload }} />
      ) : !data ? (
        <SkeletonText lines={3} />
      ) : (
        <div className="billing-offers">
          {!data.headStart && !data.milestoneTrial && !data.sale && <p className="text-subdued">{t('billing.offer.none')}</p>}
          {data.headStart && (
            <div className="billing-offer">
              <h3 className="billing-offer__title">{t('billing.offer.headStart.title')}</h3>
              <p>
                {data.headStart.variant === 'trial'
                  ? t('billing.offer.headStart.trial', { days: data.headStart.trialDays })
                  : t('billing.offer.headStart.coupon', { percent: data.headStart.percent, months: data.headStart.months, code: data.headStart.code })}
              </p>
              <div>
                <Button variant="primary" loading={busy === 'head_start'} disabled={busy !== null} onClick={() => void claim('head_start')}>
                  {t(data.headStart.variant === 'trial' ? 'billing.offer.headStart.start' : 'billing.offer.claim')}
                </Button>
              </div>
            </div>
          )}
          {data.milestoneTrial && (
            <div className="billing-offer">
              <h3 className="billing-offer__title">{t('billing.offer.milestone.title')}</h3>
              <p>{t('billing.offer.milestone.body', { plan: data.milestoneTrial.planName, days: data.milestoneTrial.trialDays })}</p>
              <div>
                <Button loading={busy === 'milestone_trial'} disabled={busy !== null} onClick={() => void claim('milestone_trial')}>
                  {t('billing.offer.milestone.start', { days: data.milestoneTrial.trialDays })}
                </Button>
              </div>
            </div>
          )}
          {data.sale && (
            <div className="billing-offer">
              <h3 className="billing-offer__title">{t('billing.offer.sale.title', { percent: data.sale.percent, plan: data.sale.planName, months: data.sale.months })}</h3>
              <p>{t('billing.offer.sale.body', { price: formatMoney(data.sale.discountedPrice, language), regular: formatMoney(data.sale.price, language), code: data.sale.code })}</p>
              <div>
                <Button loading={busy === 'sale'} disabled={busy !== null} onClick={() => void claim('sale')}>
                  {t('billing.offer.claim')}
                </Button>
              </div>
            </div>
          )}
          <OnboardingCall call={data.onboardingCall} onBooked={(next) => offers.setData((current) => (current ? { ...current, onboardingCall: next } : current))} />
        </div>
      )}
    </Card>
  );
}

/**
 * The milestone tab's offer (spec 002 §6 "milestone (14-day trial offered)"): while the shop's plan
 * lacks milestones and no trial was used, Advanced's 14-day trial, claimed through the billing
 * adapter. Nothing shows otherwise, while loading, or when the offers cannot be read.
 */
export function MilestoneTrialBanner() {
  const t = useT();
  const offers = useOffers();
  const { busy, claim } = useSubscribe();
  const trial = offers.data?.milestoneTrial;
  if (!trial) return null;
  return (
    <Banner tone="info" title={t('billing.offer.milestone.title')}>
      <p>{t('billing.offer.milestone.body', { plan: trial.planName, days: trial.trialDays })}</p>
      <div className="banner__actions">
        <Button variant="primary" loading={busy === 'milestone_trial'} onClick={() => void claim('milestone_trial')}>
          {t('billing.offer.milestone.start', { days: trial.trialDays })}
        </Button>
      </div>
    </Banner>
  );
}
