/**
 * The real server (`server/main.ts`) as a child process, for tests about processes: crashes,
 * SIGTERM, two instances on one database. Each server gets a port the OS says is free (no random
 * ranges that two test files can both pick), and waiting for it fails at once, with the server's
 * own error output, when the process exits instead of answering.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { createServer } from 'node:net';
import { join } from 'node:path';
import { ROOT } from './app';

/** A port nothing listens on right now (the OS picks it; released before it is returned). */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = createServer();
    probe.once('error', reject);
    probe.listen(0, '127.0.0.1', () => {
      const address = probe.address();
      const port = typeof address === 'object' && address ? address.port : 0;
      probe.close(() => (port > 0 ? resolve(port) : reject(new Error('no free port'))));
    });
  });
}

/** A started server process. */
export interface ServerProcess {
  child: ChildProcess;
  port: number;
  /** `http://localhost:<port>`. */
  url: string;
  /** Resolves with the exit code (null when killed by a signal). */
  exited: Promise<number | null>;
  /** Everything the process wrote to stdout and stderr so far. */
  output(): string;
}

/**
 * Spawns `server/main.ts` with `env` added to this process's environment and `PORT` set to `port`
 * (a free one when absent). Does not wait: call `waitUntilReady`.
 */
export async function spawnServer(env: Record<string, string>, port?: number): Promise<ServerProcess> {
  const chosen = port ?? (await freePort());
  const child = spawn(process.execPath, ['--import', 'tsx', join(ROOT, 'server/main.ts')], {
    cwd: ROOT,
    env: { ...process.env, ...env, PORT: String(chosen) },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  child.stdout?.on('data', (d: Buffer) => (output += d.toString()));
  child.stderr?.on('data', (d: Buffer) => (output += d.toString()));
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  return { child, port: chosen, url: `http://localhost:${chosen}`, exited, output: () => output };
}

/**
 * Waits until `GET /readyz` answers 200 (at most `timeoutMs`, default 60 s: a loaded 2-core CI
 * machine starts several servers at once). Throws with the server's output when it exits first
 * or the time runs out.
 */
export async function waitUntilReady(server: ServerProcess, timeoutMs = 60_000): Promise<void> {
  let gone = false;
  void server.exited.then(() => (gone = true));
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (gone) throw new Error(`server on ${server.port} exited before it was ready:\n${server.output().slice(-2000)}`);
    try {
      if ((await fetch(`${server.url}/readyz`)).ok) return;
    } catch {
      // not listening yet
    }
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error(`server on ${server.port} was not ready after ${timeoutMs} ms:\n${server.output().slice(-2000)}`);
}

/** spawnServer then waitUntilReady. */
export async function startServer(env: Record<string, string>, port?: number): Promise<ServerProcess> {
  const server = await spawnServer(env, port);
  await waitUntilReady(server);
  return server;
}
