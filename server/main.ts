/**
 * Serves the API and the built UI on one port. Environment: PORT (3000), DATABASE_PATH
 * (./data/loyalty.sqlite), SHOPIFY_API_KEY and SHOPIFY_API_SECRET (demo mode when the secret is
 * unset), LOG_LEVEL (info). Migrations run at start; a broken schema under schemas/ stops the
 * start with its file and path. WEBHOOK_LOCK_SECONDS (30): how long a crashed worker's claim on a
 * webhook delivery lasts; WEBHOOK_WORKERS=0 accepts and queues webhooks without processing them
 * (a web-only instance beside worker instances). SIGTERM (and SIGINT) stop taking connections, let the requests in flight
 * and the webhook delivery in hand finish (at most 10 s), close the database and exit 0.
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
import { WebhookQueue } from './webhooks/queue';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');

async function main(): Promise<void> {
  const config = configFromEnv();
  const registry = loadRegistry(join(root, 'schemas'));
  const db = await openDatabase(config.databasePath);
  if (config.auth.demo) await seedDemoShop(db, registry, new Date());
  const logger = createLogger(process.env.LOG_LEVEL ?? 'info');
  const deps = { db, registry, auth: config.auth, uiDir: join(root, 'dist', 'ui'), logger };
  // WEBHOOK_LOCK_SECONDS: how long a crashed worker's claim on a delivery lasts (30 s).
  const queue = new WebhookQueue(deps, { logger, lockSeconds: Number(process.env.WEBHOOK_LOCK_SECONDS ?? 30) || 30 });
  const app = createApp({ ...deps, queue });
  // WEBHOOK_WORKERS=0: this instance accepts and queues webhooks but leaves processing to others.
  if (process.env.WEBHOOK_WORKERS === '0') await queue.stop();
  else queue.start();
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
      // The queue finishes the delivery in hand; the rest stays queued for the next start.
      void queue.stop().then(() => db.destroy()).then(() => {
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
