import { useState } from 'react';
import { useNavigate } from 'react-router-dom';
import { ApiError } from '../../api/client';
import { clearSessionToken, hasAppBridge } from '../../api/session';
import { useT } from '../../i18n';
import { useToast } from '../../state/toasts';
import { billingApi } from './api';

/**
 * Sign-out (spec 000 §7: "Sign-out … then to /auth/login"; §8: a failure shows its message as an
 * error toast): ends the standalone session cookie and drops the tab's token. Embedded, the shop
 * admin owns the session, so there is nothing to sign out of here.
 */
export function SignOutButton() {
  const t = useT();
  const toast = useToast();
  const navigate = useNavigate();
  const [busy, setBusy] = useState(false);
  if (hasAppBridge()) return null;
  const signOut = async () => {
    setBusy(true);
    try {
      await billingApi.logout();
      clearSessionToken();
      navigate('/auth/login', { replace: true });
    } catch (error) {
      toast(error instanceof ApiError ? error.message : t('billing.signOutFailed'), 'error');
      setBusy(false);
    }
  };
  return (
    <button type="button" className="topbar__signout" onClick={() => void signOut()} disabled={busy}>
      {t('billing.signOut')}
    </button>
  );
}
