/**
 * The scheduling of this process's threads (Linux). A background thread that writes SQLite (the
 * webhook processing thread) runs lowered, at nice 19 under SCHED_IDLE, so it only uses a core
 * nothing else wants (server/webhooks/worker.ts). A serving write that waits for SQLite's write lock
 * while that thread holds it lifts the thread back to the normal policy and nice 0 until its group
 * commits (server/db/write-priority.ts): priority inheritance by hand, since SQLite's lock is not a
 * kernel lock the scheduler could see. The policy is changed through util-linux's `chrt` (Node has
 * no binding for sched_setscheduler), the nice value through `os.setPriority`, which on Linux
 * applies to the one thread whose id it is given.
 */
import { execFile, execFileSync, spawn } from 'node:child_process';
import { readFileSync, readlinkSync, writeFileSync } from 'node:fs';
import { setPriority } from 'node:os';

/** The calling thread's kernel id (from `/proc/thread-self`), or null where there is none. */
export function currentThreadId(): number | null {
  try {
    const tid = readlinkSync('/proc/thread-self').split('/').pop() ?? '';
    return /^\d+$/.test(tid) ? Number(tid) : null;
  } catch {
    return null;
  }
}

/**
 * Names the calling thread for `top -H`, `ps -L` and /proc (at most 15 bytes are kept; Node 20 names
 * every worker thread `node`), so an operator, and bench:ingest's CPU split, can tell the webhook
 * processing, customer import and checkpoint threads from the serving one. Does nothing where
 * /proc/thread-self/comm cannot be written.
 */
export function nameThread(name: string): void {
  try {
    writeFileSync('/proc/thread-self/comm', name.slice(0, 15));
  } catch {
    // not Linux, or /proc is read-only here
  }
}

/**
 * Lowers thread `tid` to nice `nice` (19 by default) and, when `idle`, SCHED_IDLE. Synchronous (the
 * `chrt` call takes a few milliseconds). Answers whether SCHED_IDLE was set (false when `idle` is
 * false, or `chrt` is missing or refused); a refused nice value is ignored.
 */
export function lowerThread(tid: number, options: { nice?: number; idle?: boolean } = {}): boolean {
  const nice = options.nice ?? 19;
  if (nice !== 0) {
    try {
      setPriority(tid, nice);
    } catch {
      // not permitted here: the policy below still applies
    }
  }
  if (options.idle === false) return false;
  try {
    execFileSync('chrt', ['--idle', '--pid', '0', String(tid)], { stdio: 'ignore', timeout: 5000 });
    return true;
  } catch {
    return false;
  }
}

/**
 * Lowers thread `tid` again after a lift (`liftThread`), without blocking the caller: SCHED_IDLE
 * through `chrt` when `idle`, else nice `nice` (19 by default). Resolves once done; rejects when
 * refused. Under SCHED_IDLE the nice value does not count, so it is left at the lift's 0.
 */
export function lowerThreadLater(tid: number, options: { nice?: number; idle?: boolean } = {}): Promise<void> {
  if (options.idle === false) {
    try {
      setPriority(tid, options.nice ?? 19);
      return Promise.resolve();
    } catch (e) {
      return Promise.reject(e instanceof Error ? e : new Error(String(e)));
    }
  }
  return new Promise((resolve, reject) => {
    execFile('chrt', ['--idle', '--pid', '0', String(tid)], { timeout: 5000 }, (error) => (error ? reject(error) : resolve()));
  });
}

/**
 * A shell started ahead that runs `chrt --other --pid 0 <tid>` for each thread id written to it and
 * answers the id: lifting a thread through it forks the small shell, not this process. Forking
 * this process for `chrt` (execFile) at the moment a lift was needed took up to 1 s on a saturated
 * 2-core machine (the app's RSS and threads; a lift waited behind it while the write it was for
 * waited for the lock), through the shell 7–20 ms.
 */
let lifter: { write: (tid: number) => Promise<void> } | null = null;

/**
 * Starts the shell `liftThread` uses (see `lifter`); call once, early, on the thread that lifts
 * (the serving thread). Without it `liftThread` forks this process for each lift. Where there is
 * no `sh` the lifts fall back to that too.
 */
export function prepareThreadLifts(): void {
  if (lifter) return;
  try {
    const shell = spawn('sh', ['-c', 'while read tid; do chrt --other --pid 0 "$tid" >/dev/null 2>&1; echo "$tid"; done'], { stdio: ['pipe', 'pipe', 'ignore'] });
    const waiting = new Map<number, (() => void)[]>();
    let buffered = '';
    shell.stdout.setEncoding('utf8');
    shell.stdout.on('data', (chunk: string) => {
      buffered += chunk;
      let end: number;
      while ((end = buffered.indexOf('\n')) >= 0) {
        const tid = Number(buffered.slice(0, end));
        buffered = buffered.slice(end + 1);
        const list = waiting.get(tid);
        list?.shift()?.();
        if (list?.length === 0) waiting.delete(tid);
      }
    });
    const fail = (): void => {
      lifter = null;
      for (const list of waiting.values()) for (const resolve of list) resolve();
      waiting.clear();
    };
    shell.on('error', fail);
    shell.on('exit', fail);
    shell.stdin.on('error', fail);
    shell.unref();
    (shell.stdin as unknown as { unref?: () => void }).unref?.();
    (shell.stdout as unknown as { unref?: () => void }).unref?.();
    lifter = {
      write: (tid) =>
        new Promise((resolve) => {
          const list = waiting.get(tid) ?? [];
          list.push(resolve);
          waiting.set(tid, list);
          shell.stdin.write(`${tid}\n`);
        }),
    };
  } catch {
    lifter = null;
  }
}

/**
 * Lifts thread `tid` to nice 0 at once and to SCHED_OTHER through `chrt` (the shell of
 * `prepareThreadLifts` when started, else a fork of this process), without blocking the caller.
 * Resolves once both are done; rejects when the nice value is refused (an unprivileged process may
 * not raise a thread's priority beyond its RLIMIT_NICE). A missing `chrt` is not an error: then
 * the thread could not have been put under SCHED_IDLE either.
 */
export function liftThread(tid: number): Promise<void> {
  try {
    setPriority(tid, 0);
  } catch (e) {
    return Promise.reject(e instanceof Error ? e : new Error(String(e)));
  }
  if (lifter) return lifter.write(tid);
  return new Promise((resolve) => {
    execFile('chrt', ['--other', '--pid', '0', String(tid)], { timeout: 5000 }, () => resolve());
  });
}

/** Thread `tid`'s scheduling policy and nice value, from /proc (Linux): `policy` 0 = SCHED_OTHER, 3 = SCHED_BATCH, 5 = SCHED_IDLE. Null when unreadable. */
export function threadScheduling(tid: number, pid = process.pid): { policy: number; nice: number } | null {
  try {
    const stat = readFileSync(`/proc/${pid}/task/${tid}/stat`, 'utf8');
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    // After the command: field 3 is the state; nice is field 19 and policy field 41 of stat(5).
    return { nice: Number(fields[19 - 3]), policy: Number(fields[41 - 3]) };
  } catch {
    return null;
  }
}

