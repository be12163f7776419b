/**
 * Serves the API and the built UI on one port. Environment: PORT (3000), DATABASE_PATH
 * (./data/loyalty.sqlite), SHOPIFY_API_KEY and SHOPIFY_API_SECRET (demo mode when the secret is
 * unset), LOG_LEVEL (info). Migrations run at start; a broken schema under schemas/ stops the
 * start with its file and path. SIGTERM (and SIGINT) stop taking connections, let the requests in
 * flight finish (at most 10 s), close the database and exit 0.
 */
import { fileURLToPath } from 'node:url';
import { dirname, join } from 'node:path';
import { serve } from '@hono/node-server';
import { loadRegistry } from '../engine/registry';
import { createApp } from './app';
import { configFromEnv, DEMO } from './config';
import { openDatabase } from './db/database';
import { seedDemoShop } from './seed';
import { createLogger } from './logging';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');

async function main(): Promise<void> {
  const config = configFromEnv();
  const registry = loadRegistry(join(root, 'schemas'));
  const db = await openDatabase(config.databasePath);
  if (config.auth.demo) await seedDemoShop(db, registry, new Date());
  const logger = createLogger(process.env.LOG_LEVEL ?? 'info');
  const app = createApp({ db, registry, auth: config.auth, uiDir: join(root, 'dist', 'ui'), logger });
  const server = serve({ fetch: app.fetch, port: config.port }, (info) => {
    logger.info({ port: info.port, demo: config.auth.demo }, `loyalty configurator listening on http://localhost:${info.port}`);
    if (config.auth.demo) console.log(`demo mode: sign in at http://localhost:${info.port}/auth/login (shop ${DEMO.shopDomain})`);
  });
  let stopping = false;
  const stop = (signal: string): void => {
    if (stopping) return;
    stopping = true;
    logger.info({ signal }, 'stopping: no new connections, finishing requests in flight');
    // Requests in flight finish; idle keep-alive connections close now; a stuck one is cut at 10 s.
    const force = setTimeout(() => {
      logger.warn('requests still open after 10 s; exiting');
      process.exit(1);
    }, 10_000);
    force.unref();
    server.close(() => {
      void db.destroy().then(() => {
        logger.info('stopped');
        process.exit(0);
      });
    });
    (server as { closeIdleConnections?: () => void }).closeIdleConnections?.();
  };
  process.on('SIGINT', () => stop('SIGINT'));
  process.on('SIGTERM', () => stop('SIGTERM'));
}

main().catch((e: unknown) => {
  console.error(e instanceof Error ? e.message : e);
  process.exit(1);
});
