/**
 * Customer exports e-mailed as CSV (spec 002 §2 "Exports are emailed as CSV", §8 "Failed to export
 * customers"; COVERAGE CU9): one e-mail per export with the list's CSV (tab, search, selection;
 * formula cells escaped) attached, or a signed expiring link when it is large; a failing adapter
 * leaves a failed job with its reason and its file, which a retry sends; a server that died mid-job
 * finishes it on the next start without a second e-mail; a bad recipient is a 422 at `/recipient`.
 */
import { existsSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { DEFAULT_FROM, type EmailAdapter, type EmailMessage } from '../../server/email/adapter';
import { LocalEmail } from '../../server/email/outbox';
import { importRunnerFor } from '../../server/services/customer-import/job';
import { exportDirectory, exportRunnerFor, ExportRunner, setExportKicker } from '../../server/services/customer-export/job';
import { AUTH, makeApp, type TestApp } from '../support/app';

type Issue = { path: string; message: string };
type ExportView = { id: string; status: string; error: string | null; rowCount: number | null; delivery: string | null; linkExpiresAt: string | null; recipient: string };
type OutboxMessage = { id: string; messageId: string; to: string; subject: string; text: string; attachments: { filename: string; contentType: string; size: number }[] };

const TEMPLATE = 'Customer ID,Email,Phone,First Name,Last Name,Points,Birthday,Tier';
const CUSTOMERS = `${TEMPLATE}\n1,ada@example.com,'+15551234567,"=HYPERLINK(""x"")",@Lovelace,12,01/02,\n2,bob@example.com,,Bob,-Minus,3,,\n3,amy@example.com,,Amy,+Plus,0,,\n`;

/** Imports `csv` through the import API and waits for it. */
async function seed(t: TestApp, csv = CUSTOMERS): Promise<void> {
  const up = await t.app.request('/api/customers/imports?fileName=c.csv', { method: 'POST', headers: { Authorization: `Bearer ${t.token}`, 'Content-Type': 'text/csv' }, body: csv });
  const { data } = (await up.json()) as { data: { id: string; guessedMapping: Record<string, string> } };
  expect((await t.call('POST', `/api/customers/imports/${data.id}/start`, { mapping: data.guessedMapping, tierRule: 'from_file' })).status).toBe(202);
  await importRunnerFor({ db: t.db }).whenIdle();
}

async function startExport(t: TestApp, body: Record<string, unknown>): Promise<ExportView> {
  const res = await t.call('POST', '/api/customers/exports', body);
  expect(res.status).toBe(202);
  return ((await res.json()) as { data: ExportView }).data;
}

async function exportOf(t: TestApp, id: string): Promise<ExportView> {
  return ((await (await t.call('GET', `/api/customers/exports/${id}`)).json()) as { data: ExportView }).data;
}

async function outbox(t: TestApp): Promise<OutboxMessage[]> {
  const res = await t.call('GET', '/api/emails/outbox');
  expect(res.status).toBe(200);
  return ((await res.json()) as { data: OutboxMessage[] }).data;
}

async function attachmentText(t: TestApp, messageId: string): Promise<string> {
  const res = await t.call('GET', `/api/emails/outbox/${messageId}/attachments/0`);
  expect(res.status).toBe(200);
  return res.text();
}

async function streamed(t: TestApp, query: string): Promise<string> {
  return (await t.call('GET', `/api/customers/export.csv${query}`)).text();
}

/** The local outbox of `local` (set once the app's database exists), failing every send while `failing` holds a reason. */
class FlakyEmail implements EmailAdapter {
  readonly kind = 'local' as const;
  readonly from = DEFAULT_FROM;
  local: LocalEmail | null = null;
  failing: string | null = '550 5.1.1 <owner@shop.example>: Recipient address rejected';
  sends = 0;
  async send(message: EmailMessage) {
    this.sends++;
    if (this.failing) throw new Error(this.failing);
    return this.local!.send(message);
  }
}

describe('exporting customers by e-mail', () => {
  it('answers at once, then sends one e-mail with the tab and search as CSV, formula cells escaped', async () => {
    const t = await makeApp();
    await seed(t);
    const res = await t.call('POST', '/api/customers/exports', { recipient: ' owner@shop.example ', tab: 'member' });
    expect(res.status).toBe(202);
    const body = (await res.json()) as { data: ExportView; delivery: string };
    expect(body.data).toMatchObject({ status: 'queued', recipient: 'owner@shop.example' });
    expect(body.delivery).toBe('outbox');
    await exportRunnerFor({ db: t.db, auth: AUTH }).whenIdle();
    expect(await exportOf(t, body.data.id)).toMatchObject({ status: 'sent', rowCount: 3, delivery: 'attachment', error: null });

    const messages = await outbox(t);
    expect(messages).toHaveLength(1);
    expect(messages[0]).toMatchObject({ to: 'owner@shop.example', subject: expect.stringContaining('3 customers') });
    expect(messages[0]!.attachments).toEqual([{ filename: expect.stringMatching(/^customers-member-\d{4}-\d{2}-\d{2}\.csv$/), contentType: 'text/csv; charset=utf-8', size: expect.any(Number) }]);
    const csv = await attachmentText(t, messages[0]!.id);
    // The streamed download's writer, byte for byte: same rows, same escaping.
    expect(csv).toBe(await streamed(t, '?tab=member'));
    const lines = csv.split('\r\n');
    const bytes = new Uint8Array(await (await t.call('GET', `/api/emails/outbox/${messages[0]!.id}/attachments/0`)).arrayBuffer());
    expect([...bytes.slice(0, 3)]).toEqual([0xef, 0xbb, 0xbf]); // the byte-order mark spreadsheets need
    expect(lines[0]).toBe('Customer ID,Email,Phone,First Name,Last Name,Points,Birthday,Tier,Type,Last Update');
    expect(lines[1]).toMatch(/^1,ada@example.com,'\+15551234567,"'=HYPERLINK\(""x""\)",'@Lovelace,12,01\/02,,Member,/);
    expect(lines[2]).toMatch(/^2,bob@example.com,,Bob,'-Minus,3,,,Member,/);
    expect(lines[3]).toMatch(/^3,amy@example.com,,Amy,'\+Plus,0,,,Member,/);
    expect(lines).toHaveLength(5);
  });

  it('sends only the rows of the search, and none of another tab', async () => {
    const t = await makeApp();
    await seed(t);
    const search = await startExport(t, { recipient: 'owner@shop.example', search: 'am' });
    const guests = await startExport(t, { recipient: 'owner@shop.example', tab: 'guest' });
    await exportRunnerFor({ db: t.db, auth: AUTH }).whenIdle();
    expect((await exportOf(t, search.id)).rowCount).toBe(1);
    expect((await exportOf(t, guests.id)).rowCount).toBe(0);
    const messages = await outbox(t);
    const bySubject = new Map(messages.map((m) => [m.subject, m]));
    const amy = [...bySubject.values()].find((m) => m.subject.includes('search "am"'))!;
    expect((await attachmentText(t, amy.id)).split('\r\n').slice(1, -1).map((l) => l.split(',')[0])).toEqual(['3']);
    expect(await attachmentText(t, amy.id)).toBe(await streamed(t, '?search=am'));
    expect(messages).toHaveLength(2);
  });

  it('sends the customers selected on the list', async () => {
    const t = await makeApp();
    await seed(t);
    const job = await startExport(t, { recipient: 'owner@shop.example', ids: ['3', '2', '3'] });
    await exportRunnerFor({ db: t.db, auth: AUTH }).whenIdle();
    expect((await exportOf(t, job.id)).rowCount).toBe(2);
    const [message] = await outbox(t);
    const ids = (await attachmentText(t, message!.id)).split('\r\n').slice(1, -1).map((l) => l.split(',')[0]);
    expect(ids).toEqual(['2', '3']);
  });

  it('lists the exports with the shop e-mail as the default recipient', async () => {
    const t = await makeApp();
    const job = await startExport(t, { recipient: 'owner@shop.example' });
    const res = await t.call('GET', '/api/customers/exports');
    const body = (await res.json()) as { data: ExportView[]; defaultRecipient: string; delivery: string };
    expect(body.data.map((e) => e.id)).toEqual([job.id]);
    expect(typeof body.defaultRecipient).toBe('string');
    expect(body.delivery).toBe('outbox');
  });

  it('refuses a bad recipient with a 422 at /recipient and starts nothing', async () => {
    const t = await makeApp();
    for (const recipient of ['', 'owner', 'owner@shop', 'a@b@shop.example', 'owner @shop.example', 42]) {
      const res = await t.call('POST', '/api/customers/exports', { recipient });
      expect(res.status).toBe(422);
      const { error } = (await res.json()) as { error: { code: string; message: string; details: Issue[] } };
      expect(error.message).toBe('Failed to export customers');
      expect(error.details).toEqual([{ path: '/recipient', message: 'Enter a valid e-mail address' }]);
    }
    const bad = await t.call('POST', '/api/customers/exports', { recipient: 'owner@shop.example', tab: 'vip', ids: [], extra: 1 });
    expect(((await bad.json()) as { error: { details: Issue[] } }).error.details.map((d) => d.path).sort()).toEqual(['/extra', '/ids', '/tab']);
    expect(((await (await t.call('GET', '/api/customers/exports')).json()) as { data: unknown[] }).data).toEqual([]);
  });
});

describe('a failing e-mail adapter', () => {
  it('marks the job failed with the reason, keeps its file, and a retry sends it once', async () => {
    const email = new FlakyEmail();
    const t = await makeApp({ email });
    email.local = new LocalEmail(t.db);
    await seed(t);
    const job = await startExport(t, { recipient: 'owner@shop.example' });
    await exportRunnerFor({ db: t.db, auth: AUTH }).whenIdle();
    const failed = await exportOf(t, job.id);
    expect(failed).toMatchObject({ status: 'failed', rowCount: 3, error: '550 5.1.1 <owner@shop.example>: Recipient address rejected' });
    const row = await t.db.selectFrom('customer_exports').select('file_path').where('id', '=', job.id).executeTakeFirstOrThrow();
    expect(row.file_path && existsSync(row.file_path)).toBeTruthy();
    expect(await outbox(t)).toEqual([]);

    email.failing = null;
    expect((await t.call('POST', `/api/customers/exports/${job.id}/retry`)).status).toBe(202);
    await exportRunnerFor({ db: t.db, auth: AUTH }).whenIdle();
    expect(await exportOf(t, job.id)).toMatchObject({ status: 'sent', error: null });
    const messages = await outbox(t);
    expect(messages).toHaveLength(1);
    expect(await attachmentText(t, messages[0]!.id)).toBe(await streamed(t, ''));
    expect(email.sends).toBe(2);
    expect((await t.call('POST', `/api/customers/exports/${job.id}/retry`)).status).toBe(409);
  });
});

describe('a server restarted mid-export', () => {
  it('writes the file again when the dead run left it half written, and sends once', async () => {
    const t = await makeApp();
    setExportKicker(t.db, () => undefined); // the "killed" server never ran it
    await seed(t);
    const job = await startExport(t, { recipient: 'owner@shop.example' });
    const path = join(exportDirectory(), `${job.id}.csv`);
    writeFileSync(path, '\uFEFFCustomer ID,Email,Ph');
    await t.db.updateTable('customer_exports').set({ status: 'running', attempts: 1, file_path: path, locked_until: new Date(Date.now() - 1000).toISOString(), started_at: new Date().toISOString() }).where('id', '=', job.id).execute();

    const next = new ExportRunner({ db: t.db, auth: AUTH });
    next.kick();
    await next.whenIdle();
    expect(await exportOf(t, job.id)).toMatchObject({ status: 'sent', rowCount: 3 });
    const messages = await outbox(t);
    expect(messages).toHaveLength(1);
    expect(await attachmentText(t, messages[0]!.id)).toBe(await streamed(t, ''));
  });

  it('does not send a second e-mail when the dead run had sent it but not recorded it', async () => {
    let clock = Date.parse('2026-11-01T10:00:00Z');
    const now = () => new Date(clock);
    const t = await makeApp({ now });
    setExportKicker(t.db, () => undefined);
    await seed(t);
    const job = await startExport(t, { recipient: 'owner@shop.example' });
    const local = new LocalEmail(t.db, undefined, now);
    // The first server hands the message over and dies before it hears back.
    const dying: EmailAdapter = { kind: 'local', from: local.from, send: async (m) => (await local.send(m), new Promise(() => undefined)) };
    new ExportRunner({ db: t.db, auth: AUTH, email: dying, now }, { lockSeconds: 60 }).kick();
    await expect.poll(async () => (await outbox(t)).length).toBe(1);
    expect((await exportOf(t, job.id)).status).toBe('running');

    clock += 61_000; // its claim lapses
    const next = new ExportRunner({ db: t.db, auth: AUTH, email: local, now }, { lockSeconds: 60 });
    next.kick();
    await next.whenIdle();
    expect(await exportOf(t, job.id)).toMatchObject({ status: 'sent' });
    expect(await outbox(t)).toHaveLength(1);
  });
});

describe('a large export', () => {
  it('is sent as a signed download link that expires after 7 days', async () => {
    let clock = Date.parse('2026-11-01T10:00:00Z');
    const now = () => new Date(clock);
    const t = await makeApp({ now });
    setExportKicker(t.db, () => undefined);
    await seed(t);
    const job = await startExport(t, { recipient: 'owner@shop.example' });
    const runner = new ExportRunner({ db: t.db, auth: AUTH, now }, { attachmentMaxBytes: 100 });
    runner.kick();
    await runner.whenIdle();
    const sent = await exportOf(t, job.id);
    expect(sent).toMatchObject({ status: 'sent', delivery: 'link', linkExpiresAt: '2026-11-08T10:00:00.000Z' });
    const [message] = await outbox(t);
    expect(message!.attachments).toEqual([]);
    const link = new URL(/http\S+/.exec(message!.text)![0]);
    expect(link.pathname).toBe(`/exports/${job.id}/customers.csv`);

    const download = await t.app.request(`${link.pathname}${link.search}`);
    expect(download.status).toBe(200);
    expect(download.headers.get('content-disposition')).toMatch(/^attachment; filename="customers-all-/);
    expect(await download.text()).toBe(await streamed(t, ''));

    const tampered = link.search.replace(/signature=(.)/, (_, c: string) => `signature=${c === 'a' ? 'b' : 'a'}`);
    expect((await t.app.request(`${link.pathname}${tampered}`)).status).toBe(403);
    clock += 7 * 86_400_000 + 1000;
    expect((await t.app.request(`${link.pathname}${link.search}`)).status).toBe(410);
  });
});
