import { useCallback, useEffect, useState } from 'react';
import { Link } from 'react-router-dom';
import { ApiError } from '../../../api/client';
import { Banner } from '../../../components/Banner';
import { useT } from '../../../i18n';
import { exportApi, type CustomerExport } from './api';

/** How often a waiting export is asked about, in milliseconds. */
export const EXPORT_POLL_MS = 2000;
const DISMISSED_KEY = 'customers.exports.dismissed';

const readDismissed = (): string[] => {
  try {
    const saved = JSON.parse(localStorage.getItem(DISMISSED_KEY) ?? '[]') as unknown;
    return Array.isArray(saved) ? saved.filter((v): v is string => typeof v === 'string') : [];
  } catch {
    return [];
  }
};

/**
 * The customers list's view of its latest e-mailed export (spec 002 §2 "Exports are emailed as
 * CSV", §8 "Failed to export customers"): while it is queued or being prepared, "The export will be
 * e-mailed to {email}" (asked again every 2 s); once sent, a confirmation when it was started here
 * (`startedId`); when it failed, the spec's message with the reason and Retry, until dismissed
 * (remembered in this browser). Each links to the export history.
 */
export function ExportStatusBanner({ startedId }: { startedId: string | null }) {
  const t = useT();
  const [latest, setLatest] = useState<CustomerExport | null>(null);
  const [dismissed, setDismissed] = useState<string[]>(readDismissed);
  const [retrying, setRetrying] = useState(false);
  const [retryError, setRetryError] = useState<string | null>(null);

  const load = useCallback(async () => {
    try {
      setLatest((await exportApi.list()).data[0] ?? null);
    } catch {
      // the list's own banner reports a server that does not answer
    }
  }, []);
  useEffect(() => void load(), [load, startedId]);
  const waiting = latest?.status === 'queued' || latest?.status === 'running';
  useEffect(() => {
    if (!waiting) return;
    const timer = setInterval(() => void load(), EXPORT_POLL_MS);
    return () => clearInterval(timer);
  }, [waiting, load]);

  if (!latest || dismissed.includes(latest.id)) return null;
  const dismiss = () => {
    const next = [...dismissed, latest.id].slice(-20);
    setDismissed(next);
    localStorage.setItem(DISMISSED_KEY, JSON.stringify(next));
  };
  const history = <Link to="/customers/exports">{t('export.historyLink')}</Link>;
  if (waiting) {
    return (
      <Banner tone="info" title={t('export.started', { email: latest.recipient })}>
        <p>
          {t('export.preparing')} {history}
        </p>
      </Banner>
    );
  }
  if (latest.status === 'failed') {
    const retry = async () => {
      setRetrying(true);
      setRetryError(null);
      try {
        setLatest(await exportApi.retry(latest.id));
      } catch (e) {
        setRetryError(e instanceof ApiError ? e.message : t('import.export.failed'));
      } finally {
        setRetrying(false);
      }
    };
    return (
      <Banner tone="critical" title={t('import.export.failed')} action={{ label: retrying ? t('export.retrying') : t('export.retry'), onAction: () => void retry() }} onDismiss={dismiss}>
        <p>{t('export.failedReason', { email: latest.recipient, reason: latest.error ?? '—' })}</p>
        {retryError && <p>{retryError}</p>}
        <p>{history}</p>
      </Banner>
    );
  }
  if (latest.status === 'sent' && latest.id === startedId) {
    return (
      <Banner tone="success" title={t('export.sent', { email: latest.recipient })} onDismiss={dismiss}>
        <p>{history}</p>
      </Banner>
    );
  }
  return null;
}
