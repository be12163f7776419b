import { useState } from 'react';
import { useNavigate } from 'react-router-dom';
import { ApiError } from '../../api/client';
import { useT } from '../../i18n';
import { useToast } from '../../state/toasts';
import { billingApi, type BillingInterval, type OfferId } from './api';

/** How long the "Free Plan activated" toast shows before the reload (spec 000 §9: 1 second). */
export const FREE_PLAN_RELOAD_MS = 1000;

/**
 * Subscribing as spec 000 §4 and §8 say: a confirmation URL → "Redirecting to Shopify" and the
 * redirect (the local adapter's URL is one of the app's own pages, so it stays in the router, and
 * under /embed too); no redirect → "Free Plan activated", then after 1 s the home page with
 * success=true; a failure → the server's error text as an error toast.
 */
export function useSubscribe(): {
  busy: string | null;
  subscribeTo: (planId: string, interval: BillingInterval, discountCode?: string | null) => Promise<void>;
  claim: (offerId: OfferId, body?: { interval?: BillingInterval; planId?: string }) => Promise<void>;
} {
  const t = useT();
  const toast = useToast();
  const navigate = useNavigate();
  const [busy, setBusy] = useState<string | null>(null);
  const subscribeTo = async (planId: string, interval: BillingInterval, discountCode?: string | null) => {
    setBusy(planId);
    try {
      const result = await billingApi.subscribe(planId, { interval, discountCode });
      if (result.isRedirect && result.confirmationUrl) {
        toast(t('billing.redirecting'));
        if (result.confirmationUrl.startsWith('/')) navigate(result.confirmationUrl);
        // The platform's confirmation page must load at the top, outside the admin's iframe.
        else window.open(result.confirmationUrl, '_top');
        return;
      }
      toast(t('billing.freeActivated'));
      window.setTimeout(() => navigate('/home?success=true'), FREE_PLAN_RELOAD_MS);
    } catch (error) {
      toast(error instanceof ApiError ? error.message : t('billing.subscribeFailed'), 'error');
    } finally {
      setBusy(null);
    }
  };
  /** Claims an offer (spec 000 §4): "Claim offer successfully", then the confirmation page as for subscribing. */
  const claim = async (offerId: OfferId, body: { interval?: BillingInterval; planId?: string } = {}) => {
    setBusy(offerId);
    try {
      const result = await billingApi.claim(offerId, body);
      toast(t('billing.offer.claimed'));
      if (result.confirmationUrl?.startsWith('/')) navigate(result.confirmationUrl);
      else if (result.confirmationUrl) window.open(result.confirmationUrl, '_top');
    } catch (error) {
      toast(error instanceof ApiError ? error.message : t('billing.subscribeFailed'), 'error');
    } finally {
      setBusy(null);
    }
  };
  return { busy, subscribeTo, claim };
}
