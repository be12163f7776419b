/**
 * The SMTP e-mail adapter (./adapter.ts): nodemailer's SMTP transport, one pooled connection per
 * process. Tests pass `transport` (nodemailer's stream transport) and never open a socket.
 * nodemailer (about 400 KB of JavaScript and the TLS, DNS and zlib built-ins) is loaded at the
 * first send, not at the server's start: most sends are rare exports.
 */
import type { Transporter } from 'nodemailer';
import type SMTPTransport from 'nodemailer/lib/smtp-transport';
import type { EmailAdapter, EmailMessage, SentEmail, SmtpConfig } from './types';

/** Seconds to wait for the SMTP server (connect, greeting, each answer) before the send fails. */
export const SMTP_TIMEOUT_SECONDS = 30;

/** Sends over SMTP. */
export class SmtpEmail implements EmailAdapter {
  readonly kind = 'smtp' as const;
  readonly from: string;
  private readonly options: SMTPTransport.Options | string;
  private transporter: Promise<Transporter> | null = null;

  /**
   * @param config from smtpConfigFromEnv
   * @param transport nodemailer transport options that replace the SMTP ones (tests:
   *   `{ streamTransport: true, buffer: true }`)
   */
  constructor(config: SmtpConfig, transport?: object) {
    this.from = config.from;
    const timeout = SMTP_TIMEOUT_SECONDS * 1000;
    const options: SMTPTransport.Options | string = config.url
      ? config.url
      : {
          host: config.host,
          port: config.port,
          secure: config.secure,
          ...(config.user ? { auth: { user: config.user, pass: config.pass ?? '' } } : {}),
          connectionTimeout: timeout,
          greetingTimeout: timeout,
          socketTimeout: timeout,
        };
    this.options = (transport ?? options) as SMTPTransport.Options;
  }

  /** The transport, made at the first send. */
  private transport(): Promise<Transporter> {
    this.transporter ??= import('nodemailer').then(({ default: nodemailer }) => nodemailer.createTransport(this.options as SMTPTransport.Options));
    return this.transporter;
  }

  /** Throws the transport's error (its message names the SMTP answer) when the server refuses the message. */
  async send(message: EmailMessage): Promise<SentEmail> {
    await (await this.transport()).sendMail({
      from: this.from,
      to: message.to,
      subject: message.subject,
      text: message.text,
      messageId: message.messageId,
      attachments: (message.attachments ?? []).map((a) => ({ filename: a.filename, contentType: a.contentType, content: a.content })),
    });
    return { messageId: message.messageId };
  }
}
