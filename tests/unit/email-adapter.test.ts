/**
 * The e-mail adapter (server/email/adapter.ts): which one the environment picks, and what the SMTP
 * one hands its transport (nodemailer's stream transport here: no socket is opened).
 */
import { describe, expect, it } from 'vitest';
import { emailFromEnv, smtpConfigFromEnv } from '../../server/email/adapter';
import { SmtpEmail } from '../../server/email/smtp';
import { openDatabase } from '../../server/db/database';

describe('the e-mail configuration', () => {
  it('is the local outbox when neither SMTP_URL nor SMTP_HOST is set', async () => {
    const db = await openDatabase(':memory:');
    expect(smtpConfigFromEnv({})).toBeNull();
    expect(emailFromEnv(db, {}).kind).toBe('local');
    expect(emailFromEnv(db, { SMTP_HOST: 'mail.example.com' }).kind).toBe('smtp');
  });

  it('reads a host with STARTTLS on 587 by default and TLS on 465', () => {
    expect(smtpConfigFromEnv({ SMTP_HOST: 'mail.example.com', SMTP_USER: 'u', SMTP_PASS: 'p', SMTP_FROM: 'Shop <shop@example.com>' })).toEqual({ host: 'mail.example.com', port: 587, secure: false, user: 'u', pass: 'p', from: 'Shop <shop@example.com>' });
    expect(smtpConfigFromEnv({ SMTP_HOST: 'mail.example.com', SMTP_PORT: '465' })).toMatchObject({ port: 465, secure: true });
    expect(smtpConfigFromEnv({ SMTP_URL: 'smtps://u:p@mail.example.com' })).toEqual({ url: 'smtps://u:p@mail.example.com', from: 'Loyalty <no-reply@loyalty.local>' });
  });
});

describe('the SMTP adapter', () => {
  it('sends the From address, the fixed Message-ID and the CSV attachment', async () => {
    let raw = '';
    const email = new SmtpEmail({ host: 'unused', from: 'Shop <shop@example.com>' }, { streamTransport: true, buffer: true });
    // The transport is made at the first send (nodemailer loads then); the send below uses this one.
    const inner = await (email as unknown as { transport: () => Promise<{ sendMail: (m: object) => Promise<{ message: Buffer }> }> }).transport();
    const sendMail = inner.sendMail.bind(inner);
    inner.sendMail = async (m) => {
      const info = await sendMail(m);
      raw = info.message.toString('utf8');
      return info;
    };
    await email.send({ shopId: 's', messageId: '<customer-export.1@loyalty.local>', to: 'owner@shop.example', subject: 'Your customer export', text: 'Attached.', attachments: [{ filename: 'customers-all.csv', contentType: 'text/csv; charset=utf-8', content: Buffer.from('a,b\r\n') }] });
    expect(raw).toContain('Message-ID: <customer-export.1@loyalty.local>');
    expect(raw).toContain('From: Shop <shop@example.com>');
    expect(raw).toContain('To: owner@shop.example');
    expect(raw).toMatch(/filename=customers-all\.csv/);
  });
});
