/**
 * `npm start`: builds the UI when dist/ui is missing or older than any file under ui/, bundles the
 * server (scripts/build-server.ts, under a second), then runs dist/server/main.mjs (API + UI on
 * PORT, default 3000). In production, build once (`npm run build && npm run build:server`) and
 * run `node dist/server/main.mjs`.
 */
import { existsSync, readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { build } from 'vite';
import { buildServer } from './build-server';

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
const widget = join(root, 'dist', 'widget', 'loyalty-widget.js');
if (!existsSync(widget) || statSync(widget).mtimeMs < Math.max(newestMtime(join(root, 'ui', 'widget')), statSync(join(root, 'engine', 'widget-design.ts')).mtimeMs)) {
  console.log('building the storefront widget (dist/widget)…');
  await build({ configFile: join(root, 'vite.widget.config.ts'), logLevel: 'warn' });
}
await buildServer();
await import(pathToFileURL(join(root, 'dist', 'server', 'main.mjs')).href);
