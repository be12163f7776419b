/**
 * Serves the API and the built UI on one port. Environment: PORT (3000), DATABASE_PATH
 * (./data/loyalty.sqlite), SHOPIFY_API_KEY and SHOPIFY_API_SECRET (demo mode when the secret is
 * unset). Migrations run at start; a broken schema under schemas/ stops the start with its file
 * and path.
 */
import { fileURLToPath } from 'node:url';
import { dirname, join } from 'node:path';
import { serve } from '@hono/node-server';
import { loadRegistry } from '../engine/registry';
import { createApp } from './app';
import { configFromEnv, DEMO } from './config';
import { openDatabase } from './db/database';
import { seedDemoShop } from './seed';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');

async function main(): Promise<void> {
  const config = configFromEnv();
  const registry = loadRegistry(join(root, 'schemas'));
  const db = await openDatabase(config.databasePath);
  if (config.auth.demo) await seedDemoShop(db, registry, new Date());
  const app = createApp({ db, registry, auth: config.auth, uiDir: join(root, 'dist', 'ui') });
  const server = serve({ fetch: app.fetch, port: config.port }, (info) => {
    console.log(`loyalty configurator listening on http://localhost:${info.port}`);
    if (config.auth.demo) console.log(`demo mode: sign in at http://localhost:${info.port}/auth/login (shop ${DEMO.shopDomain})`);
  });
  const stop = (): void => {
    server.close();
    void db.destroy().then(() => process.exit(0));
  };
  process.on('SIGINT', stop);
  process.on('SIGTERM', stop);
}

main().catch((e: unknown) => {
  console.error(e instanceof Error ? e.message : e);
  process.exit(1);
});
