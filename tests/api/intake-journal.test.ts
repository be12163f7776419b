/**
 * The intake journal and the processing thread's group commit (issue 14 "Webhooks off the request
 * path"): on SQLite with a processing thread, the serving thread appends each delivery to a file
 * and answers; the thread stores deliveries in batches and commits several deliveries' awards at
 * once. Nothing answered is lost, nothing is stored or awarded twice.
 */
import { spawn, spawnSync } from 'node:child_process';
import { appendFileSync, existsSync, mkdtempSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import SQLite from 'better-sqlite3';
import { afterEach, describe, expect, it } from 'vitest';
import { forgetGroupReads, groupCommitOf, openDatabase, readOncePerGroup } from '../../server/db/database';
import { newShopRow } from '../../server/store/shops';
import { createLogger } from '../../server/logging';
import { storeThroughJournal } from '../../server/webhooks/intake';
import { clearJournal, IntakeJournal, journalSegments, readJournal, type JournalRecord } from '../../server/webhooks/journal';
import { nextSeq, WebhookQueue, type NewDelivery } from '../../server/webhooks/queue';
import { ProcessingThread } from '../../server/webhooks/thread';
import { DEMO } from '../../server/config';
import { webhookHmac } from '../../server/webhook-hmac';
import { AUTH, makeApp, repoRegistry, ROOT, SHOP } from '../support/app';
import { orderBody, placeOrderData } from '../support/factories';
import { freePort, startServer } from '../support/server-process';

const require = createRequire(import.meta.url);
/** Linux's SCHED_IDLE policy number, as /proc shows it. */
const SCHED_IDLE = 5;
/** The scheduling policy of each thread of this process (field 41 of /proc/self/task/<tid>/stat). */
const threadPolicies = (): number[] =>
  readdirSync('/proc/self/task').map((tid) => Number(readFileSync(`/proc/self/task/${tid}/stat`, 'utf8').split(') ')[1]!.split(' ')[38]));
const hasChrt = (): boolean => spawnSync('chrt', ['--version']).status === 0 && existsSync('/proc/thread-self');
const dbPath = (name: string): string => join(mkdtempSync(join(tmpdir(), `${name}-`)), 'db.sqlite');
const record = (n: number, webhookId: string | null = `wh-${n}`): JournalRecord => ({ id: `00000000-0000-4000-8000-${String(n).padStart(12, '0')}`, seq: nextSeq(), receivedAt: new Date().toISOString(), shopId: SHOP, topic: 'orders/create', webhookId, orderKey: `o${n}`, body: JSON.stringify({ id: n, note: 'a "quoted"\nline' }) });

describe('the intake journal file', () => {
  it('keeps each record as one line until it is settled, and reads them back in order', () => {
    const path = dbPath('journal');
    const journal = new IntakeJournal(path);
    const segment = journal.append(record(1));
    journal.append(record(2));
    expect(journalSegments(path)).toEqual([`${path}-intake-1.jsonl`]);
    expect(readJournal(path).map((r) => [r.id, r.body])).toEqual([
      [record(1).id, record(1).body],
      [record(2).id, record(2).body],
    ]);
    expect(journal.unsettled).toBe(2);
    journal.settle(segment);
    journal.settle(segment);
    expect(journal.unsettled).toBe(0);
    // The segment being written stays until it is closed with nothing unsettled.
    expect(existsSync(`${path}-intake-1.jsonl`)).toBe(true);
    journal.close();
    expect(journalSegments(path)).toEqual([]);
  });

  it('starts a new segment past its size and deletes a full one once everything in it is settled', () => {
    const path = dbPath('journal-rotate');
    const journal = new IntakeJournal(path, 200);
    const first = journal.append(record(1));
    const second = journal.append(record(2)); // the first segment is past 200 bytes: a new one
    expect(second).toBe(first + 1);
    expect(journalSegments(path).length).toBe(2);
    journal.settle(first);
    expect(journalSegments(path)).toEqual([`${path}-intake-${second}.jsonl`]);
    // Closed with a record unsettled: the file stays for the next start.
    journal.close();
    expect(readJournal(path).map((r) => r.orderKey)).toEqual(['o2']);
    clearJournal(path);
    expect(journalSegments(path)).toEqual([]);
  });

  it('skips a last line cut short (the process died inside the write: never answered)', () => {
    const path = dbPath('journal-torn');
    writeFileSync(`${path}-intake-3.jsonl`, `${JSON.stringify(record(1))}\n`);
    appendFileSync(`${path}-intake-3.jsonl`, JSON.stringify(record(2)).slice(0, 40));
    expect(readJournal(path).map((r) => r.orderKey)).toEqual(['o1']);
    // A new journal continues after the segments present.
    const journal = new IntakeJournal(path);
    expect(journal.append(record(3))).toBe(4);
    journal.close();
  });
});

describe('storing journaled records', () => {
  it('stores each once with its arrival id and order, and a replay or a redelivered webhook id as a duplicate', async () => {
    const t = await makeApp({ databasePath: dbPath('records') });
    const queue = new WebhookQueue({ db: t.db, registry: repoRegistry(), auth: AUTH }, {});
    await queue.stop();
    const records = [record(1), record(2), record(3, null)];
    expect(await queue.storeRecords(records)).toEqual(records.map((r) => ({ id: r.id, duplicate: false })));
    // The same records again (a journal replayed after a crash), and another delivery of webhook wh-1.
    expect(await queue.storeRecords([...records, { ...record(9), webhookId: 'wh-1' }])).toEqual([...records.map((r) => ({ id: r.id, duplicate: true })), { id: record(9).id, duplicate: true }]);
    const stored = await t.db.selectFrom('webhook_deliveries').select(['id', 'seq', 'status', 'order_key']).orderBy('seq').execute();
    expect(stored).toEqual(records.map((r) => ({ id: r.id, seq: r.seq, status: 'queued', order_key: r.orderKey })));
    expect((await t.db.selectFrom('webhook_delivery_bodies').select('body').where('delivery_id', '=', records[0]!.id).executeTakeFirstOrThrow()).body).toBe(records[0]!.body);
    await t.db.destroy();
  });
});

describe('the serving thread through the journal', () => {
  const delivery = (webhookId: string | null): NewDelivery => ({ shopId: SHOP, topic: 'orders/create', webhookId, orderKey: 'o1', body: '{"id":1}' });

  it('answers before the thread stored the delivery, settles the journal once it did, and knows a recent redelivery', async () => {
    const path = dbPath('through');
    const journal = new IntakeJournal(path);
    const handed: JournalRecord[] = [];
    let release!: () => void;
    const stored = new Promise<void>((resolve) => (release = resolve));
    const store = storeThroughJournal({
      journal,
      handOver: (r) => (handed.push(r), stored),
      threadRunning: () => true,
      storedWebhook: async () => null,
      storeHere: () => Promise.reject(new Error('not expected')),
      direct: () => Promise.reject(new Error('not expected')),
    });
    const first = await store(delivery('w1'));
    expect(first.duplicate).toBe(false);
    expect(handed.map((r) => [r.id, r.webhookId])).toEqual([[first.id, 'w1']]);
    expect(readJournal(path).map((r) => r.id)).toEqual([first.id]);
    expect(await store(delivery('w1'))).toEqual({ id: first.id, duplicate: true });
    expect(handed.length).toBe(1);
    release();
    await new Promise((r) => setTimeout(r, 10));
    expect(journal.unsettled).toBe(0);
    journal.close();
    expect(journalSegments(path)).toEqual([]);
  });

  it('stores the record itself when the thread fails, and uses the direct store while the thread is down', async () => {
    const path = dbPath('through-fail');
    const journal = new IntakeJournal(path);
    const here: JournalRecord[][] = [];
    const direct: NewDelivery[] = [];
    let running = true;
    const store = storeThroughJournal({
      journal,
      handOver: () => Promise.reject(new Error('the webhook processing thread exited')),
      threadRunning: () => running,
      storedWebhook: async (_shop, id) => (id === 'old' ? 'first-id' : null),
      storeHere: async (records) => void here.push(records),
      direct: async (d) => (direct.push(d), { id: 'direct', duplicate: false }),
      logger: createLogger('silent'),
    });
    const answer = await store(delivery('w2'));
    await new Promise((r) => setTimeout(r, 10));
    expect(here.map((rs) => rs.map((r) => r.id))).toEqual([[answer.id]]);
    expect(journal.unsettled).toBe(0);
    // A webhook id already stored (read from the database) is a duplicate without a journal line.
    expect(await store(delivery('old'))).toEqual({ id: 'first-id', duplicate: true });
    running = false;
    expect(await store(delivery('w3'))).toEqual({ id: 'direct', duplicate: false });
    expect(direct.map((d) => d.webhookId)).toEqual(['w3']);
    journal.close();
  });
});

describe('group commit on the processing connection', () => {
  it('makes each transaction a savepoint: a failed one is undone alone, and nothing is visible before the group commits', async () => {
    const path = dbPath('group');
    const t = await makeApp({ databasePath: path });
    const db = await openDatabase(path, { checkpointer: false, groupCommit: true });
    const group = groupCommitOf(db)!;
    expect(groupCommitOf(t.db)).toBeUndefined();
    const peek = new SQLite(path, { readonly: true });
    const names = () => (peek.prepare("select name from shops where id like 'g%' order by id").all() as { name: string }[]).map((r) => r.name);
    const insert = (id: string) => db.insertInto('shops').values({ id, name: id, email: '', plan: 'free', currency: 'USD', iana_timezone: 'UTC', settings: '{}', created_at: '2026-01-01', updated_at: '2026-01-01' }).execute();

    group.begin();
    expect(group.active).toBe(true);
    await db.transaction().execute(async (tx) => {
      await tx.insertInto('shops').values({ id: 'g1', name: 'g1', email: '', plan: 'free', currency: 'USD', iana_timezone: 'UTC', settings: '{}', created_at: '2026-01-01', updated_at: '2026-01-01' }).execute();
    });
    await expect(
      db.transaction().execute(async (tx) => {
        await tx.insertInto('shops').values({ id: 'g2', name: 'g2', email: '', plan: 'free', currency: 'USD', iana_timezone: 'UTC', settings: '{}', created_at: '2026-01-01', updated_at: '2026-01-01' }).execute();
        throw new Error('this delivery fails');
      }),
    ).rejects.toThrow('this delivery fails');
    await insert('g3');
    expect(names()).toEqual([]); // another connection sees nothing yet
    group.commit();
    expect(names()).toEqual(['g1', 'g3']);

    // A group rolled back takes all of its transactions with it.
    group.begin();
    await db.transaction().execute(async (tx) => void (await tx.updateTable('shops').set({ name: 'changed' }).where('id', '=', 'g1').execute()));
    group.rollback();
    expect(names()).toEqual(['g1', 'g3']);
    // Outside a group, a transaction commits on its own.
    await insert('g4');
    expect(names()).toEqual(['g1', 'g3', 'g4']);
    peek.close();
    await db.destroy();
    await t.db.destroy();
  });
});

describe('reads kept for one group commit (readOncePerGroup)', () => {
  it('reads once inside a group, again in the next one, every time outside one or on another connection, and never keeps a failure', async () => {
    const path = dbPath('group-reads');
    const t = await makeApp({ databasePath: path });
    const db = await openDatabase(path, { checkpointer: false, groupCommit: true });
    const group = groupCommitOf(db)!;
    let loads = 0;
    const load = async () => ++loads;
    expect([await readOncePerGroup(db, 'k', load), await readOncePerGroup(db, 'k', load)]).toEqual([1, 2]);
    group.begin();
    expect([await readOncePerGroup(db, 'k', load), await readOncePerGroup(db, 'k', load), await readOncePerGroup(db, 'other', load)]).toEqual([3, 3, 4]);
    forgetGroupReads(db);
    expect(await readOncePerGroup(db, 'k', load)).toBe(5);
    await expect(readOncePerGroup(db, 'failing', () => Promise.reject(new Error('boom')))).rejects.toThrow('boom');
    expect(await readOncePerGroup(db, 'failing', load)).toBe(6);
    group.commit();
    group.begin();
    expect(await readOncePerGroup(db, 'k', load)).toBe(7);
    group.rollback();
    expect(await readOncePerGroup(db, 'k', load)).toBe(8);
    expect(await readOncePerGroup(t.db, 'k', load)).toBe(9);
    await db.destroy();
    await t.db.destroy();
  });

  it('awards each order by the programs as they were when its group began: a change saved between groups counts for the next order', async () => {
    const path = dbPath('group-reads-orders');
    const t = await makeApp({ databasePath: path });
    await t.queue.stop(); // only the group queue below processes
    const created = await t.call('POST', '/api/kinds/earning.place_order/docs', { data: placeOrderData({ earnPoint: 1, rateMoney: 1 }) });
    const program = ((await created.json()) as { data: { id: string; data: Record<string, unknown> } }).data;
    const db = await openDatabase(path, { checkpointer: false, groupCommit: true });
    // Processed in groups (as the processing thread does) when kicked: enqueue alone does not process.
    const queue = new WebhookQueue({ db, registry: repoRegistry(), auth: AUTH }, { claimBatch: 16 });
    const order = (n: number): NewDelivery => {
      const body = orderBody({ id: 9_300_000 + n, customer: { id: 501, email: 'r@example.com' } });
      return { shopId: SHOP, topic: 'orders/create', webhookId: `reads-${n}`, orderKey: String(9_300_000 + n), body: JSON.stringify(body) };
    };
    const points = async () => (await t.db.selectFrom('ledger_entries').select(['source_id', 'points']).where('shop_id', '=', SHOP).orderBy('source_id').execute()).map((r) => r.points);
    for (const n of [1, 2, 3]) await queue.enqueue(order(n));
    queue.kick();
    await queue.drain();
    const before = await points();
    expect(before).toHaveLength(3);
    expect(new Set(before).size).toBe(1);
    // The merchant triples the rate between groups (through the admin, another connection).
    const saved = await t.call('PUT', `/api/kinds/earning.place_order/docs/${program.id}`, { version: 1, data: { ...program.data, earnPoint: 3 } });
    expect(saved.status).toBe(200);
    await queue.enqueue(order(4));
    queue.kick();
    await queue.drain();
    expect(await points()).toEqual([...before, before[0]! * 3]);
    await queue.stop();
    await db.destroy();
    await t.db.destroy();
  });
});

describe('the processing thread with the journal', () => {
  let thread: ProcessingThread | null = null;
  afterEach(async () => {
    await thread?.stop();
    thread = null;
  });

  it('stores handed records in batches and awards each order once, committed in groups', async () => {
    const path = dbPath('thread-journal');
    const t = await makeApp({ databasePath: path });
    thread = new ProcessingThread({ databaseLocation: path, sqliteSynchronous: 'normal', schemasDir: join(ROOT, 'schemas'), auth: AUTH, lockSeconds: 30, logLevel: 'silent' }, createLogger('silent'));
    await expect(thread.store(record(1))).rejects.toThrow('not running');
    const idleThreads = () => threadPolicies().filter((policy) => policy === SCHED_IDLE).length;
    // The database's checkpointer thread (started with the app) goes idle by itself: wait until the count settles.
    let idleBefore = idleThreads();
    for (let steady = 0, until = Date.now() + 5000; steady < 3 && Date.now() < until; ) {
      await new Promise((r) => setTimeout(r, 100));
      const now = idleThreads();
      steady = now === idleBefore ? steady + 1 : 0;
      idleBefore = now;
    }
    await thread.start();
    // The thread put itself under SCHED_IDLE (Linux with util-linux's chrt, as on CI).
    if (hasChrt()) expect(idleThreads()).toBeGreaterThan(idleBefore);
    const orders = Array.from({ length: 40 }, (_, i) => ({ ...record(100 + i), orderKey: String(9_100_000 + i), body: JSON.stringify({ id: 9_100_000 + i, currency: 'USD', total_price: '100.00', subtotal_price: '100.00', financial_status: 'paid', created_at: '2026-11-01T10:00:00Z', customer: { id: 77, email: 'j@example.com' }, line_items: [{ id: 1, price: '100.00', quantity: 1, product_id: 5 }] }) }));
    const answers = await Promise.all(orders.map((r) => thread!.store(r)));
    expect(answers).toEqual(orders.map((r) => ({ id: r.id, duplicate: false })));
    // The same records again: stored once.
    expect((await Promise.all(orders.slice(0, 3).map((r) => thread!.store(r)))).map((a) => a.duplicate)).toEqual([true, true, true]);
    const done = async () => Number((await t.db.selectFrom('webhook_deliveries').select((eb) => eb.fn.countAll().as('n')).where('status', '=', 'done').executeTakeFirstOrThrow()).n);
    for (const until = Date.now() + 20_000; Date.now() < until && (await done()) < orders.length; ) await new Promise((r) => setTimeout(r, 20));
    expect(await done()).toBe(orders.length);
    const receipts = await t.db.selectFrom('webhook_receipts').select('resource_id').where('topic', '=', 'orders/create').execute();
    expect(new Set(receipts.map((r) => r.resource_id)).size).toBe(orders.length);
    expect(receipts.length).toBe(orders.length);
    await thread.stop();
    thread = null;
    await t.db.destroy();
  }, 30_000);
});

describe('a server killed right after its answers', () => {
  it('stores and awards at its next start every delivery it answered, each once, with no redelivery', async () => {
    const path = dbPath('killed');
    const port = await freePort();
    const env = { DATABASE_PATH: path, DATABASE_URL: '', SHOPIFY_API_SECRET: '', LOG_LEVEL: 'warn', WEBHOOK_LOCK_SECONDS: '1' };
    let server = await startServer(env, port);
    const bodies = Array.from({ length: 200 }, (_, i) => JSON.stringify(orderBody({ id: String(7_100_000_000 + i), customer: { id: String(2000 + (i % 20)), email: `k${i % 20}@example.com`, first_name: 'K', last_name: String(i % 20) } })));
    const deliver = (raw: string, webhookId: string) =>
      fetch(`http://localhost:${port}/api/webhooks/orders/create`, {
        method: 'POST',
        headers: { 'Content-Type': 'application/json', 'X-Shopify-Shop-Domain': DEMO.shopDomain, 'X-Shopify-Hmac-Sha256': webhookHmac(raw, DEMO.apiSecret), 'X-Shopify-Webhook-Id': webhookId },
        body: raw,
      }).then((r) => r.status);
    // The processing thread starts a moment after the first answer: wait until it has processed an order.
    expect(await deliver(JSON.stringify(orderBody({ id: '7099999999' })), 'kill-first')).toBe(200);
    const peek = new SQLite(path, { readonly: true });
    for (const until = Date.now() + 60_000; Date.now() < until; await new Promise((r) => setTimeout(r, 50))) {
      if ((peek.prepare("select count(*) as n from webhook_deliveries where status = 'done'").get() as { n: number }).n > 0) break;
    }
    peek.close();
    const statuses = await Promise.all(bodies.map((raw, i) => deliver(raw, `kill-${i}`)));
    expect(new Set(statuses)).toEqual(new Set([200]));
    server.child.kill('SIGKILL'); // at once: deliveries still in the journal, in the thread's hands, half processed
    await server.exited;
    // Every answered delivery is in the journal (the segment being written is only deleted at a clean stop).
    expect(new Set(readJournal(path).map((r) => r.webhookId))).toEqual(new Set(bodies.map((_, i) => `kill-${i}`)));
    server = await startServer(env, port);
    const db = new SQLite(path, { readonly: true });
    const pending = () => (db.prepare("select count(*) as n from webhook_deliveries where status != 'done'").get() as { n: number }).n;
    const total = () => (db.prepare('select count(*) as n from webhook_deliveries').get() as { n: number }).n;
    for (const until = Date.now() + 60_000; Date.now() < until && (total() < bodies.length + 1 || pending() > 0); ) await new Promise((r) => setTimeout(r, 50));
    server.child.kill('SIGTERM');
    await server.exited;
    expect(total()).toBe(bodies.length + 1);
    expect(pending()).toBe(0);
    const awards = db.prepare("select source_id, count(*) as n from ledger_entries where source_type = 'order' and points > 0 group by source_id").all() as { source_id: string; n: number }[];
    expect(awards.length).toBe(bodies.length + 1);
    expect(awards.every((a) => a.n === 1)).toBe(true);
    expect(journalSegments(path)).toEqual([]);
    db.close();
  }, 120_000);
});

describe('a transaction that reads, then writes, while another connection holds the write lock', () => {
  it('waits for the lock instead of failing with "database is locked" (transactions begin immediate)', async () => {
    const path = dbPath('upgrade');
    const t = await makeApp({ databasePath: path });
    // Another process takes the write lock for 300 ms.
    const holder = spawn(process.execPath, ['-e', `const db = new (require(${JSON.stringify(require.resolve('better-sqlite3'))}))(${JSON.stringify(path)}); db.exec('begin immediate'); process.stdout.write('locked'); Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, 300); db.exec('commit'); db.close();`], { stdio: ['ignore', 'pipe', 'inherit'] });
    await new Promise<void>((resolve) => holder.stdout.once('data', () => resolve()));
    const started = Date.now();
    await t.db.transaction().execute(async (tx) => {
      const shop = await tx.selectFrom('shops').select('name').where('id', '=', SHOP).executeTakeFirstOrThrow();
      await tx.updateTable('shops').set({ name: `${shop.name}!` }).where('id', '=', SHOP).execute();
    });
    expect(Date.now() - started).toBeGreaterThan(100); // it waited for the other connection
    expect((await t.db.selectFrom('shops').select('name').where('id', '=', SHOP).executeTakeFirstOrThrow()).name.endsWith('!')).toBe(true);
    // The holder may have exited already on a loaded machine (its exit is then not emitted again).
    if (holder.exitCode === null && holder.signalCode === null) await new Promise((resolve) => holder.once('exit', resolve));
    await t.db.destroy();
  });
});

describe('the serving thread waiting for the write lock', () => {
  /** Another process takes the write lock of `path` for `ms` milliseconds; resolves once it holds it. */
  const holdLock = async (path: string, ms: number): Promise<ReturnType<typeof spawn>> => {
    const holder = spawn(process.execPath, ['-e', `const db = new (require(${JSON.stringify(require.resolve('better-sqlite3'))}))(${JSON.stringify(path)}); db.exec('begin immediate'); process.stdout.write('locked'); Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, ${ms}); db.exec('commit'); db.close();`], { stdio: ['ignore', 'pipe', 'inherit'] });
    await new Promise<void>((resolve) => holder.stdout!.once('data', () => resolve()));
    return holder;
  };

  it('keeps the event loop turning while a transaction waits, and begins as soon as the lock is free', async () => {
    const path = dbPath('waiting');
    const db = await openDatabase(path);
    const holder = await holdLock(path, 200);
    // Timers keep firing while the transaction waits: SQLite's busy handler would sleep the thread instead.
    let ticks = 0;
    const ticker = setInterval(() => ticks++, 5);
    const started = Date.now();
    await db.transaction().execute((tx) => tx.insertInto('shops').values(newShopRow('waiting.myshopify.com', new Date().toISOString())).execute());
    const waited = Date.now() - started;
    clearInterval(ticker);
    expect(waited).toBeGreaterThan(100);
    expect(ticks).toBeGreaterThan(waited / 5 / 3);
    expect((await db.selectFrom('shops').select('id').where('id', '=', 'waiting.myshopify.com').execute()).length).toBe(1);
    // The holder may have exited already on a loaded machine (its exit is then not emitted again).
    if (holder.exitCode === null && holder.signalCode === null) await new Promise((resolve) => holder.once('exit', resolve));
    await db.destroy();
  });

  it('gives up with SQLITE_BUSY after its busy timeout, writing nothing', async () => {
    const path = dbPath('giving-up');
    const db = await openDatabase(path, { busyTimeoutMs: 100 });
    const holder = await holdLock(path, 600);
    const started = Date.now();
    const failed = await db
      .transaction()
      .execute((tx) => tx.insertInto('shops').values(newShopRow('late.myshopify.com', new Date().toISOString())).execute())
      .then(() => null, (e: unknown) => e as { code?: string });
    expect(failed?.code).toBe('SQLITE_BUSY');
    expect(Date.now() - started).toBeGreaterThanOrEqual(100);
    expect(Date.now() - started).toBeLessThan(500);
    // The holder may have exited already on a loaded machine (its exit is then not emitted again).
    if (holder.exitCode === null && holder.signalCode === null) await new Promise((resolve) => holder.once('exit', resolve));
    expect(await db.selectFrom('shops').select('id').where('id', '=', 'late.myshopify.com').execute()).toEqual([]);
    await db.destroy();
  });
});

