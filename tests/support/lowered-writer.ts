/**
 * Run in a worker thread by tests/api/write-priority-lift.test.ts: a background writer as the
 * webhook processing thread is one (server/webhooks/worker.ts). It lowers itself to nice 19 and
 * SCHED_IDLE, registers with the shared WritePriority, opens a group commit on the file (so it holds
 * SQLite's write lock), writes a row, answers `{ type: 'locked', tid, idle }`, and on the next
 * message works until it has spent `cpuMs` milliseconds on a core (its own scheduler statistics) and commits. After the
 * commit it answers `{ type: 'committed' }`; on `'report'` it answers `{ type: 'scheduling', … }`
 * once it is lowered again (or after 3 s).
 */
import { readFileSync } from 'node:fs';
import { parentPort, workerData } from 'node:worker_threads';
import { groupCommitOf, openDatabase } from '../../server/db/database';
import { WritePriority } from '../../server/db/write-priority';
import { newShopRow } from '../../server/store/shops';
import { currentThreadId, lowerThread, lowerThreadLater, threadScheduling } from '../../server/thread-priority';

const { path, buffer, cpuMs } = workerData as { path: string; buffer: SharedArrayBuffer; cpuMs: number };
const port = parentPort!;
const onCpuMs = (): number => Number(readFileSync('/proc/thread-self/schedstat', 'utf8').split(' ')[0]) / 1e6;

const tid = currentThreadId()!;
const idle = lowerThread(tid, { nice: 19, idle: true });
const priority = new WritePriority(buffer);
priority.registerLoweredWriter(tid, () => lowerThreadLater(tid, { nice: 19, idle }));
const db = await openDatabase(path, { checkpointer: false, spinOnBusy: true, groupCommit: true, writePriority: priority });
const group = groupCommitOf(db)!;
group.begin();
await db.insertInto('shops').values(newShopRow('background.myshopify.com', new Date().toISOString())).execute();
port.postMessage({ type: 'locked', tid, idle });
// The test makes the cores busy, then says go.
await new Promise<void>((resolve) => port.once('message', () => resolve()));
const started = onCpuMs();
let spin = 0;
while (onCpuMs() - started < cpuMs) for (let i = 0; i < 100_000; i++) spin += i % 7;
group.commit();
port.postMessage({ type: 'committed', spin: spin > 0 });
port.on('message', async (message) => {
  if (message !== 'report') return;
  const until = Date.now() + 3000;
  while (threadScheduling(tid)?.policy !== 5 && Date.now() < until) await new Promise((resolve) => setTimeout(resolve, 20));
  port.postMessage({ type: 'scheduling', scheduling: threadScheduling(tid), lifts: priority.lifts });
  await db.destroy();
  port.close();
});
