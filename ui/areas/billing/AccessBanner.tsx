import { useCallback, useEffect, useState } from 'react';
import { REINSTALL_REQUIRED_EVENT } from '../../api/client';
import { hasAppBridge } from '../../api/session';
import { Banner } from '../../components/Banner';
import { useT } from '../../i18n';
import { billingApi } from './api';

/**
 * Tells the merchant when the app has lost access to the shop (issue 12: a shop needing
 * reinstall is told so instead of failing silently). Embedded, a missing token is first fetched
 * by token exchange; when that fails too, or the token was revoked (uninstall), the banner offers
 * the install again. Any call answering `reinstall_required` re-checks.
 */
export function AccessBanner({ shopDomain }: { shopDomain: string | null }) {
  const t = useT();
  const [needsReinstall, setNeedsReinstall] = useState(false);
  const check = useCallback(async () => {
    try {
      let status = await billingApi.access();
      if (status.needsReinstall && status.state === 'missing' && hasAppBridge()) status = await billingApi.exchange().catch(() => status);
      setNeedsReinstall(status.needsReinstall);
    } catch {
      // The banner only adds a hint; a failed check must not disturb the screen.
    }
  }, []);
  useEffect(() => {
    void check();
    const onReinstall = () => void check();
    window.addEventListener(REINSTALL_REQUIRED_EVENT, onReinstall);
    return () => window.removeEventListener(REINSTALL_REQUIRED_EVENT, onReinstall);
  }, [check]);
  if (!needsReinstall) return null;
  const install = `/auth/install?shop=${encodeURIComponent(shopDomain ?? '')}`;
  return (
    <div className="access-banner">
      <Banner tone="critical" title={t('billing.reinstall.title')} action={{ label: t('billing.reinstall.action'), onAction: () => window.open(install, '_top') }}>
        <p>{t('billing.reinstall.body')}</p>
      </Banner>
    </div>
  );
}
