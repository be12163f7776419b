/**
 * The e-mailed customer export's calls (server/routes/customer-export.ts; spec 002 §2 "Exports are
 * emailed as CSV") and the local outbox's (demo mode).
 */
import { request } from '../../../api/client';
import type { CustomerTab } from '../../../api/endpoints';
import type { OutboxMessage } from '../../../../server/email/outbox';
import type { ExportStatus, ExportView } from '../../../../server/services/customer-export/job';

/** The list's filters an export carries: the tab, the search, or the selected customers. */
export interface ExportScope {
  tab: CustomerTab;
  search?: string;
  /** Customer ids selected on the list (1 to 100). */
  ids?: string[];
}

/** An export job as the server answers it (server/services/customer-export/job.ts; sizes in bytes, times ISO). */
export type CustomerExport = Omit<ExportView, 'query'> & { query: ExportScope };

export type { ExportStatus };

/** `outbox`: no SMTP server is configured and messages are kept in the app (demo mode). */
export type EmailDelivery = 'smtp' | 'outbox';

/** `GET /api/customers/exports`. */
export interface ExportList {
  data: CustomerExport[];
  /** The shop's e-mail, the dialog's first recipient. */
  defaultRecipient: string;
  delivery: EmailDelivery;
}

/** A message the local outbox kept (server/email/outbox.ts; attachment sizes in bytes). */
export type { OutboxMessage };

export const exportApi = {
  /** The latest exports with the default recipient and how e-mail is delivered. */
  list: () => request<ExportList>('/api/customers/exports'),
  /** Queues an export; 400 with `/recipient` for a bad address, 403 plan gate, 409 too many at once. */
  start: async (recipient: string, scope: ExportScope) =>
    request<{ data: CustomerExport; delivery: EmailDelivery }>('/api/customers/exports', { method: 'POST', body: { recipient, ...scope } }),
  /** Queues a failed export again. */
  retry: async (id: string) => (await request<{ data: CustomerExport }>(`/api/customers/exports/${encodeURIComponent(id)}/retry`, { method: 'POST' })).data,
  /** The local outbox (404 `outbox_unavailable` when SMTP sends the e-mails). */
  outbox: async () => (await request<{ data: OutboxMessage[] }>('/api/emails/outbox')).data,
};

/** The path of an outbox attachment, for downloadCsv. */
export const outboxAttachmentPath = (messageId: string, index: number): string => `/api/emails/outbox/${encodeURIComponent(messageId)}/attachments/${index}`;
