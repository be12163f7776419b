import { useState } from 'react';
import { ApiError } from '../../../api/client';
import { downloadCsv } from '../../../api/endpoints';
import { useResource } from '../../../api/use-resource';
import { Badge, type BadgeTone } from '../../../components/Badge';
import { Banner } from '../../../components/Banner';
import { Button } from '../../../components/Button';
import { Card } from '../../../components/Card';
import { EmptyState } from '../../../components/EmptyState';
import { IndexTable, IndexTableRow } from '../../../components/IndexTable';
import { Page } from '../../../components/Page';
import { useT, type MessageKey } from '../../../i18n';
import { useToast } from '../../../state/toasts';
import { exportApi, outboxAttachmentPath, type CustomerExport, type ExportStatus, type OutboxMessage } from './api';

const statusLabels: Record<ExportStatus, MessageKey> = { queued: 'export.status.queued', running: 'export.status.running', sent: 'export.status.sent', failed: 'export.status.failed' };
const statusTones: Record<ExportStatus, BadgeTone> = { queued: 'neutral', running: 'info', sent: 'success', failed: 'critical' };

const kilobytes = (bytes: number) => `${Math.max(1, Math.round(bytes / 1024)).toLocaleString()} KB`;

/** The messages the local outbox kept (demo mode): who, what, when, the body and the attachments. */
function OutboxCard() {
  const t = useT();
  const toast = useToast();
  const outbox = useResource<OutboxMessage[]>('emails:outbox', () => exportApi.outbox());
  const download = async (message: OutboxMessage, index: number) => {
    try {
      await downloadCsv(outboxAttachmentPath(message.id, index), message.attachments[index]!.filename);
    } catch {
      toast(t('export.outbox.downloadFailed'), 'error');
    }
  };
  return (
    <Card title={t('export.outbox.title')}>
      <p className="text-subdued">{t('export.outbox.help')}</p>
      {outbox.error !== undefined ? (
        <Banner tone="critical" title={t('export.loadFailed')} action={{ label: t('common.reload'), onAction: outbox.reload }} />
      ) : outbox.data?.length === 0 ? (
        <EmptyState heading={t('export.outbox.empty')} />
      ) : (
        <ul className="stack" style={{ listStyle: 'none', padding: 0, margin: 0 }}>
          {(outbox.data ?? []).map((message) => (
            <li key={message.id}>
              <details>
                <summary>
                  <strong>{message.subject}</strong> <span className="text-subdued">{t('export.outbox.to', { email: message.to, date: new Date(message.createdAt).toLocaleString() })}</span>
                </summary>
                <pre style={{ whiteSpace: 'pre-wrap', overflowWrap: 'anywhere', fontFamily: 'inherit' }}>{message.text}</pre>
              </details>
              {message.attachments.map((a, i) => (
                <Button key={a.filename} variant="plain" onClick={() => void download(message, i)}>
                  {t('export.outbox.attachment', { file: a.filename, size: kilobytes(a.size) })}
                </Button>
              ))}
            </li>
          ))}
        </ul>
      )}
    </Card>
  );
}

/**
 * `/customers/exports` (spec 002 §2 "Exports are emailed as CSV"): the shop's latest e-mailed
 * exports with their status (a failed one shows "Failed to export customers", its reason and Retry)
 * and, when no mail server is configured (demo mode), the sent e-mails kept in the app.
 */
export function ExportsPage() {
  const t = useT();
  const toast = useToast();
  const list = useResource('customers:exports', () => exportApi.list());
  const [retrying, setRetrying] = useState<string | null>(null);
  const retry = async (job: CustomerExport) => {
    setRetrying(job.id);
    try {
      await exportApi.retry(job.id);
      list.reload();
    } catch (e) {
      toast(e instanceof ApiError ? e.message : t('import.export.failed'), 'error');
    } finally {
      setRetrying(null);
    }
  };
  const headings = [{ title: t('export.col.date') }, { title: t('export.col.recipient') }, { title: t('export.col.customers'), align: 'end' as const }, { title: t('export.col.status') }, { title: t('export.col.delivery') }];
  return (
    <Page title={t('export.page.title')} backTo="/customers" backLabel={t('import.backToCustomers')}>
      {list.error !== undefined ? (
        <Banner tone="critical" title={t('export.loadFailed')} action={{ label: t('common.reload'), onAction: list.reload }}>
          {list.error instanceof ApiError ? list.error.message : null}
        </Banner>
      ) : list.data?.data.length === 0 ? (
        <Card>
          <EmptyState heading={t('export.page.empty')}>{t('export.page.emptyBody')}</EmptyState>
        </Card>
      ) : (
        <Card flush>
          <IndexTable label={t('export.page.title')} headings={headings}>
            {(list.data?.data ?? []).map((job) => (
              <IndexTableRow key={job.id}>
                <td>
                  <time dateTime={job.createdAt}>{new Date(job.createdAt).toLocaleString()}</time>
                </td>
                <td>{job.recipient}</td>
                <td className="index-table__cell--end">{job.rowCount?.toLocaleString() ?? '—'}</td>
                <td>
                  <Badge tone={statusTones[job.status]}>{t(statusLabels[job.status])}</Badge>
                  {job.status === 'failed' && (
                    <div>
                      <p className="form-field__error">{t('import.export.failed')}</p>
                      <p className="text-subdued">{job.error}</p>
                      <Button loading={retrying === job.id} onClick={() => void retry(job)}>
                        {t('export.retry')}
                      </Button>
                    </div>
                  )}
                </td>
                <td>{job.delivery === 'attachment' ? t('export.delivery.attachment') : job.delivery === 'link' && job.linkExpiresAt ? t('export.delivery.link', { date: new Date(job.linkExpiresAt).toLocaleDateString() }) : '—'}</td>
              </IndexTableRow>
            ))}
          </IndexTable>
        </Card>
      )}
      {list.data?.delivery === 'outbox' && <OutboxCard />}
    </Page>
  );
}
