import { Banner } from '../components/Banner';
import { Page } from '../components/Page';
import { ApiError } from '../api/client';
import { useT } from '../i18n';

/** A screen whose data could not be loaded: the reason and a way to try again. */
export function LoadFailed({ title, error, backTo, onRetry }: { title: string; error: unknown; backTo?: string; onRetry: () => void }) {
  const t = useT();
  const message = error instanceof ApiError ? error.message : t('common.genericError');
  return (
    <Page title={title} backTo={backTo} narrow>
      <Banner tone="critical" title={message} action={{ label: t('common.reload'), onAction: onRetry }} />
    </Page>
  );
}
