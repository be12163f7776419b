/**
 * The e-mail adapter's types (./adapter.ts): messages, attachments, the adapter interface and the
 * SMTP settings. Kept apart so both implementations import them without a cycle.
 */

/** A file sent with a message. */
export interface EmailAttachment {
  filename: string;
  /** MIME type, e.g. `text/csv; charset=utf-8`. */
  contentType: string;
  content: Buffer;
}

/** One message to one recipient. */
export interface EmailMessage {
  /** The shop it is sent for (the outbox files it under the shop). */
  shopId: string;
  /**
   * The Message-ID (`<…@…>`), chosen by the caller and stable across retries: sending the same
   * message again after a crash carries the same id, so the outbox keeps it once and mail clients
   * treat it as one message.
   */
  messageId: string;
  to: string;
  subject: string;
  /** Plain-text body. */
  text: string;
  attachments?: readonly EmailAttachment[];
}

/** What a send answered. */
export interface SentEmail {
  messageId: string;
  /** True when the local outbox already held a message with this Message-ID (nothing new filed). */
  duplicate?: boolean;
}

/** The adapter. */
export interface EmailAdapter {
  /** `smtp` sends; `local` files messages in the outbox the admin shows. */
  readonly kind: 'smtp' | 'local';
  /** The From address. */
  readonly from: string;
  /**
   * Sends (or files) one message. Throws an Error whose message is the reason (the SMTP server's
   * answer, a connection error) when it was not accepted.
   */
  send(message: EmailMessage): Promise<SentEmail>;
}

/** From address when none is configured. */
export const DEFAULT_FROM = 'Loyalty <no-reply@loyalty.local>';

/** SMTP settings read from the environment; null when SMTP is not configured. */
export interface SmtpConfig {
  /** `smtp://user:pass@host:587` or `smtps://…:465`, when given as one URL. */
  url?: string;
  host?: string;
  /** TCP port; 465 implies TLS from the start, 587/25 STARTTLS when the server offers it. */
  port?: number;
  secure?: boolean;
  user?: string;
  pass?: string;
  from: string;
}
