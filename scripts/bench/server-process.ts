/**
 * A server process for the benchmarks (bench:ingest, bench:storefront): spawned with `PORT` set,
 * its standard output kept in BENCH_APP_LOG when that names a file, and awaited until `/healthz`
 * answers 200.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { openSync } from 'node:fs';
import { setTimeout as sleep } from 'node:timers/promises';

/** A running server: its process, base URL and the milliseconds from spawn to its first 200 from `/healthz`. */
export interface ServerProcess {
  child: ChildProcess;
  url: string;
  startupMs: number;
}

/**
 * Spawns `node <args>` in `cwd` on `port` (the environment plus `env`), adds it to `children` until
 * it exits (the caller kills what is left there when it exits), and resolves once `/healthz` answers
 * 200, trying every `pollMs`. Throws when the process exits first.
 */
export async function startServerProcess(args: string[], env: Record<string, string>, options: { cwd: string; port: number; children: Set<ChildProcess>; pollMs: number }): Promise<ServerProcess> {
  const began = performance.now();
  // BENCH_APP_LOG=<file>: the servers' standard output (the request log) goes there instead of nowhere.
  const out = process.env.BENCH_APP_LOG ? openSync(process.env.BENCH_APP_LOG, 'a') : 'ignore';
  const child = spawn(process.execPath, args, { cwd: options.cwd, env: { ...process.env, ...env, PORT: String(options.port) }, stdio: ['ignore', out, 'inherit'] });
  options.children.add(child);
  child.on('exit', () => options.children.delete(child));
  const url = `http://127.0.0.1:${options.port}`;
  for (;;) {
    if (child.exitCode !== null) throw new Error(`${args.join(' ')} exited with ${child.exitCode}`);
    try {
      // A bounded try: one connection that never got an answer once held a whole run (2026-11-29).
      if ((await fetch(`${url}/healthz`, { signal: AbortSignal.timeout(2000) })).ok) break;
    } catch {
      // not listening yet
    }
    await sleep(options.pollMs);
  }
  return { child, url, startupMs: performance.now() - began };
}
