/**
 * Serves the API and the built UI on one port. Environment: PORT (3000), DATABASE_PATH
 * (./data/loyalty.sqlite), SHOPIFY_API_KEY and SHOPIFY_API_SECRET (demo mode when the secret is
 * unset), LOG_LEVEL (info). Migrations run at start; a broken schema under schemas/ stops the
 * start with its file and path. WEBHOOK_LOCK_SECONDS (30): how long a crashed worker's claim on a
 * webhook delivery lasts; webhooks are processed on a worker thread (server/webhooks/thread.ts),
 * or on the serving thread with WEBHOOK_PROCESSING=inline; WEBHOOK_WORKERS=0 accepts and queues
 * webhooks without processing them (a web-only instance beside worker instances). On SQLite with a
 * processing thread, webhooks are appended to the intake journal beside the file and answered at
 * once (server/webhooks/journal.ts); what a killed process left there is stored before the server
 * listens. WEBHOOK_THREAD_SCHED (idle) and WEBHOOK_THREAD_NICE (19) set that thread's priority. SIGTERM (and SIGINT) stop taking connections, let the requests in flight
 * and the webhook delivery in hand finish (at most 10 s), close the database and exit 0. Customer
 * imports run on a thread of their own (server/services/customer-import/thread.ts); IMPORT_DIR
 * (imports/ beside the SQLite file) keeps the uploads, IMPORT_LOCK_SECONDS (30) is how long a killed
 * server's claim on an import lasts. E-mail (customer exports): SMTP_URL, or SMTP_HOST, SMTP_PORT,
 * SMTP_SECURE, SMTP_USER, SMTP_PASS, and SMTP_FROM (server/email/adapter.ts); without them messages
 * go to the local outbox the admin shows. Export jobs run on the serving thread
 * (server/services/customer-export/job.ts); EXPORT_DIR (exports/ beside the SQLite file) keeps
 * their files, EXPORT_LOCK_SECONDS (120) is how long a killed server's claim on one lasts.
 */
import { join } from 'node:path';
import { serve } from '@hono/node-server';
import { loadRegistry } from '../engine/registry';
import { createApp } from './app';
import { configFromEnv, DEMO } from './config';
import { isPostgresUrl, openDatabase, type Db } from './db/database';
import { prepareThreadLifts } from './thread-priority';
import { WritePriority } from './db/write-priority';
import { seedDemoShop } from './seed';
import { LocalDiscounts, ShopifyDiscounts } from './platform/discounts';
import { accessToken } from './platform/access-tokens';
import { createLogger } from './logging';
import { storeThroughJournal, storeWithoutWaiting } from './webhooks/intake';
import { clearJournal, IntakeJournal, readJournal } from './webhooks/journal';
import { storedDeliveryId, WebhookQueue, type QueueOptions } from './webhooks/queue';
import { ProcessingThread } from './webhooks/thread';
import { projectRoot } from './paths';
import { startDailyJobs } from './services/expiry';
import { startBirthdayJobs } from './jobs/birthdays';
import { startPeriodic } from './jobs/scheduler';
import { bodyRetentionDays, pruneDeliveryBodies } from './webhooks/retention';
import { issueAllMilestoneRewards } from './services/milestone-rewards';
import { issueAllReferralRewards } from './services/referral-rewards';
import { syncAllSegments } from './services/segments';
import { setImportKicker } from './services/customer-import/job';
import { ImportThread } from './services/customer-import/thread';
import { emailFromEnv } from './email/adapter';
import { exportRunnerFor } from './services/customer-export/job';

const root = projectRoot();

/**
 * Milliseconds between listening and the start's background work that holds the event loop: the
 * validators' compiles (Registry.compileAll: about 1 s in all, 20–45 ms a kind) and the lift
 * shell's fork. The first answers after a start (health checks, a load balancer's readiness) do
 * not wait behind them.
 */
const AFTER_START_MS = 1000;

async function main(): Promise<void> {
  const config = configFromEnv();
  // Validators compile 1 s after the server listens (AFTER_START_MS, below), not before its first answer.
  const registry = loadRegistry(join(root, 'schemas'), { compile: 'lazy' });
  // Serving-thread writes (redemptions, admin saves) go before the background threads' (server/db/write-priority.ts).
  const writePriority = new WritePriority();
  const logger = createLogger(process.env.LOG_LEVEL ?? 'info');
  const db = await openDatabase(config.databasePath, { sqliteSynchronous: config.sqliteSynchronous, writePriority, onIdleConnectionError: (message) => logger.warn({ err: message }, 'an idle database connection failed; the pool opens a new one') });
  if (config.auth.demo) await seedDemoShop(db, registry, new Date());
  // Discount codes (redemption, referral coupons): in memory in demo mode, else the Admin API with
  // the shop's offline access token.
  const platformDiscounts = config.auth.demo ? new LocalDiscounts() : new ShopifyDiscounts({ accessToken: (shopId) => accessToken({ db, auth: config.auth }, shopId) });
  // E-mail (customer exports): SMTP when configured, else the local outbox the admin shows.
  const email = emailFromEnv(db);
  if (email.kind === 'local' && !config.auth.demo) logger.warn('SMTP_URL / SMTP_HOST are not set: e-mails are kept in the local outbox, not sent');
  const deps = { db, registry, auth: config.auth, uiDir: join(root, 'dist', 'ui'), logger, platformDiscounts, email };
  // WEBHOOK_LOCK_SECONDS: how long a crashed worker's claim on a delivery lasts (30 s).
  const lockSeconds = Number(process.env.WEBHOOK_LOCK_SECONDS ?? 30) || 30;
  // Webhooks are processed on their own thread (WEBHOOK_PROCESSING=thread, the default), on this
  // one (inline), or by other instances (WEBHOOK_WORKERS=0: this one only stores them).
  const mode = process.env.WEBHOOK_WORKERS === '0' ? 'none' : process.env.WEBHOOK_PROCESSING === 'inline' ? 'inline' : 'thread';
  const threadCount = mode === 'thread' ? Math.max(1, Math.trunc(Number(process.env.WEBHOOK_WORKERS ?? 1)) || 1) : 0;
  const threads = Array.from({ length: threadCount }, () =>
    new ProcessingThread(
          { databaseLocation: config.databasePath, sqliteSynchronous: config.sqliteSynchronous, schemasDir: join(root, 'schemas'), auth: config.auth, lockSeconds, logLevel: process.env.LOG_LEVEL ?? 'info', writePriority: writePriority.buffer },
          logger,
        ),
  );
  const thread = threads[0] ?? null;
  // The serving thread's queue only stores deliveries unless processing is inline.
  const notify = thread ? () => threads.forEach((t) => t.kick()) : mode === 'none' ? () => undefined : undefined;
  // On SQLite the serving thread stores deliveries on a connection that never sleeps waiting for
  // the processing thread's write lock (server/webhooks/intake.ts); PostgreSQL takes both writers.
  // With a processing thread, deliveries go through the intake journal beside the file (server/webhooks/journal.ts):
  // the serving thread appends and answers, the processing thread stores them in batches. What a
  // stopped or killed server left in the journal is stored now, before anything is served.
  let store: QueueOptions['store'];
  let intakeDb: Db | null = null;
  let journal: IntakeJournal | null = null;
  if (!isPostgresUrl(config.databasePath)) {
    // Whatever the mode now: a journal a thread-mode run left behind is stored before serving.
    const left = readJournal(config.databasePath);
    if (left.length > 0) {
      const stored = await new WebhookQueue(deps, { logger }).storeRecords(left);
      logger.info({ records: left.length, stored: stored.filter((r) => !r.duplicate).length }, 'stored the deliveries left in the intake journal');
    }
    clearJournal(config.databasePath);
  }
  if (thread && !isPostgresUrl(config.databasePath)) {
    intakeDb = await openDatabase(config.databasePath, { sqliteSynchronous: config.sqliteSynchronous, checkpointer: false, busyTimeoutMs: 0, safetyNetCheckpoint: false });
    const intake = new WebhookQueue({ ...deps, db: intakeDb }, { logger, lockSeconds, notify: () => undefined });
    const direct = storeWithoutWaiting(intake, (d) => thread.enqueue(d));
    const db2 = intakeDb;
    journal = new IntakeJournal(config.databasePath);
    store = storeThroughJournal({
      journal,
      handOver: (record) => thread.store(record),
      threadRunning: () => thread.isRunning,
      storedWebhook: (shopId, webhookId) => storedDeliveryId(db2, shopId, webhookId),
      storeHere: (records) => intake.storeRecords(records),
      direct,
      logger,
    });
  }
  const queue = new WebhookQueue(deps, { logger, lockSeconds, ...(notify ? { notify } : {}), ...(store ? { store } : {}) });
  // Customer imports run on a thread of their own; one a stopped or killed server left unfinished
  // resumes there from its committed batch (IMPORT_LOCK_SECONDS after a kill).
  const imports = new ImportThread({ databaseLocation: config.databasePath, sqliteSynchronous: config.sqliteSynchronous, lockSeconds: Number(process.env.IMPORT_LOCK_SECONDS ?? 30) || 30, logLevel: process.env.LOG_LEVEL ?? 'info', writePriority: writePriority.buffer }, logger);
  setImportKicker(db, () => imports.kick());
  const app = createApp({ ...deps, queue });
  if (mode === 'inline') queue.start();
  // Point expiry and VIP tier demotion: each store's daily job at its local day boundary (server/services/expiry.ts).
  const stopDailyJobs = startDailyJobs(db, logger);
  // Birthday and member-anniversary points: each store's daily run in its timezone (server/jobs/birthdays.ts).
  const stopBirthdayJobs = startBirthdayJobs({ db, platformDiscounts, logger }, logger);
  // Coupon-type milestone rewards whose code could not be made at once (platform down): retried every minute.
  const stopMilestoneRewards = startPeriodic(() => issueAllMilestoneRewards(deps), logger, 'milestone rewards', 60_000, 15_000);
  // Referral discount rewards whose code could not be made right after the order: retried every minute.
  const stopReferralRewards = startPeriodic(() => issueAllReferralRewards(deps), logger, 'referral rewards', 60_000, 20_000);
  // Customers' RFM groups (the Left segment tab): read from the platform once a day, first 5 minutes after start.
  // Customer exports e-mailed as CSV: queued ones, and those a killed server left (after EXPORT_LOCK_SECONDS).
  const exportRunner = exportRunnerFor(deps);
  exportRunner.startPolling();
  const stopSegments = startPeriodic(() => syncAllSegments(deps), logger, 'customer segments', 86_400_000, 300_000);
  // Processed webhook bodies (the platform's payloads, shoppers' personal data included) are deleted
  // WEBHOOK_BODY_RETENTION_DAYS after they finished (server/webhooks/retention.ts): every hour, first 10 minutes after start.
  const retentionDays = bodyRetentionDays();
  const stopRetention =
    retentionDays > 0
      ? startPeriodic(
          async () => {
            const deleted = await pruneDeliveryBodies(db, new Date(Date.now() - retentionDays * 86_400_000).toISOString());
            if (deleted > 0) logger.info({ deleted, retentionDays }, 'processed webhook bodies past their retention deleted');
          },
          logger,
          'webhook body retention',
          3_600_000,
          600_000,
        )
      : async () => {};
  let afterStart: NodeJS.Timeout | undefined;
  const server = serve({ fetch: app.fetch, port: config.port }, (info) => {
    logger.info({ port: info.port, demo: config.auth.demo }, `loyalty configurator listening on http://localhost:${info.port}`);
    if (config.auth.demo) console.log(`demo mode: sign in at http://localhost:${info.port}/auth/login (shop ${DEMO.shopDomain})`);
    // The processing thread starts after the first answer can be given (queued deliveries wait for it).
    imports.start().catch((e: unknown) => logger.error({ err: e }, 'the customer import thread did not start'));
    for (const t of threads) t.start().catch((e: unknown) => logger.error({ err: e }, 'the webhook processing thread did not start'));
    // AFTER_START_MS after listening, out of the way of the first answers: the shell that lifts
    // the lowered processing threads (its fork holds the loop 30–40 ms; a serving write waiting for
    // the lock one holds lifts it, server/db/write-priority.ts; before that a lift forks on its own), and the
    // validators not compiled yet, one kind a turn (a kind needed sooner compiles at its first use).
    // A template strict ajv refuses still stops the server, a moment after it started.
    afterStart = setTimeout(() => {
      if (thread && !isPostgresUrl(config.databasePath)) prepareThreadLifts();
      registry.compileAll().catch((e: unknown) => {
        logger.fatal({ err: e }, 'a schema under schemas/ does not compile');
        console.error(e instanceof Error ? e.message : e);
        process.exit(1);
      });
    }, AFTER_START_MS);
  });
  let stopping = false;
  const stop = (signal: string): void => {
    if (stopping) return;
    stopping = true;
    clearTimeout(afterStart);
    logger.info({ signal }, 'stopping: no new connections, finishing requests in flight');
    // Requests in flight finish; idle keep-alive connections close now; a stuck one is cut at 10 s.
    const force = setTimeout(() => {
      logger.warn('requests still open after 10 s; exiting');
      process.exit(1);
    }, 10_000);
    force.unref();
    server.close(() => {
      // The queue finishes the delivery in hand; the rest stays queued for the next start.
      void Promise.all([queue.stop(), stopDailyJobs(), stopBirthdayJobs(), stopMilestoneRewards(), stopReferralRewards(), stopSegments(), stopRetention(), exportRunner.stop(), imports.stop(), ...threads.map((t) => t.stop())]).then(() => {
        // Settled segments go; a record the thread did not store stays for the next start.
        journal?.close();
        return Promise.all([db.destroy(), intakeDb?.destroy()]);
      }).then(() => {
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
