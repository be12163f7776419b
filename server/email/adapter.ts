/**
 * E-mail the app sends (spec 002 §2 "Exports are emailed as CSV"; DESIGN.md "Adapters for
 * everything … an interface, a real implementation and a deterministic local one"). One interface,
 * two implementations:
 * - `SmtpEmail` (./smtp.ts) sends over SMTP with nodemailer, configured from the environment
 *   (`SMTP_URL`, or `SMTP_HOST`/`SMTP_PORT`/`SMTP_SECURE`/`SMTP_USER`/`SMTP_PASS`; `SMTP_FROM`);
 * - `LocalEmail` (./outbox.ts) keeps every message in the `email_outbox` table instead, so demo
 *   mode shows it in the admin and tests read it; the default when SMTP is not configured.
 */
import type { Db } from '../db/database';
import { LocalEmail } from './outbox';
import { SmtpEmail } from './smtp';
import { DEFAULT_FROM, type EmailAdapter, type SmtpConfig } from './types';

export type { EmailAdapter, EmailAttachment, EmailMessage, SentEmail, SmtpConfig } from './types';
export { DEFAULT_FROM } from './types';

/**
 * Reads SMTP_URL, else SMTP_HOST (with SMTP_PORT, default 587; SMTP_SECURE `true` for TLS from the
 * start, default true on port 465; SMTP_USER and SMTP_PASS), and SMTP_FROM (the From address,
 * default {@link DEFAULT_FROM}). Null when neither SMTP_URL nor SMTP_HOST is set.
 */
export function smtpConfigFromEnv(env: NodeJS.ProcessEnv = process.env): SmtpConfig | null {
  const from = env.SMTP_FROM?.trim() || DEFAULT_FROM;
  const url = env.SMTP_URL?.trim();
  if (url) return { url, from };
  const host = env.SMTP_HOST?.trim();
  if (!host) return null;
  const port = Number(env.SMTP_PORT ?? 587) || 587;
  const secure = env.SMTP_SECURE ? env.SMTP_SECURE.trim().toLowerCase() === 'true' : port === 465;
  return { host, port, secure, ...(env.SMTP_USER ? { user: env.SMTP_USER } : {}), ...(env.SMTP_PASS ? { pass: env.SMTP_PASS } : {}), from };
}

/** The adapter the environment asks for: SMTP when configured, else the local outbox over `db`. */
export function emailFromEnv(db: Db, env: NodeJS.ProcessEnv = process.env): EmailAdapter {
  const smtp = smtpConfigFromEnv(env);
  return smtp ? new SmtpEmail(smtp) : new LocalEmail(db, env.SMTP_FROM?.trim() || DEFAULT_FROM);
}

const locals = new WeakMap<Db, LocalEmail>();

/** `deps.email`, else the local outbox of `deps.db` (one per connection). */
export function emailOf(deps: { db: Db; email?: EmailAdapter }): EmailAdapter {
  if (deps.email) return deps.email;
  let local = locals.get(deps.db);
  if (!local) {
    local = new LocalEmail(deps.db);
    locals.set(deps.db, local);
  }
  return local;
}
