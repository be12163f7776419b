/**
 * The serving thread's writes go before the background threads' (server/db/write-priority.ts):
 * a redemption waiting for SQLite's write lock is counted in shared memory, a background thread's
 * BEGIN waits until it is served (at most BACKGROUND_YIELD_MS), and a group commit ends early.
 */
import { spawn } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Worker } from 'node:worker_threads';
import { describe, expect, it } from 'vitest';
import { directReaderOf, groupCommitOf, openDatabase } from '../../server/db/database';
import { WritePriority } from '../../server/db/write-priority';
import { newShopRow } from '../../server/store/shops';

const require = createRequire(import.meta.url);
const dbPath = (name: string): string => join(mkdtempSync(join(tmpdir(), `${name}-`)), 'db.sqlite');

/** A thread that calls `served()` on `priority` after `ms` milliseconds. */
function serveLater(priority: WritePriority, ms: number): Worker {
  return new Worker(`const { workerData } = require('node:worker_threads'); const cell = new Int32Array(workerData); setTimeout(() => { Atomics.sub(cell, 0, 1); Atomics.notify(cell, 0); }, ${ms});`, { eval: true, workerData: priority.buffer });
}

describe('WritePriority', () => {
  it('lets a background thread through at once when no serving writer waits', () => {
    expect(new WritePriority().yieldToServing(1000)).toBeLessThan(20);
  });

  it('holds a background thread until the waiting serving writer is served', async () => {
    const priority = new WritePriority();
    priority.waiting();
    expect(priority.wanted).toBe(true);
    const worker = serveLater(priority, 60);
    await new Promise((resolve) => worker.once('online', resolve));
    const waited = priority.yieldToServing(2000);
    expect(waited).toBeGreaterThan(30);
    expect(waited).toBeLessThan(1500);
    expect(priority.wanted).toBe(false);
    await worker.terminate();
  });

  it('never holds a background thread longer than its limit', () => {
    const priority = new WritePriority();
    priority.waiting();
    const waited = priority.yieldToServing(50);
    expect(waited).toBeGreaterThanOrEqual(49);
    expect(waited).toBeLessThan(500);
    priority.served();
  });
});

describe('the serving connection and a background connection on one file', () => {
  it('keeps the count raised between transactions queued on the serving connection', async () => {
    /** The count right after each `served`. */
    const after: number[] = [];
    class Recording extends WritePriority {
      override served(): void {
        super.served();
        after.push(this.count);
      }
    }
    const priority = new Recording();
    const serving = await openDatabase(dbPath('back-to-back'), { writePriority: priority });
    const insert = (id: string) => serving.transaction().execute((tx) => tx.insertInto('shops').values(newShopRow(id, new Date().toISOString())).execute());
    await Promise.all([insert('a.myshopify.com'), insert('b.myshopify.com'), insert('c.myshopify.com')]);
    await new Promise((resolve) => setImmediate(resolve));
    // Each transaction is served only after the next one began: the count reached zero once, at the end.
    expect(after).toEqual([2, 1, 0]);
    expect(priority.wanted).toBe(false);
    await serving.destroy();
  });

  it('counts a serving transaction in while it waits for the lock, and a group commit sees it', async () => {
    const path = dbPath('priority');
    const priority = new WritePriority();
    const serving = await openDatabase(path, { writePriority: priority });
    const background = await openDatabase(path, { checkpointer: false, spinOnBusy: true, groupCommit: true, writePriority: priority });
    const group = groupCommitOf(background)!;
    // Another process holds the write lock for 300 ms.
    const holder = spawn(process.execPath, ['-e', `const db = new (require(${JSON.stringify(require.resolve('better-sqlite3'))}))(${JSON.stringify(path)}); db.exec('begin immediate'); process.stdout.write('locked'); Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, 300); db.exec('commit'); db.close();`], { stdio: ['ignore', 'pipe', 'inherit'] });
    // Listened for now: on a loaded machine the holder may exit before the test reaches its end.
    const exited = new Promise((resolve) => holder.once('exit', resolve));
    await new Promise<void>((resolve) => holder.stdout!.once('data', () => resolve()));
    expect(group.yieldRequested).toBe(false);
    const write = serving.transaction().execute((tx) => tx.insertInto('shops').values(newShopRow('first.myshopify.com', new Date().toISOString())).execute());
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(priority.wanted).toBe(true);
    expect(group.yieldRequested).toBe(true);
    await write;
    // Served on the next turn of the event loop (a transaction queued behind it begins first).
    await new Promise((resolve) => setImmediate(resolve));
    expect(priority.wanted).toBe(false);
    expect(group.yieldRequested).toBe(false);
    await exited;
    await Promise.all([serving.destroy(), background.destroy()]);
  });
});

describe("the serving connection's direct reads", () => {
  it('read at once while no transaction is open, and step aside (null) while one is, so nothing uncommitted is read', async () => {
    const db = await openDatabase(dbPath('direct'));
    const read = directReaderOf(db)!;
    const count = () => read('select count(*) as n from shops where id = ?', ['open.myshopify.com']);
    expect(count()).toEqual([{ n: 0 }]);
    let finish!: () => void;
    const held = new Promise<void>((resolve) => (finish = resolve));
    let inserted!: () => void;
    const insertedYet = new Promise<void>((resolve) => (inserted = resolve));
    const tx = db.transaction().execute(async (t) => {
      await t.insertInto('shops').values(newShopRow('open.myshopify.com', new Date().toISOString())).execute();
      inserted();
      await held;
    });
    await insertedYet;
    // The insert is not committed: a direct read would see it on this connection, so it declines.
    expect(count()).toBeNull();
    finish();
    await tx;
    expect(count()).toEqual([{ n: 1 }]);
    await db.destroy();
  });

  it('is not offered on a background connection', async () => {
    const db = await openDatabase(dbPath('background'), { checkpointer: false, spinOnBusy: true });
    expect(directReaderOf(db)).toBeUndefined();
    await db.destroy();
  });
});

