/**
 * Priority inheritance by hand (server/db/write-priority.ts, server/thread-priority.ts): the webhook
 * processing thread runs lowered (nice 19, SCHED_IDLE), and a serving write that waits for the
 * write lock it holds lifts it until its group commits. Without the lift, a machine whose cores
 * are busy with other work starves the lowered thread with the lock in hand, and the merchant's
 * write waits until it fails (2.5–4.1 s in a measured run of the app, 5 s being the limit).
 */
import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import { existsSync, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { createRequire } from 'node:module';
import { Worker } from 'node:worker_threads';
import { afterEach, describe, expect, it } from 'vitest';
import { openDatabase } from '../../server/db/database';
import { LANDING_CHECK_MS, LIFT_AFTER_MS, RELIFT_MS, WritePriority } from '../../server/db/write-priority';
import { newShopRow } from '../../server/store/shops';
import { currentThreadId, lowerThread, prepareThreadLifts, liftThread, threadScheduling } from '../../server/thread-priority';

const require = createRequire(import.meta.url);

/** A promise and its resolve, for lift functions the test settles by hand. */
function deferred(): { promise: Promise<void>; resolve: () => void; reject: (e: Error) => void } {
  let resolve!: () => void;
  let reject!: (e: Error) => void;
  const promise = new Promise<void>((res, rej) => ((resolve = res), (reject = rej)));
  return { promise, resolve, reject };
}

const tick = () => new Promise((resolve) => setTimeout(resolve, 0));

/** Long enough for a lowered writer's looks for a landed lift (three LANDING_CHECK_MS). */
const afterLooks = () => new Promise((resolve) => setTimeout(resolve, LANDING_CHECK_MS * 3));

/** A serving-thread WritePriority and a lowered writer registered on its buffer as thread `tid`, counting its lowerings. */
function registeredWriter(tid: number): { serving: WritePriority; writer: WritePriority; lowered: () => number } {
  const serving = new WritePriority();
  const writer = new WritePriority(serving.buffer);
  let lowered = 0;
  writer.registerLoweredWriter(tid, async () => void lowered++);
  return { serving, writer, lowered: () => lowered };
}

describe('WritePriority lifts', () => {
  it('lifts every registered lowered writer, at most once per RELIFT_MS, and counts a lift once it is done', async () => {
    const serving = new WritePriority();
    const lifted: number[] = [];
    const pending = deferred();
    const lift = (tid: number) => {
      lifted.push(tid);
      return pending.promise;
    };
    expect(serving.liftLoweredWriters(lift)).toBe(false); // nobody registered
    const writerA = new WritePriority(serving.buffer);
    const writerB = new WritePriority(serving.buffer);
    expect(writerA.registerLoweredWriter(101, async () => undefined)).toBe(true);
    expect(writerB.registerLoweredWriter(102, async () => undefined)).toBe(true);
    expect(serving.liftLoweredWriters(lift)).toBe(true);
    expect(lifted).toEqual([101, 102]);
    expect(serving.liftLoweredWriters(lift)).toBe(false); // within RELIFT_MS
    expect(serving.lifts).toBe(0); // not done yet
    pending.resolve();
    await tick();
    expect(serving.lifts).toBe(1);
    await new Promise((resolve) => setTimeout(resolve, RELIFT_MS + 5));
    expect(serving.liftLoweredWriters(lift)).toBe(true);
    expect(lifted).toEqual([101, 102, 101, 102]);
  });

  it('has a lifted writer lower itself once after its group, and not when no lift was done', async () => {
    const { serving, writer, lowered } = registeredWriter(7);
    expect(writer.lowerAgainIfLifted()).toBe(false);
    serving.liftLoweredWriters(() => Promise.resolve());
    await tick();
    expect(writer.lowerAgainIfLifted()).toBe(true);
    expect(writer.lowerAgainIfLifted()).toBe(false); // the same lift is undone once
    expect(lowered()).toBe(1);
  });

  it('has a writer whose group ended before a lift landed lower itself once the lift lands', async () => {
    const { serving, writer, lowered } = registeredWriter(8);
    const landing = deferred();
    expect(serving.liftLoweredWriters(() => landing.promise)).toBe(true);
    // The group commits while the lift is still on its way: nothing landed, nothing to undo yet.
    expect(writer.lowerAgainIfLifted()).toBe(false);
    landing.resolve();
    await tick();
    expect(serving.lifts).toBe(1);
    // No further group ends; the writer's own look after LANDING_CHECK_MS lowers it.
    await afterLooks();
    expect(lowered()).toBe(1);
  });

  it('has a writer lower itself again when a lift starts and lands soon after its group ended', async () => {
    const { serving, writer, lowered } = registeredWriter(11);
    expect(writer.lowerAgainIfLifted()).toBe(false); // the group ends; no lift so far
    // A write that still waits lifts once more before its next try gets the lock.
    serving.liftLoweredWriters(() => Promise.resolve());
    await afterLooks();
    expect(lowered()).toBe(1);
  });

  it('waits with that lowering while a serving write wants the lock', async () => {
    const { serving, writer, lowered } = registeredWriter(10);
    serving.waiting();
    const landing = deferred();
    serving.liftLoweredWriters(() => landing.promise);
    writer.lowerAgainIfLifted();
    landing.resolve();
    await afterLooks();
    expect(lowered()).toBe(0); // the waiting write's lift stands
    serving.served();
    await afterLooks();
    expect(lowered()).toBe(1);
  });

  it('stops lifting after a refused lift', async () => {
    const serving = new WritePriority();
    new WritePriority(serving.buffer).registerLoweredWriter(9, async () => undefined);
    const refused = deferred();
    expect(serving.liftLoweredWriters(() => refused.promise)).toBe(true);
    refused.reject(new Error('EPERM'));
    await tick();
    await new Promise((resolve) => setTimeout(resolve, RELIFT_MS + 5));
    expect(serving.liftLoweredWriters(() => Promise.resolve())).toBe(false);
    expect(serving.lifts).toBe(0);
  });

  it('takes at most MAX_LOWERED_WRITERS registrations', () => {
    const buffer = new WritePriority().buffer;
    const results = Array.from({ length: 10 }, (_, i) => new WritePriority(buffer).registerLoweredWriter(i + 1, async () => undefined));
    expect(results.filter(Boolean)).toHaveLength(8);
    expect(results.slice(8)).toEqual([false, false]);
  });

  it('refuses a buffer too small for its cells', () => {
    expect(() => new WritePriority(new SharedArrayBuffer(4))).toThrow(RangeError);
  });
});

/** Linux with util-linux's chrt and the right to raise a thread's priority (root in CI). */
function canChangeScheduling(): boolean {
  if (process.platform !== 'linux' || !existsSync('/proc/thread-self') || process.getuid?.() !== 0) return false;
  try {
    execFileSync('chrt', ['--version'], { stdio: 'ignore' });
    return true;
  } catch {
    return false;
  }
}

describe.runIf(canChangeScheduling())('lifting a starved writer (Linux)', () => {
  const children: ChildProcess[] = [];
  const workers: Worker[] = [];
  afterEach(async () => {
    for (const child of children.splice(0)) child.kill('SIGKILL');
    for (const worker of workers.splice(0)) await worker.terminate();
  });

  it('lifts a SCHED_IDLE thread to SCHED_OTHER at nice 0 through the prepared shell', async () => {
    // A thread of this process put under SCHED_IDLE at nice 19: a worker that reports its id and waits.
    const worker = new Worker(
      `const { parentPort } = require('node:worker_threads'); const tid = Number(require('node:fs').readlinkSync('/proc/thread-self').split('/').pop()); parentPort.postMessage(tid); setInterval(() => {}, 1000);`,
      { eval: true },
    );
    workers.push(worker);
    const tid = await new Promise<number>((resolve) => worker.once('message', resolve));
    expect(lowerThread(tid, { nice: 19, idle: true })).toBe(true);
    expect(threadScheduling(tid)).toEqual({ policy: 5, nice: 19 });
    prepareThreadLifts();
    await liftThread(tid);
    expect(threadScheduling(tid)).toEqual({ policy: 0, nice: 0 });
    expect(currentThreadId()).not.toBe(tid);
  });

  it('a serving write finishes while the lowered writer holding the lock is starved by other work', async () => {
    const path = join(mkdtempSync(join(tmpdir(), 'lift-')), 'db.sqlite');
    const priority = new WritePriority();
    const serving = await openDatabase(path, { writePriority: priority });
    prepareThreadLifts();
    const tsxApi = pathToFileURL(join(require.resolve('tsx/package.json'), '..', 'dist/esm/api/index.mjs')).href;
    const entry = pathToFileURL(join(import.meta.dirname, '../support/lowered-writer.ts')).href;
    const worker = new Worker(`import(${JSON.stringify(tsxApi)}).then((tsx) => { tsx.register(); return import(${JSON.stringify(entry)}); })`, {
      eval: true,
      workerData: { path, buffer: priority.buffer, cpuMs: 300 },
    });
    workers.push(worker);
    const messages: { type: string; [key: string]: unknown }[] = [];
    const next = (type: string) =>
      new Promise<{ type: string; [key: string]: unknown }>((resolve, reject) => {
        const found = messages.find((m) => m.type === type);
        if (found) return resolve(found);
        const onMessage = (m: { type: string }) => {
          messages.push(m);
          if (m.type === type) {
            worker.off('message', onMessage);
            resolve(m);
          }
        };
        worker.on('message', onMessage);
        worker.once('error', reject);
      });
    const locked = await next('locked');
    expect(locked.idle).toBe(true);
    // Every core busy with work at the normal priority, as on a shared machine; then the writer starts its work.
    for (let i = 0; i < 2; i++) children.push(spawn(process.execPath, ['-e', 'for (;;) {}'], { stdio: 'ignore' }));
    await new Promise((resolve) => setTimeout(resolve, 200));
    worker.postMessage('go');
    const started = performance.now();
    // The write waits for the lock; after LIFT_AFTER_MS it lifts the writer, which finishes its 300 ms of work and commits.
    await serving.transaction().execute((tx) => tx.insertInto('shops').values(newShopRow('serving.myshopify.com', new Date().toISOString())).execute());
    const waited = performance.now() - started;
    expect(waited).toBeGreaterThan(LIFT_AFTER_MS);
    // Starved at SCHED_IDLE the writer's 300 ms of work would take minutes and the write would fail
    // at its 5 s limit; lifted it shares the cores with the two loops.
    expect(waited).toBeLessThan(3000);
    expect(priority.lifts).toBeGreaterThanOrEqual(1);
    await next('committed');
    for (const child of children.splice(0)) child.kill('SIGKILL');
    worker.postMessage('report');
    const report = await next('scheduling');
    // Once its group committed the writer lowered itself again.
    expect(report.scheduling).toEqual({ policy: 5, nice: 0 });
    expect((await serving.selectFrom('shops').select('id').orderBy('id').execute()).map((r) => r.id)).toEqual(['background.myshopify.com', 'serving.myshopify.com']);
    await serving.destroy();
  }, 20_000);
});
