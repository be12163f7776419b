/**
 * Customer import and export (issue 10; spec 002 §2 Migration wizard, §4, §5 CSV import, §8
 * Import messages): upload → map → start → background job in batches → counts, bad rows with row
 * number and reason, the error CSV; the platform's export layouts (BOM, `;`, quoted newlines,
 * apostrophe-prefixed ids and phones); birthday and points imports; the CSV export with formula
 * escaping; and a server killed with SIGKILL mid-import that resumes and awards each row once.
 */
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import SQLite from 'better-sqlite3';
import { describe, expect, it } from 'vitest';
import { signSessionToken } from '../../server/auth';
import { DEMO } from '../../server/config';
import { importRunnerFor, ImportRunner, startImport } from '../../server/services/customer-import/job';
import { appendEntries } from '../../server/store/ledger';
import { csvCell } from '../../server/services/customer-import/csv';
import type { ColumnMapping } from '../../server/services/customer-import/rules';
import { makeApp, SHOP, type TestApp } from '../support/app';
import { expectLedgerTotalsAgree } from '../support/ledger-totals';
import { orderBody, placeOrderData } from '../support/factories';
import { freePort, startServer } from '../support/server-process';

type Issue = { path: string; message: string };
type ImportView = {
  id: string;
  status: string;
  headers: string[];
  delimiter: string;
  totalRows: number;
  processedRows: number;
  importedRows: number;
  failedRows: number;
  pointsAwarded: number;
  guessedMapping: Record<string, string>;
  preview: string[][];
  error: string | null;
};
type Customer = { id: string; email: string; phone: string | null; birthday: string | null; firstName: string; lastName: string; points: number; tierId: string | null };

const TEMPLATE = 'Customer ID,Email,Phone,First Name,Last Name,Points,Birthday,Tier';

/** Uploads `text` as the raw body (or multipart with `multipart: true`); answers status and body. */
async function upload(t: TestApp, text: string | Uint8Array<ArrayBuffer>, opts: { fileName?: string; kind?: string; multipart?: boolean } = {}): Promise<{ status: number; body: { data: ImportView; error: { code: string; message: string; details?: Issue[] } } }> {
  const fileName = opts.fileName ?? 'customers.csv';
  const query = opts.kind ? `&kind=${opts.kind}` : '';
  let res: Response;
  if (opts.multipart) {
    const form = new FormData();
    form.append('file', new File([text], fileName, { type: 'text/csv' }));
    if (opts.kind) form.append('kind', opts.kind);
    res = await t.app.request('/api/customers/imports', { method: 'POST', headers: { Authorization: `Bearer ${t.token}` }, body: form });
  } else {
    res = await t.app.request(`/api/customers/imports?fileName=${encodeURIComponent(fileName)}${query}`, { method: 'POST', headers: { Authorization: `Bearer ${t.token}`, 'Content-Type': 'text/csv' }, body: text });
  }
  return { status: res.status, body: (await res.json()) as never };
}

/** Uploads, starts with the guessed mapping (or `mapping`), waits for the job; answers the finished import. */
async function importCsv(t: TestApp, text: string, opts: { kind?: string; mapping?: Record<string, string>; tierRule?: string } = {}): Promise<ImportView> {
  const up = await upload(t, text, opts);
  expect(up.status).toBe(201);
  const start = await t.call('POST', `/api/customers/imports/${up.body.data.id}/start`, { mapping: opts.mapping ?? up.body.data.guessedMapping, tierRule: opts.tierRule ?? 'from_file' });
  expect(start.status).toBe(202);
  await importRunnerFor({ db: t.db }).whenIdle();
  const res = await t.call('GET', `/api/customers/imports/${up.body.data.id}`);
  return ((await res.json()) as { data: ImportView }).data;
}

async function customers(t: TestApp): Promise<Customer[]> {
  const res = await t.call('GET', '/api/customers?limit=100&sort=points_desc');
  return ((await res.json()) as { data: Customer[] }).data;
}

async function errorsCsv(t: TestApp, id: string): Promise<string> {
  const res = await t.call('GET', `/api/customers/imports/${id}/errors.csv`);
  expect(res.status).toBe(200);
  expect(res.headers.get('content-type')).toContain('text/csv');
  return res.text();
}

describe('uploading a file', () => {
  it('answers the headers, the separator, a guessed mapping and the first 5 rows', async () => {
    const t = await makeApp();
    const rows = Array.from({ length: 7 }, (_, i) => `${1000 + i},c${i}@example.com,,Ada,L${i},${i * 10},01/0${i + 1},`);
    const { status, body } = await upload(t, [TEMPLATE, ...rows].join('\n'));
    expect(status).toBe(201);
    expect(body.data.status).toBe('uploaded');
    expect(body.data.headers).toEqual(TEMPLATE.split(','));
    expect(body.data.delimiter).toBe(',');
    expect(body.data.totalRows).toBe(7);
    expect(body.data.guessedMapping).toEqual({ 'Customer ID': 'customerId', Email: 'email', Phone: 'phone', 'First Name': 'firstName', 'Last Name': 'lastName', Points: 'points', Birthday: 'birthday', Tier: 'tier' });
    expect(body.data.preview).toHaveLength(5);
    expect(body.data.preview[0]).toEqual(['1000', 'c0@example.com', '', 'Ada', 'L0', '0', '01/01', '']);
  });

  it('takes a multipart upload too', async () => {
    const t = await makeApp();
    const { status, body } = await upload(t, `${TEMPLATE}\n1,a@example.com,,,,5,,\n`, { multipart: true });
    expect(status).toBe(201);
    expect(body.data.totalRows).toBe(1);
  });

  it('refuses a file that is not .csv with "Your file is not csv"', async () => {
    const t = await makeApp();
    const { status, body } = await upload(t, 'Email\na@example.com\n', { fileName: 'customers.xlsx' });
    expect(status).toBe(422);
    expect(body.error.message).toBe('Your file is not csv');
  });

  it('refuses a file over 25 MB with "Your file is over 25MB"', async () => {
    const t = await makeApp();
    const line = `${'x'.repeat(99)}\n`;
    const big = new TextEncoder().encode(`Email\n${line.repeat(Math.ceil((25 * 1024 * 1024) / line.length) + 10)}`);
    const { status, body } = await upload(t, big);
    expect(status).toBe(413);
    expect(body.error.message).toBe('Your file is over 25MB');
    expect((await t.call('GET', '/api/customers/imports')).status).toBe(200);
    expect(((await (await t.call('GET', '/api/customers/imports')).json()) as { data: unknown[] }).data).toEqual([]);
  });

  it('refuses an empty file and a binary one with "Your file is invalid"', async () => {
    const t = await makeApp();
    for (const content of ['', '\u0000\u0001PNG\u0000']) {
      const { status, body } = await upload(t, content);
      expect(status).toBe(422);
      expect(body.error.message).toBe('Your file is invalid');
    }
  });

  it('names the missing headers of a birthday import and of a points import', async () => {
    const t = await makeApp();
    const birthday = await upload(t, 'Email,Name\na@example.com,Ada\n', { kind: 'birthday' });
    expect(birthday.status).toBe(422);
    expect(birthday.body.error.message).toBe('Your file is invalid');
    expect(birthday.body.error.details!.map((d) => d.message)).toEqual(['Birthday header is missing']);
    const points = await upload(t, 'Birthday,Create Date\n01/02,2024-01-01\n', { kind: 'points' });
    expect(points.status).toBe(422);
    expect(points.body.error.details!.map((d) => d.message)).toEqual(['Email header is missing', 'Points header is missing']);
  });
});

describe('starting an import', () => {
  it('needs at least one identifier column', async () => {
    const t = await makeApp();
    const { body } = await upload(t, 'Name,Points\nAda,5\n');
    const res = await t.call('POST', `/api/customers/imports/${body.data.id}/start`, { mapping: { Name: 'firstName', Points: 'points' }, tierRule: 'ignore' });
    expect(res.status).toBe(422);
    const error = ((await res.json()) as { error: { message: string; details: Issue[] } }).error;
    expect(error.message).toBe('Your file is invalid');
    expect(error.details.map((d) => d.message)).toEqual(['Map at least one identifier column: Customer ID, Email or Phone']);
  });

  it('refuses a field mapped twice, a column the file lacks, and a second start', async () => {
    const t = await makeApp();
    const { body } = await upload(t, 'Email,Mail\na@example.com,b@example.com\n');
    const twice = await t.call('POST', `/api/customers/imports/${body.data.id}/start`, { mapping: { Email: 'email', Mail: 'email', Other: 'points' } });
    expect(twice.status).toBe(422);
    expect(((await twice.json()) as { error: { details: Issue[] } }).error.details.map((d) => d.path)).toEqual(['/mapping/Mail', '/mapping/Other']);
    expect((await t.call('POST', `/api/customers/imports/${body.data.id}/start`, { mapping: { Email: 'email', Mail: 'ignore' } })).status).toBe(202);
    expect((await t.call('POST', `/api/customers/imports/${body.data.id}/start`, { mapping: { Email: 'email', Mail: 'ignore' } })).status).toBe(409);
  });
});

describe('running an import', () => {
  it('imports the template: customers with phone and birthday, one earn_point entry per row with points', async () => {
    const t = await makeApp();
    const done = await importCsv(t, [TEMPLATE, "7425035255929,ada@example.com,'+15551234567,Ada,Lovelace,120,12/10,", '7425035255930,grace@example.com,,Grace,Hopper,0,,'].join('\r\n'));
    expect(done).toMatchObject({ status: 'completed', totalRows: 2, processedRows: 2, importedRows: 2, failedRows: 0, pointsAwarded: 120 });
    const list = await customers(t);
    expect(list.map((c) => [c.id, c.email, c.phone, c.birthday, c.firstName, c.points])).toEqual([
      ['7425035255929', 'ada@example.com', '+15551234567', '12/10', 'Ada', 120],
      ['7425035255930', 'grace@example.com', null, null, 'Grace', 0],
    ]);
    const all = ((await (await t.call('GET', '/api/customers/7425035255929/activity')).json()) as { data: { type: string; points: number; sourceType: string; sourceId: string; explanation: { import: { id: string; row: number } } }[] }).data;
    const activity = all.filter((e) => e.sourceType === 'import');
    expect(activity).toHaveLength(1);
    expect(activity[0]).toMatchObject({ type: 'earn_point', points: 120, sourceType: 'import', sourceId: `${done.id}:2` });
    expect(activity[0]!.explanation.import).toMatchObject({ id: done.id, row: 2 });
  });

  it("reads the platform's current export: BOM, ';' separator, quoted newlines, apostrophe ids and phones", async () => {
    const t = await makeApp();
    const text =
      '\uFEFFCustomer ID;First Name;Last Name;Email;Accepts Email Marketing;Default Address Address1;Default Address Phone;Phone;Total Spent;Note\n' +
      "'7425035255929;Ada;Lovelace;ada@example.com;yes;\"1 Main St\nFlat 2\";'+15550000000;'+15551234567;10.00;\"said \"\"hi\"\"\"\n" +
      "'7425035255930;Grace;Hopper;grace@example.com;no;;;;0.00;\n";
    const up = await upload(t, text);
    expect(up.body.data.delimiter).toBe(';');
    expect(up.body.data.headers[0]).toBe('Customer ID');
    expect(up.body.data.totalRows).toBe(2);
    expect(up.body.data.guessedMapping).toMatchObject({ 'Customer ID': 'customerId', Email: 'email', Phone: 'phone', 'Default Address Phone': 'ignore', 'Default Address Address1': 'ignore' });
    expect(up.body.data.preview[0]![5]).toBe('1 Main St\nFlat 2');
    const done = await importCsv(t, text);
    expect(done).toMatchObject({ status: 'completed', importedRows: 2, failedRows: 0 });
    const list = await customers(t);
    expect(list.map((c) => [c.id, c.phone]).sort()).toEqual([
      ['7425035255929', '+15551234567'],
      ['7425035255930', null],
    ]);
  });

  it("reads the platform's older export (no Customer ID): customers found by e-mail", async () => {
    const t = await makeApp();
    await t.deliverOrder({ id: 1, currency: 'USD', line_items: [], customer: { id: '555', email: 'ada@example.com', first_name: 'A', last_name: 'L' } });
    const text = 'First Name,Last Name,Email,Company,Address1,Phone,Accepts Marketing,Total Spent,Total Orders,Tags\nAda,Lovelace,ada@example.com,,,+15551234567,yes,1.00,1,\nAlan,Turing,alan@example.com,,,,no,0,0,\n';
    const done = await importCsv(t, text);
    expect(done).toMatchObject({ status: 'completed', importedRows: 2 });
    const list = await customers(t);
    const ada = list.find((c) => c.email === 'ada@example.com')!;
    expect(ada.id).toBe('555');
    expect([ada.firstName, ada.lastName, ada.phone]).toEqual(['Ada', 'Lovelace', '+15551234567']);
    expect(list.find((c) => c.email === 'alan@example.com')!.id).toBe('email:alan@example.com');
  });

  it('compares e-mails case-sensitively (spec 002 §5)', async () => {
    const t = await makeApp();
    const done = await importCsv(t, 'Email,Points\nAda@example.com,5\nada@example.com,7\n');
    expect(done).toMatchObject({ importedRows: 2, failedRows: 0 });
    expect((await customers(t)).map((c) => [c.email, c.points])).toEqual([
      ['ada@example.com', 7],
      ['Ada@example.com', 5],
    ]);
  });

  it('reports each bad row with its number and reason, imports the good ones, and offers them as CSV', async () => {
    const t = await makeApp();
    const tier = await t.call('POST', '/api/kinds/tier.tier/docs', { data: { name: 'Gold' } });
    expect(tier.status).toBe(201);
    const tierId = ((await tier.json()) as { data: { id: string } }).data.id;
    const text = [
      TEMPLATE,
      '1001,ok@example.com,,Ok,Row,10,02/29,gold', // row 2: good (tier by name, any case)
      ',,,No,Identifier,5,,', // 3
      '1003,neg@example.com,,,,-5,,', // 4
      '1004,nan@example.com,,,,ten,,', // 5
      '1005,ok@example.com,,,,1,,', // 6: duplicate e-mail
      '1006,bday@example.com,,,,1,13/01,', // 7
      '1007,tier@example.com,,,,1,,Platinum', // 8
      '1008,cmd@example.com,,=cmd,,abc,,', // 9: bad points, and a name a spreadsheet would run
    ].join('\n');
    const done = await importCsv(t, text);
    expect(done).toMatchObject({ status: 'completed', totalRows: 8, processedRows: 8, importedRows: 1, failedRows: 7, pointsAwarded: 10 });
    const list = await customers(t);
    expect(list.map((c) => [c.id, c.points, c.birthday, c.tierId])).toEqual([['1001', 10, '02/29', tierId]]);
    const csv = await errorsCsv(t, done.id);
    expect(csv.split('\r\n')).toEqual([
      `Row,Reason,${TEMPLATE}`,
      '3,"Missing identifier: Customer ID, Email or Phone",,,,No,Identifier,5,,',
      '4,"Points must be a whole number from 0 to 1,000,000,000",1003,neg@example.com,,,,\'-5,,',
      '5,"Points must be a whole number from 0 to 1,000,000,000",1004,nan@example.com,,,,ten,,',
      '6,Duplicate email in this file (first on row 2),1005,ok@example.com,,,,1,,',
      '7,Birthday must be MM/DD,1006,bday@example.com,,,,1,13/01,',
      '8,Unknown tier: Platinum,1007,tier@example.com,,,,1,,Platinum',
      "9,\"Points must be a whole number from 0 to 1,000,000,000\",1008,cmd@example.com,,'=cmd,,abc,,",
      '',
    ]);
  });

  it('imports birthdays only (Email, Birthday) without touching names or points', async () => {
    const t = await makeApp();
    await importCsv(t, `${TEMPLATE}\n42,ada@example.com,,Ada,Lovelace,30,,\n`);
    const done = await importCsv(t, 'Email,Birthday\nada@example.com,7/4\nnew@example.com,\n', { kind: 'birthday' });
    expect(done).toMatchObject({ importedRows: 1, failedRows: 1 });
    const [ada] = await customers(t);
    expect([ada!.id, ada!.firstName, ada!.points, ada!.birthday]).toEqual(['42', 'Ada', 30, '07/04']);
    expect(await errorsCsv(t, done.id)).toContain('3,Birthday is required,new@example.com,');
    const profile = ((await (await t.call('GET', '/api/customers/42')).json()) as { data: { events: { kind: string; actor: string }[] } }).data;
    expect(profile.events.map((e) => [e.kind, e.actor])).toContainEqual(['birthday_changed', 'import']);
  });

  it('imports points (Email, Points, Create Date) dated by the Create Date', async () => {
    const t = await makeApp();
    const done = await importCsv(t, 'Email,Points,Create Date\nada@example.com,250,2024-03-05\nbob@example.com,,2024-03-05\ncy@example.com,5,yesterday\n', { kind: 'points' });
    expect(done).toMatchObject({ importedRows: 1, failedRows: 2, pointsAwarded: 250 });
    const activity = ((await (await t.call('GET', '/api/customers/email%3Aada%40example.com/activity')).json()) as { data: { points: number; createdAt: string }[] }).data;
    expect(activity).toEqual([expect.objectContaining({ points: 250, createdAt: '2024-03-05T00:00:00.000Z' })]);
    const csv = await errorsCsv(t, done.id);
    expect(csv).toContain('3,Points is required,bob@example.com');
    expect(csv).toContain('4,Create Date is not a valid date,cy@example.com');
  });

  it('ignores the tier column when the tier rule says so', async () => {
    const t = await makeApp();
    const done = await importCsv(t, `${TEMPLATE}\n1,a@example.com,,,,,,Platinum\n`, { tierRule: 'ignore' });
    expect(done).toMatchObject({ importedRows: 1, failedRows: 0 });
    expect((await customers(t))[0]!.tierId).toBeNull();
  });

  it('refuses a tier entered by another method than the VIP program (spec 002 §5)', async () => {
    const t = await makeApp();
    const make = async (data: Record<string, unknown>) => {
      const res = await t.call('POST', '/api/kinds/tier.tier/docs', { data });
      expect(res.status).toBe(201);
      return ((await res.json()) as { data: { id: string } }).data.id;
    };
    // No settings document: the program's method is its base tier's (points earned).
    const silver = await make({ name: 'Silver', entryMethod: 'points_earned' });
    await make({ name: 'Spender', entryMethod: 'amount_spent', entryRequirement: 100 });
    const done = await importCsv(t, `${TEMPLATE}\n1,a@example.com,,,,,,Silver\n2,b@example.com,,,,,,spender\n`);
    expect(done).toMatchObject({ status: 'completed', importedRows: 1, failedRows: 1 });
    expect((await customers(t)).map((c) => [c.id, c.tierId])).toEqual([['1', silver]]);
    expect((await errorsCsv(t, done.id)).split('\r\n')[1]).toBe('3,Tier Spender does not match the tier method (points earned),2,b@example.com,,,,,,spender');
  });

  it('writes batches: a second runner on the same import commits nothing twice', async () => {
    const t = await makeApp();
    const rows = Array.from({ length: 95 }, (_, i) => `${5000 + i},c${i}@example.com,,,,${i + 1},,`);
    const up = await upload(t, [TEMPLATE, ...rows].join('\n'));
    // Started through the service, so the app's own runner is not kicked.
    await startImport({ db: t.db }, SHOP, up.body.data.id, { mapping: up.body.data.guessedMapping as ColumnMapping, tierRule: 'ignore' });
    // Two runners race (as two server processes would); the claim and the cursor let one write each batch.
    const a = new ImportRunner({ db: t.db }, { batchRows: 10, lockSeconds: 60 });
    const b = new ImportRunner({ db: t.db }, { batchRows: 10, lockSeconds: 60 });
    const outcomes = await Promise.all([a.run(up.body.data.id), b.run(up.body.data.id)]);
    await importRunnerFor({ db: t.db }).whenIdle();
    expect(outcomes.filter((o) => o === 'completed')).toHaveLength(1);
    const list = await customers(t);
    expect(list).toHaveLength(95);
    expect(list.reduce((s, c) => s + c.points, 0)).toBe((95 * 96) / 2);
    const entries = await t.db.selectFrom('ledger_entries').select((eb) => eb.fn.countAll<number>().as('n')).where('source_type', '=', 'import').executeTakeFirstOrThrow();
    expect(Number(entries.n)).toBe(95);
    await expectLedgerTotalsAgree(t.db, SHOP, 95);
  });

  it("adds imported points to an existing customer's balance and lifetime points", async () => {
    const t = await makeApp();
    await t.call('POST', '/api/kinds/earning.place_order/docs', { data: placeOrderData({ earnPoint: 1, rateMoney: 1 }) });
    await t.deliverOrder(orderBody({ customer: { id: '556', email: 'grace@example.com', first_name: 'Grace', last_name: 'Hopper' } }, [{ price: '30.00' }]));
    const done = await importCsv(t, 'Email,Points,Create Date\ngrace@example.com,70,2024-03-05\nnew@example.com,9,2024-03-05\n', { kind: 'points' });
    expect(done).toMatchObject({ importedRows: 2, failedRows: 0, pointsAwarded: 79 });
    const profile = ((await (await t.call('GET', '/api/customers/556')).json()) as { data: { points: number; lifetimePoints: number } }).data;
    expect(profile).toMatchObject({ points: 100, lifetimePoints: 100 });
    await expectLedgerTotalsAgree(t.db, SHOP, 2);
  });

  it('refuses a second ledger entry for the same import row (unique source id)', async () => {
    const t = await makeApp();
    const done = await importCsv(t, `${TEMPLATE}\n77,a@example.com,,,,40,,\n`);
    const entry = await t.db.selectFrom('ledger_entries').selectAll().where('source_type', '=', 'import').executeTakeFirstOrThrow();
    expect(entry.source_id).toBe(`${done.id}:2`);
    await expect(t.db.transaction().execute((tx) => appendEntries(tx, [{ ...entry, id: 'another-entry' }]))).rejects.toThrow(/unique/i);
    expect((await customers(t))[0]!.points).toBe(40);
  });

  it('answers the mapping step again after a reload (?preview=1)', async () => {
    const t = await makeApp();
    const up = await upload(t, 'E-mail;Points\na@example.com;5\n');
    const again = ((await (await t.call('GET', `/api/customers/imports/${up.body.data.id}?preview=1`)).json()) as { data: ImportView }).data;
    expect(again.guessedMapping).toEqual({ 'E-mail': 'email', Points: 'points' });
    expect(again.preview).toEqual([['a@example.com', '5']]);
  });

  it('lists the history newest first', async () => {
    let clock = Date.parse('2025-01-01T00:00:00Z');
    const t = await makeApp({ now: () => new Date((clock += 1000)) });
    const first = await upload(t, 'Email\na@example.com\n', { fileName: 'first.csv' });
    const second = await upload(t, 'Email\nb@example.com\n', { fileName: 'second.csv' });
    const history = ((await (await t.call('GET', '/api/customers/imports')).json()) as { data: { id: string }[] }).data;
    expect(history.map((h) => h.id)).toEqual([second.body.data.id, first.body.data.id]);
    expect((await t.call('GET', '/api/customers/imports/nope')).status).toBe(404);
  });
});

describe('exporting customers', () => {
  it('streams the tab and search as CSV with formula cells escaped', async () => {
    const t = await makeApp();
    await importCsv(t, `${TEMPLATE}\n1,ada@example.com,'+15551234567,"=HYPERLINK(""x"")",@Lovelace,12,01/02,\n2,bob@example.com,,Bob,-Minus,3,,\n3,cy@example.com,,Cy,+Plus,0,,\n`);
    const res = await t.call('GET', '/api/customers/export.csv');
    expect(res.status).toBe(200);
    expect(res.headers.get('content-disposition')).toMatch(/^attachment; filename="customers-all-/);
    const bytes = new Uint8Array(await res.arrayBuffer());
    expect([...bytes.slice(0, 3)]).toEqual([0xef, 0xbb, 0xbf]); // UTF-8 byte-order mark, for spreadsheets
    const lines = new TextDecoder().decode(bytes).split('\r\n');
    expect(lines[0]).toBe('Customer ID,Email,Phone,First Name,Last Name,Points,Birthday,Tier,Type,Last Update');
    expect(lines[1]).toMatch(/^1,ada@example.com,'\+15551234567,"'=HYPERLINK\(""x""\)",'@Lovelace,12,01\/02,,Member,/);
    expect(lines[2]).toMatch(/^2,bob@example.com,,Bob,'-Minus,3,,,Member,/);
    expect(lines[3]).toMatch(/^3,cy@example.com,,Cy,'\+Plus,0,,,Member,/);
    expect(lines).toHaveLength(5);
  });

  it('escapes cells starting with a tab or carriage return, and leaves numbers alone', () => {
    expect([csvCell('\tx'), csvCell('\rx'), csvCell(-5), csvCell('a,b'), csvCell('plain')]).toEqual(["'\tx", '"\'\rx"', '-5', '"a,b"', 'plain']);
  });

  it('filters like the list: search by full e-mail or name start, and by tab', async () => {
    const t = await makeApp();
    await importCsv(t, `${TEMPLATE}\n1,ada@example.com,,Ada,A,,,\n2,bob@example.com,,Bob,B,,,\n3,ann@example.com,,Ann,C,,,\n`);
    const ids = async (query: string) => {
      const csv = await (await t.call('GET', `/api/customers/export.csv${query}`)).text();
      return csv.split('\r\n').slice(1, -1).map((l) => l.split(',')[0]);
    };
    const listed = async (query: string) => ((await (await t.call('GET', `/api/customers${query}`)).json()) as { data: { id: string }[] }).data.map((c) => c.id).sort();
    expect(await ids('?search=a')).toEqual(['1', '3']);
    expect(await ids('?search=a')).toEqual(await listed('?search=a'));
    expect(await ids('?search=BOB%40example.com')).toEqual(['2']);
    expect(await ids('?tab=guest')).toEqual([]);
    expect((await t.call('GET', '/api/customers/export.csv?tab=vip')).status).toBe(400);
  });

  it('exports the customers selected on the list (bulk action), within the tab', async () => {
    const t = await makeApp();
    await importCsv(t, `${TEMPLATE}
1,ada@example.com,,Ada,A,,,
2,bob@example.com,,Bob,B,,,
3,ann@example.com,,Ann,C,,,
`);
    const ids = async (query: string) => (await (await t.call('GET', `/api/customers/export.csv${query}`)).text()).split('\r\n').slice(1, -1).map((l) => l.split(',')[0]);
    expect(await ids('?id=3&id=1&id=1')).toEqual(['1', '3']);
    expect(await ids('?id=3&tab=guest')).toEqual([]);
    const tooMany = await t.call('GET', `/api/customers/export.csv?${Array.from({ length: 101 }, (_, i) => `id=${i}`).join('&')}`);
    expect(tooMany.status).toBe(400);
    expect(((await tooMany.json()) as { error: { details: Issue[] } }).error.details[0]!.path).toBe('id');
  });
});

describe('a server killed mid-import', () => {
  const serverEnv = (databasePath: string): Record<string, string> => ({ DATABASE_PATH: databasePath, DATABASE_URL: '', SHOPIFY_API_SECRET: '', LOG_LEVEL: 'warn', IMPORT_LOCK_SECONDS: '1', WEBHOOK_WORKERS: '0', VITEST: '' });

  it('resumes after SIGKILL from the committed batch and imports every row exactly once', async () => {
    const ROWS = 60_000;
    const dir = mkdtempSync(join(tmpdir(), 'import-crash-'));
    const databasePath = join(dir, 'db.sqlite');
    const file = join(dir, 'big.csv');
    const lines = [TEMPLATE];
    for (let i = 0; i < ROWS; i++) lines.push(`${9_000_000 + i},c${i}@example.com,,Ada,L${i},${(i % 97) + 1},,`);
    writeFileSync(file, lines.join('\n'));
    const expectedPoints = Array.from({ length: ROWS }, (_, i) => (i % 97) + 1).reduce((a, b) => a + b, 0);
    const port = await freePort();
    const token = await signSessionToken({ apiKey: DEMO.apiKey, apiSecret: DEMO.apiSecret, demo: true }, DEMO.shopDomain);
    const headers = { Authorization: `Bearer ${token}` };

    let server = await startServer(serverEnv(databasePath), port);
    const { readFileSync } = await import('node:fs');
    const up = await fetch(`http://localhost:${port}/api/customers/imports?fileName=big.csv`, { method: 'POST', headers: { ...headers, 'Content-Type': 'text/csv' }, body: readFileSync(file) });
    expect(up.status).toBe(201);
    const uploaded = ((await up.json()) as { data: ImportView }).data;
    const start = await fetch(`http://localhost:${port}/api/customers/imports/${uploaded.id}/start`, { method: 'POST', headers: { ...headers, 'Content-Type': 'application/json' }, body: JSON.stringify({ mapping: uploaded.guessedMapping, tierRule: 'ignore' }) });
    expect(start.status).toBe(202);
    const peek = new SQLite(databasePath, { readonly: true });
    const processed = () => (peek.prepare('select processed_rows as n from customer_imports where id = ?').get(uploaded.id) as { n: number }).n;
    for (let i = 0; i < 3000 && processed() < 4000; i++) await new Promise((r) => setTimeout(r, 5));
    server.child.kill('SIGKILL');
    await server.exited;
    const atKill = processed();
    peek.close();
    expect(atKill).toBeGreaterThan(0);
    expect(atKill).toBeLessThan(ROWS);

    server = await startServer(serverEnv(databasePath), port);
    let view: ImportView | undefined;
    for (let i = 0; i < 600; i++) {
      view = ((await (await fetch(`http://localhost:${port}/api/customers/imports/${uploaded.id}`, { headers })).json()) as { data: ImportView }).data;
      if (view.status === 'completed' || view.status === 'failed') break;
      await new Promise((r) => setTimeout(r, 100));
    }
    server.child.kill('SIGTERM');
    await server.exited;
    expect(view).toMatchObject({ status: 'completed', processedRows: ROWS, importedRows: ROWS, failedRows: 0, pointsAwarded: expectedPoints });

    const db = new SQLite(databasePath, { readonly: true });
    const perRow = db.prepare("select count(*) as entries, count(distinct source_id) as rows, sum(points) as points from ledger_entries where source_type = 'import'").get() as { entries: number; rows: number; points: number };
    expect(perRow).toEqual({ entries: ROWS, rows: ROWS, points: expectedPoints });
    const balances = db.prepare("select count(*) as n, sum(points_balance) as points from customers where shop_id = ? and email like 'c%@example.com'").get(DEMO.shopDomain) as { n: number; points: number };
    expect(balances).toEqual({ n: ROWS, points: expectedPoints });
    db.close();
  }, 180_000);
});

