/**
 * The e-mailed customer export's calls (server/routes/customer-export.ts; spec 002 §2 "Exports are
 * emailed as CSV") and the local outbox's (demo mode).
 */
import { request } from '../../../api/client';
import type { CustomerTab } from '../../../api/endpoints';

/** The list's filters an export carries: the tab, the search, or the selected customers. */
export interface ExportScope {
  tab: CustomerTab;
  search?: string;
  /** Customer ids selected on the list (1 to 100). */
  ids?: string[];
}

export type ExportStatus = 'queued' | 'running' | 'sent' | 'failed';

/** An export job as the server answers it (sizes in bytes, times ISO). */
export interface CustomerExport {
  id: string;
  recipient: string;
  query: ExportScope;
  status: ExportStatus;
  error: string | null;
  rowCount: number | null;
  byteSize: number | null;
  delivery: 'attachment' | 'link' | null;
  linkExpiresAt: string | null;
  attempts: number;
  createdAt: string;
  startedAt: string | null;
  finishedAt: string | null;
}

/** `outbox`: no SMTP server is configured and messages are kept in the app (demo mode). */
export type EmailDelivery = 'smtp' | 'outbox';

/** `GET /api/customers/exports`. */
export interface ExportList {
  data: CustomerExport[];
  /** The shop's e-mail, the dialog's first recipient. */
  defaultRecipient: string;
  delivery: EmailDelivery;
}

/** A message the local outbox kept (attachment sizes in bytes). */
export interface OutboxMessage {
  id: string;
  messageId: string;
  from: string;
  to: string;
  subject: string;
  text: string;
  attachments: { filename: string; contentType: string; size: number }[];
  createdAt: string;
}

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
