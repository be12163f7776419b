/**
 * The webhook processing thread (issue 14): on SQLite it is the file's one writer, so the serving
 * thread hands deliveries to it and stores them itself only when the thread cannot; its worker
 * runs without the serving thread's preloads.
 */
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import SQLite from 'better-sqlite3';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { openDatabase } from '../../server/db/database';
import { isBusy, storeWithoutWaiting } from '../../server/webhooks/intake';
import { ProcessingThread, startWithFlags, workerExecArgv } from '../../server/webhooks/thread';
import { WebhookQueue, type NewDelivery } from '../../server/webhooks/queue';
import { Worker } from 'node:worker_threads';
import { createLogger } from '../../server/logging';
import { AUTH, makeApp, repoRegistry, ROOT, SHOP } from '../support/app';

const delivery = (webhookId: string): NewDelivery => ({ shopId: SHOP, topic: 'orders/create', webhookId, orderKey: 'o1', body: '{"id":"o1"}' });
const rows = async (db: Awaited<ReturnType<typeof makeApp>>['db']) => db.selectFrom('webhook_deliveries').select(['id', 'webhook_id']).execute();

describe('worker flags', () => {
  it('drops the preloads (--import, --require, --loader, -r) and keeps the rest', () => {
    expect(workerExecArgv(['--import', 'tsx', '--cpu-prof', '--require=./x.cjs', '-r', 'y', '--loader', 'z', '--experimental-loader=w', '--max-old-space-size=256'])).toEqual(['--cpu-prof', '--max-old-space-size=256']);
    expect(workerExecArgv([])).toEqual([]);
  });

  /** Starts a worker through startWithFlags under `parent` flags; answers the flags it runs with. */
  const workerFlags = async (parent: string[]): Promise<string[]> => {
    const worker = startWithFlags((execArgv) => new Worker("require('node:worker_threads').parentPort.postMessage(process.execArgv)", { eval: true, execArgv }), parent);
    const flags = await new Promise<string[]>((resolve, reject) => {
      worker.once('message', resolve);
      worker.once('error', reject);
    });
    await worker.terminate();
    return flags;
  };

  it('starts a worker under V8 and whole-process flags (node --max-old-space-size=… failed to start the app), keeping the flags a worker takes', async () => {
    // Each of these alone makes Node refuse a worker's execArgv (ERR_WORKER_INVALID_EXEC_ARGV).
    for (const refused of ['--max-old-space-size=256', '--stack-size=2000', '--expose-gc', '--title=loyalty']) {
      expect(() => new Worker('0', { eval: true, execArgv: [refused] })).toThrow(expect.objectContaining({ code: 'ERR_WORKER_INVALID_EXEC_ARGV' }));
    }
    expect(await workerFlags(['--import', 'tsx', '--max-old-space-size=256', '--no-deprecation', '--stack-size=2000', '--expose-gc', '--enable-source-maps', '--title=loyalty'])).toEqual(['--no-deprecation', '--enable-source-maps']);
    expect(await workerFlags(['--max-old-space-size=256'])).toEqual([]);
  });

  it('throws what is not about flags', () => {
    expect(() => startWithFlags(() => { throw new Error('no such file'); }, ['--max-old-space-size=256'])).toThrow('no such file');
  });
});

describe('storing through another writer', () => {
  it('returns what the writer stored and writes nothing itself', async () => {
    const t = await makeApp();
    const handed: NewDelivery[] = [];
    const queue = new WebhookQueue({ db: t.db, registry: repoRegistry(), auth: AUTH }, { store: (d) => (handed.push(d), Promise.resolve({ id: 'stored-elsewhere', duplicate: false })) });
    await queue.stop();
    expect(await queue.enqueue(delivery('w1'))).toEqual({ id: 'stored-elsewhere', duplicate: false });
    expect(handed.map((d) => d.webhookId)).toEqual(['w1']);
    expect(await rows(t.db)).toEqual([]);
  });

  it('stores the delivery itself when the writer refuses, and once only by webhook id', async () => {
    const t = await makeApp();
    const queue = new WebhookQueue({ db: t.db, registry: repoRegistry(), auth: AUTH }, { store: () => Promise.reject(new Error('the webhook processing thread is not running')) });
    await queue.stop();
    const first = await queue.enqueue(delivery('w2'));
    expect(first.duplicate).toBe(false);
    expect(await queue.enqueue(delivery('w2'))).toEqual({ id: first.id, duplicate: true });
    expect(await rows(t.db)).toEqual([{ id: first.id, webhook_id: 'w2' }]);
  });
});

describe('the processing thread as the writer', () => {
  let thread: ProcessingThread | null = null;
  afterEach(async () => {
    await thread?.stop();
    thread = null;
  });

  it('stores handed deliveries (a redelivery as a duplicate) and refuses once stopped', async () => {
    const path = join(mkdtempSync(join(tmpdir(), 'thread-')), 'db.sqlite');
    const t = await makeApp({ databasePath: path });
    thread = new ProcessingThread({ databaseLocation: path, sqliteSynchronous: 'normal', schemasDir: join(ROOT, 'schemas'), auth: AUTH, lockSeconds: 30, logLevel: 'silent' }, createLogger('silent'));
    await expect(thread.enqueue(delivery('w3'))).rejects.toThrow('not running');
    await thread.start();
    const stored = await thread.enqueue(delivery('w3'));
    expect(stored.duplicate).toBe(false);
    expect(await thread.enqueue(delivery('w3'))).toEqual({ id: stored.id, duplicate: true });
    expect((await rows(t.db)).map((r) => r.id)).toEqual([stored.id]);
    await thread.stop();
    await expect(thread.enqueue(delivery('w4'))).rejects.toThrow('not running');
    thread = null;
    await t.db.destroy();
  }, 30_000);
});

describe('storing from the serving thread without waiting on the lock', () => {
  it('retries while another connection holds the write lock, serving the event loop meanwhile, then stores once', async () => {
    const path = join(mkdtempSync(join(tmpdir(), 'intake-')), 'db.sqlite');
    const t = await makeApp({ databasePath: path });
    const intakeDb = await openDatabase(path, { checkpointer: false, busyTimeoutMs: 0, safetyNetCheckpoint: false });
    const intake = new WebhookQueue({ db: intakeDb, registry: repoRegistry(), auth: AUTH }, { notify: () => undefined });
    const holder = new SQLite(path);
    holder.exec('BEGIN IMMEDIATE'); // the processing thread mid-transaction
    const fallback = vi.fn(() => Promise.reject(new Error('not expected')));
    const storing = storeWithoutWaiting(intake, fallback)(delivery('w5'));
    let ticks = 0;
    const ticker = setInterval(() => ticks++, 1);
    // 100 ms: on a busy CI machine a 1 ms interval ticked only 5 times in 30 ms. A store that slept
    // in SQLite's busy handler would hold the loop for the whole retry time (2 s): a tick or none.
    await new Promise((r) => setTimeout(r, 100));
    expect(ticks).toBeGreaterThan(5); // the loop kept turning while the store waited
    holder.exec('COMMIT');
    const stored = await storing;
    clearInterval(ticker);
    expect(stored.duplicate).toBe(false);
    expect(fallback).not.toHaveBeenCalled();
    expect(await rows(t.db)).toEqual([{ id: stored.id, webhook_id: 'w5' }]);
    holder.close();
    await intakeDb.destroy();
    await t.db.destroy();
  });

  it('hands the delivery to the fallback when the lock stays taken, and on any other error', async () => {
    const busy = Object.assign(new Error('database is locked'), { code: 'SQLITE_BUSY' });
    const fallback = vi.fn((_d: NewDelivery) => Promise.resolve({ id: 'from-thread', duplicate: false }));
    expect(await storeWithoutWaiting({ enqueue: () => Promise.reject(busy) }, fallback, 20)(delivery('w6'))).toEqual({ id: 'from-thread', duplicate: false });
    expect(await storeWithoutWaiting({ enqueue: () => Promise.reject(new Error('disk full')) }, fallback, 20)(delivery('w7'))).toEqual({ id: 'from-thread', duplicate: false });
    expect(fallback.mock.calls.map(([d]) => d.webhookId)).toEqual(['w6', 'w7']);
    expect(isBusy(busy)).toBe(true);
    expect(isBusy(Object.assign(new Error('x'), { code: 'SQLITE_BUSY_SNAPSHOT' }))).toBe(true);
    expect(isBusy(new Error('x'))).toBe(false);
  });
});
