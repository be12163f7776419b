import { useEffect, useState } from 'react';
import { useNavigate, useSearchParams } from 'react-router-dom';
import { ApiError } from '../api/client';
import { api } from '../api/endpoints';
import { setSessionToken } from '../api/session';
import { useResource } from '../api/use-resource';
import { Banner } from '../components/Banner';
import { Button } from '../components/Button';
import { SkeletonText } from '../components/Skeleton';
import { useT } from '../i18n';
import { useApplyLanguage } from '../state/language';
import { billingApi } from '../areas/billing/api';
import { Icon } from '../components/Icon';

/** Where to go after sign-in: the path the visitor asked for (`?next=`, same origin only), else the programs. */
function nextPath(value: string | null): string {
  return value && value.startsWith('/') && !value.startsWith('//') && !value.startsWith('/auth/') ? value : '/programs';
}

/**
 * `/auth/login`: first the standalone session cookie (spec 000 §9, 7200 s) is traded for a token,
 * so a link opened in a new tab stays signed in; otherwise the demo sign-in when the server allows
 * it, or a pointer to the shop admin.
 */
export function LoginPage() {
  const t = useT();
  // Outside the frame: the merchant's last language on this browser, until a shop is known.
  useApplyLanguage();
  const config = useResource('auth-config', () => api.authConfig());
  const navigate = useNavigate();
  const [busy, setBusy] = useState(false);
  const [failed, setFailed] = useState<string | null>(null);
  const [params] = useSearchParams();
  const next = nextPath(params.get('next'));
  const [restoring, setRestoring] = useState(true);
  useEffect(() => {
    let current = true;
    billingApi.restoreSession().then(
      ({ token }) => {
        if (!current) return;
        setSessionToken(token);
        navigate(next, { replace: true });
      },
      () => current && setRestoring(false),
    );
    return () => {
      current = false;
    };
  }, [navigate, next]);

  async function signIn() {
    setBusy(true);
    setFailed(null);
    try {
      const { token } = await api.demoLogin();
      setSessionToken(token);
      navigate(next, { replace: true });
    } catch (error) {
      setFailed(error instanceof ApiError ? error.message : t('login.failed'));
      setBusy(false);
    }
  }

  return (
    <main className="login">
      <div className="card login__card">
        <div className="login__brand">
          <span className="topbar__logo" aria-hidden="true">
            <Icon name="star" />
          </span>
          <span>{t('app.name')}</span>
        </div>
        {failed && <Banner tone="critical" title={failed} />}
        {config.loading || restoring ? (
          <SkeletonText lines={2} />
        ) : config.data?.demo ? (
          <>
            <h1 className="login__title">{t('login.demo', { shop: config.data.shopDomain ?? '' })}</h1>
            <Button variant="primary" loading={busy} onClick={signIn}>
              {t('login.demoButton')}
            </Button>
          </>
        ) : (
          <>
            <h1 className="login__title">{t('login.title')}</h1>
            {config.error !== undefined && <Banner tone="critical" title={t('login.failed')} />}
            <p>{t('login.embeddedOnly')}</p>
          </>
        )}
      </div>
    </main>
  );
}
