/**
 * The local e-mail adapter (./adapter.ts): messages are filed in the `email_outbox` table instead
 * of sent, so demo mode shows them in the admin (Customers → Exports → Sent e-mails) and tests read
 * them. Deterministic and offline; a Message-ID already filed is not filed again.
 */
import type { Db } from '../db/database';
import { notFound } from '../errors';
import { DEFAULT_FROM, type EmailAdapter, type EmailMessage, type SentEmail } from './types';

/** A filed message as the outbox list shows it (attachments without their content; sizes in bytes). */
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

interface StoredAttachment {
  filename: string;
  contentType: string;
  size: number;
  /** Base64. */
  content: string;
}

/** Files messages in the outbox table. */
export class LocalEmail implements EmailAdapter {
  readonly kind = 'local' as const;

  constructor(
    private readonly db: Db,
    readonly from: string = DEFAULT_FROM,
    private readonly now: () => Date = () => new Date(),
  ) {}

  async send(message: EmailMessage): Promise<SentEmail> {
    const attachments: StoredAttachment[] = (message.attachments ?? []).map((a) => ({ filename: a.filename, contentType: a.contentType, size: a.content.length, content: a.content.toString('base64') }));
    const result = await this.db
      .insertInto('email_outbox')
      .values({
        id: crypto.randomUUID(),
        shop_id: message.shopId,
        message_id: message.messageId,
        sender: this.from,
        recipient: message.to,
        subject: message.subject,
        text: message.text,
        attachments: JSON.stringify(attachments),
        created_at: this.now().toISOString(),
      })
      .onConflict((oc) => oc.column('message_id').doNothing())
      .executeTakeFirst();
    return { messageId: message.messageId, ...(Number(result.numInsertedOrUpdatedRows ?? 0n) === 0 ? { duplicate: true } : {}) };
  }
}

const toMessage = (row: { id: string; message_id: string; sender: string; recipient: string; subject: string; text: string; attachments: string; created_at: string }): OutboxMessage => ({
  id: row.id,
  messageId: row.message_id,
  from: row.sender,
  to: row.recipient,
  subject: row.subject,
  text: row.text,
  attachments: (JSON.parse(row.attachments) as StoredAttachment[]).map(({ filename, contentType, size }) => ({ filename, contentType, size })),
  createdAt: row.created_at,
});

/** The shop's filed messages, newest first, at most `limit` (attachments listed, not included). */
export async function listOutbox(db: Db, shopId: string, limit = 50): Promise<OutboxMessage[]> {
  const rows = await db.selectFrom('email_outbox').selectAll().where('shop_id', '=', shopId).orderBy('created_at', 'desc').orderBy('id', 'desc').limit(limit).execute();
  return rows.map(toMessage);
}

/**
 * One attachment of a filed message: its name, type and bytes.
 * @throws ApiError 404 when the message or the attachment (0-based `index`) does not exist
 */
export async function outboxAttachment(db: Db, shopId: string, id: string, index: number): Promise<{ filename: string; contentType: string; content: Buffer }> {
  const row = await db.selectFrom('email_outbox').select('attachments').where('shop_id', '=', shopId).where('id', '=', id).executeTakeFirst();
  const attachment = row ? (JSON.parse(row.attachments) as StoredAttachment[])[index] : undefined;
  if (!attachment) throw notFound('not_found', 'This attachment does not exist');
  return { filename: attachment.filename, contentType: attachment.contentType, content: Buffer.from(attachment.content, 'base64') };
}
