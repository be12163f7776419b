import { useEffect, useState, type FormEvent } from 'react';
import { Link } from 'react-router-dom';
import { ApiError } from '../../../api/client';
import { downloadCsv } from '../../../api/endpoints';
import { Button } from '../../../components/Button';
import { Modal } from '../../../components/Modal';
import { useT } from '../../../i18n';
import { useToast } from '../../../state/toasts';
import { tabLabels } from '../format';
import { exportApi, type CustomerExport, type EmailDelivery, type ExportScope } from './api';


/** The server's recipient rule, for instant feedback (server/services/customer-export/job.ts checkRecipient is the authority). */
export function plausibleEmail(value: string): boolean {
  const text = value.trim();
  const at = text.indexOf('@');
  const domain = text.slice(at + 1);
  return text.length <= 254 && at > 0 && at <= 64 && at === text.lastIndexOf('@') && domain.includes('.') && !domain.startsWith('.') && !domain.endsWith('.') && !/[\s<>,;"]/.test(text);
}

/** The streamed download of the same scope (the secondary option). */
function downloadPath(scope: ExportScope): string {
  const params = new URLSearchParams([...(scope.tab === 'all' ? [] : [['tab', scope.tab]]), ...(scope.search ? [['search', scope.search]] : []), ...(scope.ids ?? []).map((id) => ['id', id])]);
  const query = params.toString();
  return `/api/customers/export.csv${query ? `?${query}` : ''}`;
}

/**
 * Customers "Export" (spec 002 §2 "Exports are emailed as CSV"): asks for the recipient (the shop's
 * e-mail, editable, checked as typed and by the server), queues the export of `scope` and closes
 * with "The export will be e-mailed to {email}"; `onStarted` hears the queued job. "Download now"
 * keeps the immediate CSV download. Failures show the spec's "Failed to export customers".
 */
export function ExportDialog({ open, scope, onClose, onStarted }: { open: boolean; scope: ExportScope; onClose: () => void; onStarted: (job: CustomerExport, delivery: EmailDelivery) => void }) {
  const t = useT();
  const toast = useToast();
  const [recipient, setRecipient] = useState('');
  const [delivery, setDelivery] = useState<EmailDelivery | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [failure, setFailure] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const [downloading, setDownloading] = useState(false);

  useEffect(() => {
    if (!open) return;
    setError(null);
    setFailure(null);
    let live = true;
    exportApi
      .list()
      .then((list) => {
        if (!live) return;
        setDelivery(list.delivery);
        setRecipient((current) => current || list.defaultRecipient);
      })
      .catch(() => undefined);
    return () => {
      live = false;
    };
  }, [open]);

  const submit = async (event?: FormEvent) => {
    event?.preventDefault();
    const email = recipient.trim();
    if (!plausibleEmail(email)) {
      setError(t('export.recipientInvalid'));
      return;
    }
    setBusy(true);
    setError(null);
    setFailure(null);
    try {
      const started = await exportApi.start(email, scope);
      toast(t('export.started', { email: started.data.recipient }));
      onStarted(started.data, started.delivery);
      onClose();
    } catch (e) {
      const field = e instanceof ApiError ? e.details.find((d) => d.path === '/recipient') : undefined;
      if (field) setError(field.message);
      else setFailure(e instanceof ApiError && e.message !== t('import.export.failed') ? `${t('import.export.failed')}. ${e.message}` : t('import.export.failed'));
    } finally {
      setBusy(false);
    }
  };

  const downloadNow = async () => {
    setDownloading(true);
    try {
      await downloadCsv(downloadPath(scope), `customers-${scope.tab}${scope.ids ? '-selected' : ''}.csv`);
    } catch {
      setFailure(t('import.export.failed'));
    } finally {
      setDownloading(false);
    }
  };

  const scopeText = scope.ids ? t('export.scope.selected', { count: scope.ids.length }) : scope.search ? t('export.scope.search', { tab: t(tabLabels[scope.tab]), search: scope.search }) : t('export.scope.tab', { tab: t(tabLabels[scope.tab]) });
  return (
    <Modal open={open} title={t('export.title')} onClose={onClose} primaryAction={{ label: t('export.submit'), onAction: () => void submit(), loading: busy }}>
      <form className="stack" noValidate onSubmit={(e) => void submit(e)}>
        <p>{scopeText}</p>
        <div className="form-field">
          <label className="form-field__label" htmlFor="export-recipient">
            {t('export.recipient')}
          </label>
          <div className={error ? 'input input--invalid' : 'input'}>
            <input
              id="export-recipient"
              className="input__field"
              type="email"
              autoComplete="email"
              maxLength={254}
              value={recipient}
              onChange={(e) => setRecipient(e.target.value)}
              {...(error ? { 'aria-invalid': true, 'aria-describedby': 'export-recipient-error' } : { 'aria-describedby': 'export-recipient-help' })}
            />
          </div>
          {error ? (
            <p className="form-field__error" id="export-recipient-error">
              {error}
            </p>
          ) : (
            <p className="form-field__help" id="export-recipient-help">
              {t('export.recipientHelp')}
            </p>
          )}
        </div>
        <p className="text-subdued">{t('export.limits')}</p>
        {delivery === 'outbox' && <p className="text-subdued">{t('export.outboxNote')}</p>}
        {failure && (
          <p className="form-field__error" role="alert">
            {failure}
          </p>
        )}
        <div style={{ display: 'flex', flexWrap: 'wrap', gap: '0.5rem 1rem', alignItems: 'center' }}>
          <Button variant="plain" loading={downloading} onClick={() => void downloadNow()}>
            {t('export.downloadNow')}
          </Button>
          <Link to="/customers/exports">{t('export.historyLink')}</Link>
        </div>
        <button type="submit" hidden />
      </form>
    </Modal>
  );
}
