/**
 * Where the project's files are, whether the server runs from its sources (`tsx server/main.ts`)
 * or from the built bundle (`node dist/server/main.mjs`, scripts/build-server.ts).
 */
import { existsSync } from 'node:fs';
import { dirname, join } from 'node:path';

/**
 * The project folder: the nearest folder at or above `from` holding both `package.json` and
 * `schemas/`. Throws when there is none (a bundle copied away from its project).
 */
export function projectRoot(from: string = import.meta.dirname): string {
  for (let dir = from; ; dir = dirname(dir)) {
    if (existsSync(join(dir, 'package.json')) && existsSync(join(dir, 'schemas'))) return dir;
    if (dirname(dir) === dir) throw new Error(`No project folder (package.json and schemas/) at or above ${from}`);
  }
}
