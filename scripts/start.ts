/**
 * `npm start`: builds the UI when dist/ui is missing or older than any file under ui/, then runs
 * the server (API + UI on PORT, default 3000).
 */
import { existsSync, readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { build } from 'vite';

const root = join(import.meta.dirname, '..');

function newestMtime(dir: string): number {
  let newest = 0;
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    newest = Math.max(newest, entry.isDirectory() ? newestMtime(path) : statSync(path).mtimeMs);
  }
  return newest;
}

const index = join(root, 'dist', 'ui', 'index.html');
if (!existsSync(index) || statSync(index).mtimeMs < newestMtime(join(root, 'ui'))) {
  console.log('building the UI (dist/ui)…');
  await build({ configFile: join(root, 'vite.config.ts'), logLevel: 'warn' });
}
await import('../server/main');
