/**
 * The webhook queue (issue 14 "Webhooks off the request path"), kept in the database itself
 * (`webhook_deliveries`), so it needs nothing beyond SQLite or PostgreSQL and survives a restart:
 *
 * - A delivery is written before the platform gets its 200 (`enqueue`); the platform's webhook id
 *   makes a redelivery of the same webhook a no-op.
 * - A worker claims the oldest ready delivery whose order has no earlier delivery still waiting
 *   (per-order ordering: a refund never overtakes its order within the queue), by a conditional
 *   update that only one worker — in this process or another — can win.
 * - Processing is idempotent (each topic's processor records its own receipt in the same
 *   transaction as its ledger rows), so a worker killed mid-delivery leaves a claim that lapses
 *   after `lockSeconds`, and the retry changes nothing twice.
 * - A failure retries with exponential back-off; a 4xx answer (a body the processor refuses) or
 *   `maxAttempts` failures make it a dead letter, listed by `GET /api/webhook-deliveries?status=dead`
 *   and requeued by `POST /api/webhook-deliveries/:id/retry`.
 *
 * Time here is the wall clock (not AppDeps.now): back-off and claims are about real seconds.
 */
import type { AppDeps } from '../deps';
import { CompiledOnce } from '../db/compiled';
import { forgetGroupReads, groupCommitOf, type Db, type GroupCommit } from '../db/database';
import type { WebhookDeliveriesTable } from '../db/tables';
import { ApiError } from '../errors';
import { parseExact } from '../json';
import type { Logger } from '../logging';
import { CoalescedRun } from '../services/coalesced-run';
import type { JournalRecord } from './journal';
import { queuedTopic } from './topics';

/**
 * Topics whose processing only reads a shop's configuration (never writes its row, documents or tier
 * program): what one group read of it stays valid across them (server/db/database.ts readOncePerGroup).
 */
const READS_CONFIG_ONLY = new Set(['orders/create', 'refunds/create', 'orders/cancelled', 'customers/create', 'customers/update', 'loyalty/visit']);

/** Every processed delivery's last statement, compiled once (server/db/compiled.ts). */
const MARK_DONE = new CompiledOnce<'id' | 'result' | 'at'>((db, p) =>
  db.updateTable('webhook_deliveries').set({ status: 'done', result: p.result, finished_at: p.at, locked_until: null, last_error: null }).where('id', '=', p.id),
);

const BODY_OF = new CompiledOnce<'id', { body: string }>((db, p) => db.selectFrom('webhook_delivery_bodies').select('body').where('delivery_id', '=', p.id));

const DELIVERY_OF_WEBHOOK = new CompiledOnce<'shop' | 'webhook', { id: string }>((db, p) =>
  db.selectFrom('webhook_deliveries').select('id').where('shop_id', '=', p.shop).where('webhook_id', '=', p.webhook),
);

/**
 * The id of the delivery stored for this shop's webhook id (the platform's `X-Shopify-Webhook-Id`),
 * or null: one read of the `webhook_deliveries_once` index, compiled once (server/db/compiled.ts).
 * Every new webhook asks it on the serving thread before it is journaled; Kysely's builder cost
 * that read about 50 µs, more than SQLite's lookup.
 */
export async function storedDeliveryId(db: Db, shopId: string, webhookId: string): Promise<string | null> {
  const [row] = await DELIVERY_OF_WEBHOOK.rows(db, 'one', { shop: shopId, webhook: webhookId });
  return row?.id ?? null;
}

/** Tuning; the defaults suit production. */
export interface QueueOptions {
  /** Seconds a claim lasts before another worker may take the delivery over (crash recovery). */
  lockSeconds?: number;
  /** Attempts before a failing delivery becomes a dead letter. */
  maxAttempts?: number;
  /** Seconds to wait before attempt `n + 1` after `n` failures. */
  backoffSeconds?: (attempts: number) => number;
  /** Milliseconds between polls for deliveries other processes queued or whose back-off ended. */
  pollMs?: number;
  logger?: Logger;
  /**
   * Set when another thread processes the deliveries (server/webhooks/thread.ts): `kick()` then
   * calls this instead of processing here, and this queue only stores deliveries.
   */
  notify?: () => void;
  /**
   * How many ready deliveries one claim takes (16): one statement and one commit lock them all, so
   * a backlog pays the claim once per batch instead of once per delivery. Each batch holds at most
   * one delivery per order (the earliest waiting), so per-order ordering is unchanged.
   */
  claimBatch?: number;
  /**
   * Stores deliveries another way (the serving thread on SQLite: server/webhooks/intake.ts, on a
   * connection that never waits for the write lock). When it rejects, `enqueue` stores the
   * delivery here instead; storing is idempotent by webhook id, so a delivery stored before the
   * failure is found as a duplicate.
   */
  store?: (delivery: NewDelivery) => Promise<{ id: string; duplicate: boolean }>;
}

/** A delivery to store: the verified shop, the topic, the platform's webhook id and the raw text. */
export interface NewDelivery {
  shopId: string;
  topic: string;
  webhookId: string | null;
  orderKey: string;
  body: string;
  /**
   * The body already parsed (parseExact of `body`), kept in memory for this process's worker so
   * it need not read and parse the stored text again; must not be changed afterwards.
   */
  parsed?: unknown;
}

/** The longest a group commit collects deliveries before committing them (ms): what it keeps SQLite's write lock for. */
export const GROUP_MS = 20;

/** Parsed bodies kept for the worker (about 60 KB each for a 17 KB order); older ones are read back from the database. */
const RECENT_PARSED = 256;

/**
 * Characters (UTF-16 code units) of raw body text kept for the worker from journaled deliveries: about
 * 1,900 orders of 17 KB, a backlog's worth. Kept as text, parsed once when processed: parsing on
 * arrival parsed every body of a backlog that outgrew the parsed bodies twice, once for nothing
 * (bench:ingest queues 4,000 orders in 2–3 s). Older ones are read back from the database.
 */
const RECENT_TEXT_CHARS = 32 * 1024 * 1024;

/** A delivery as the admin API shows it (no body: it may hold shopper data). */
export interface DeliveryView {
  id: string;
  topic: string;
  orderKey: string;
  status: string;
  attempts: number;
  receivedAt: string;
  finishedAt: string | null;
  lastError: string | null;
  result: unknown;
}

let counter = 0;
/** Arrival order as sortable text: zero-padded milliseconds, then a per-process counter. */
export function nextSeq(): string {
  counter = (counter + 1) % 1_000_000_000;
  return `${String(Date.now()).padStart(15, '0')}-${String(counter).padStart(9, '0')}`;
}

const iso = (ms: number): string => new Date(ms).toISOString();

export const toDeliveryView = (row: WebhookDeliveriesTable): DeliveryView => ({
  id: row.id,
  topic: row.topic,
  orderKey: row.order_key,
  status: row.status,
  attempts: row.attempts,
  receivedAt: row.received_at,
  finishedAt: row.finished_at,
  lastError: row.last_error,
  result: row.result === null ? null : (JSON.parse(row.result) as unknown),
});

export class WebhookQueue {
  private readonly lockMs: number;
  private readonly maxAttempts: number;
  private readonly backoff: (attempts: number) => number;
  private readonly pollMs: number;
  private readonly logger: Logger | undefined;
  private readonly notify: (() => void) | undefined;
  private readonly store: QueueOptions['store'];
  private readonly claimBatch: number;
  /** Deliveries this queue has claimed (locked) and not processed yet, oldest first. */
  private claimed: WebhookDeliveriesTable[] = [];
  /** The background processing loop, one pass at a time (`kick`). */
  private readonly runs = new CoalescedRun(
    () => this.loop(),
    (e: unknown) => this.logger?.error({ err: e }, 'webhook queue run failed'),
    () => !this.stopped,
  );
  private timer: NodeJS.Timeout | null = null;
  private stopped = false;
  /** While a group commit is open (runGroup): settles when it is committed or rolled back. */
  private group: Promise<void> | null = null;
  /**
   * Bodies of deliveries this process queued and has not processed yet, oldest first: parsed
   * (NewDelivery.parsed) or the raw text of a journaled record, parsed when processed.
   */
  private readonly recent = new Map<string, { parsed: unknown } | { text: string }>();
  /** Characters of text in `recent`. */
  private recentChars = 0;
  /** How many parsed bodies `recent` holds. */
  private recentParsed = 0;

  constructor(
    private readonly deps: AppDeps,
    options: QueueOptions = {},
  ) {
    this.lockMs = (options.lockSeconds ?? 30) * 1000;
    this.maxAttempts = options.maxAttempts ?? 6;
    this.backoff = options.backoffSeconds ?? ((n) => Math.min(3600, 2 ** n));
    this.pollMs = options.pollMs ?? 1000;
    this.logger = options.logger;
    this.notify = options.notify;
    this.store = options.store;
    this.claimBatch = Math.max(1, options.claimBatch ?? 16);
  }

  /**
   * Stores a delivery durably (status `queued`). A redelivery of the same platform webhook id for
   * the shop stores nothing and answers `duplicate: true` with the first delivery's id.
   */
  async enqueue(delivery: NewDelivery): Promise<{ id: string; duplicate: boolean }> {
    if (this.store) {
      try {
        return await this.store(delivery);
      } catch (e) {
        this.logger?.warn({ err: e, topic: delivery.topic, shop: delivery.shopId }, 'the writer thread did not store the delivery; storing it here');
      }
    }
    while (this.group) await this.group;
    const now = iso(Date.now());
    const id = crypto.randomUUID();
    const stored = await this.deps.db.transaction().execute(async (tx) => {
      const inserted = await tx
        .insertInto('webhook_deliveries')
        .values({
          id,
          shop_id: delivery.shopId,
          topic: delivery.topic,
          webhook_id: delivery.webhookId,
          order_key: delivery.orderKey,
          seq: nextSeq(),
          received_at: now,
          status: 'queued',
          attempts: 0,
          available_at: now,
          locked_until: null,
          last_error: null,
          result: null,
          finished_at: null,
        })
        .onConflict((oc) => oc.columns(['shop_id', 'webhook_id']).doNothing())
        .executeTakeFirst();
      if (Number(inserted.numInsertedOrUpdatedRows ?? 0n) === 0) return false;
      await tx.insertInto('webhook_delivery_bodies').values({ delivery_id: id, body: delivery.body }).execute();
      return true;
    });
    if (stored) {
      if (delivery.parsed !== undefined) this.remember(id, { parsed: delivery.parsed });
      return { id, duplicate: false };
    }
    const first = delivery.webhookId === null ? null : await storedDeliveryId(this.deps.db, delivery.shopId, delivery.webhookId);
    return { id: first ?? id, duplicate: true };
  }

  /**
   * Stores deliveries that arrived through the intake journal (server/webhooks/journal.ts), all in
   * one transaction, each with the id, arrival order and time it was given on arrival. Idempotent:
   * a record whose id is stored already (a journal replayed after a crash) or whose webhook id the
   * shop has already delivered stores nothing and answers `duplicate: true`. Answers one result per
   * record, in order. The bodies stored are kept in memory as text for this process's worker.
   */
  async storeRecords(records: readonly JournalRecord[]): Promise<{ id: string; duplicate: boolean }[]> {
    if (records.length === 0) return [];
    while (this.group) await this.group;
    const results = await this.deps.db.transaction().execute(async (tx) => {
      const out: { id: string; duplicate: boolean }[] = [];
      for (const r of records) {
        const inserted = await tx
          .insertInto('webhook_deliveries')
          .values({ id: r.id, shop_id: r.shopId, topic: r.topic, webhook_id: r.webhookId, order_key: r.orderKey, seq: r.seq, received_at: r.receivedAt, status: 'queued', attempts: 0, available_at: r.receivedAt, locked_until: null, last_error: null, result: null, finished_at: null })
          .onConflict((oc) => oc.doNothing())
          .executeTakeFirst();
        const stored = Number(inserted.numInsertedOrUpdatedRows ?? 0n) > 0;
        if (stored) await tx.insertInto('webhook_delivery_bodies').values({ delivery_id: r.id, body: r.body }).execute();
        out.push({ id: r.id, duplicate: !stored });
      }
      return out;
    });
    records.forEach((r, i) => {
      if (!results[i]!.duplicate) this.remember(r.id, { text: r.body });
    });
    return results;
  }

  /** Keeps a queued body in memory for the worker, forgetting the oldest beyond the budgets. */
  private remember(id: string, body: { parsed: unknown } | { text: string }): void {
    this.recent.set(id, body);
    if ('text' in body) this.recentChars += body.text.length;
    else this.recentParsed++;
    for (const [oldest] of this.recent) {
      if (this.recentChars <= RECENT_TEXT_CHARS && this.recentParsed <= RECENT_PARSED) break;
      this.forget(oldest);
    }
  }

  /** Takes a body out of memory; answers it. */
  private forget(id: string): { parsed: unknown } | { text: string } | undefined {
    const body = this.recent.get(id);
    if (!body) return undefined;
    this.recent.delete(id);
    if ('text' in body) this.recentChars -= body.text.length;
    else this.recentParsed--;
    return body;
  }

  /** Processes ready deliveries soon, in the background (coalesced: one run at a time). */
  kick(): void {
    if (this.notify) return this.notify();
    this.runs.kick();
  }

  /** Starts polling (for back-offs ending and deliveries queued by other processes). */
  start(): void {
    this.stopped = false;
    this.timer ??= setInterval(() => this.kick(), this.pollMs);
    this.timer.unref();
    this.kick();
  }

  /**
   * Stops claiming new deliveries, waits for the one in hand (SIGTERM) and releases the claims on
   * the rest of its batch, so another worker or the next start takes them at once.
   */
  async stop(): Promise<void> {
    this.stopped = true;
    if (this.timer) clearInterval(this.timer);
    this.timer = null;
    await this.runs.inFlight;
    const unprocessed = this.claimed;
    this.claimed = [];
    for (const d of unprocessed) {
      await this.deps.db
        .updateTable('webhook_deliveries')
        .set({ locked_until: null, attempts: d.attempts - 1 })
        .where('id', '=', d.id)
        .where('status', '=', 'queued')
        .where('locked_until', '=', d.locked_until)
        .execute()
        .catch((e: unknown) => this.logger?.warn({ err: e, deliveryId: d.id }, 'could not release a claimed delivery; its claim lapses'));
    }
  }

  /** Processes ready deliveries until none is left, including what a background run has in hand. */
  async drain(): Promise<void> {
    for (;;) {
      const inFlight = this.runs.inFlight;
      if (inFlight) {
        await inFlight;
        continue;
      }
      if (this.stopped || !(await this.runOnce())) {
        if (!this.runs.inFlight) return;
      }
    }
  }

  private async loop(): Promise<void> {
    const group = groupCommitOf(this.deps.db);
    for (;;) {
      if (this.stopped) return;
      const processed = group ? await this.runGroup(group) : (await this.runOnce()) ? 1 : 0;
      if (processed === 0) return;
      // With SQLite every query settles at once, so a backlog would run as one chain of
      // microtasks and hold the event loop (requests and timers wait) until it is empty. Let
      // whatever is waiting run between deliveries (between groups with a group commit).
      await new Promise((resolve) => setImmediate(resolve));
    }
  }

  /**
   * On a connection with a group commit (the processing thread's SQLite connection): processes
   * ready deliveries, up to `claimBatch` or GROUP_MS of work, as savepoints of one transaction and
   * commits them once (each delivery's own transaction still rolls back alone). Answers how many
   * were processed. Journaled records wait for the commit (`storeRecords`), so a record is never
   * confirmed before it is durable.
   */
  private async runGroup(group: GroupCommit): Promise<number> {
    // The write lock is taken only once there is work: a poll that finds nothing leaves it free.
    const first = await this.claim();
    if (!first) return 0;
    let processed = 0;
    let done!: () => void;
    this.group = new Promise<void>((resolve) => (done = resolve));
    group.begin();
    try {
      const started = performance.now();
      await this.process(first);
      processed++;
      // A group ends early when the serving thread waits for the write lock (a redemption, an admin save).
      while (!this.stopped && processed < this.claimBatch && performance.now() - started < GROUP_MS && !group.yieldRequested && (await this.runOnce())) processed++;
      group.commit();
    } catch (e) {
      if (group.active) group.rollback();
      // The claims were in the rolled-back group: look again.
      this.claimed = [];
      throw e;
    } finally {
      this.group = null;
      done();
    }
    return processed;
  }

  /** Claims and processes one ready delivery; false when none is ready. */
  async runOnce(): Promise<boolean> {
    const claimed = await this.claim();
    if (!claimed) return false;
    await this.process(claimed);
    return true;
  }

  /**
   * The next delivery to process: from the batch in hand while its claim lasts (with a margin of a
   * quarter of the lock time), else from a new claim of up to `claimBatch` ready deliveries.
   */
  private async claim(): Promise<WebhookDeliveriesTable | undefined> {
    while (this.claimed.length > 0) {
      const next = this.claimed.shift()!;
      if (Date.parse(next.locked_until ?? '') - this.lockMs / 4 > Date.now()) return next;
      // Held too long (the batch took most of the lock time): another worker may own it now.
    }
    // A claim that loses every candidate to other workers looks again (a few times) before saying none is ready.
    for (let tries = 0; tries < 5; tries++) {
      const { claimed, candidates } = await this.claimBatchOfReady();
      this.claimed = claimed;
      if (claimed.length > 0 || candidates === 0) break;
    }
    return this.claimed.shift();
  }

  /**
   * Locks up to `claimBatch` ready deliveries, oldest first, each the earliest waiting delivery of
   * its order, with one conditional update: a row another worker locked meanwhile is not updated
   * and not returned, so any number of workers in any number of processes share the queue.
   */
  private async claimBatchOfReady(): Promise<{ claimed: WebhookDeliveriesTable[]; candidates: number }> {
    const db = this.deps.db;
    const now = iso(Date.now());
    const candidates = await db
      .selectFrom('webhook_deliveries as d')
      .selectAll('d')
      .where('d.status', '=', 'queued')
      .where('d.available_at', '<=', now)
      .where((eb) => eb.or([eb('d.locked_until', 'is', null), eb('d.locked_until', '<', now)]))
      .where((eb) =>
        eb.not(
          eb.exists(
            eb
              .selectFrom('webhook_deliveries as e')
              .select('e.id')
              .whereRef('e.shop_id', '=', 'd.shop_id')
              .whereRef('e.order_key', '=', 'd.order_key')
              .where('e.status', '=', 'queued')
              .whereRef('e.seq', '<', 'd.seq'),
          ),
        ),
      )
      .orderBy('d.seq')
      .limit(this.claimBatch)
      .execute();
    if (candidates.length === 0) return { claimed: [], candidates: 0 };
    const lockedUntil = iso(Date.now() + this.lockMs);
    const won = await db
      .updateTable('webhook_deliveries')
      .set((eb) => ({ locked_until: lockedUntil, attempts: eb('attempts', '+', 1) }))
      .where('id', 'in', candidates.map((c) => c.id))
      .where('status', '=', 'queued')
      .where((eb) => eb.or([eb('locked_until', 'is', null), eb('locked_until', '<', now)]))
      .returning(['id', 'attempts'])
      .execute();
    const attempts = new Map(won.map((w) => [w.id, Number(w.attempts)]));
    const claimed = candidates.filter((c) => attempts.has(c.id)).map((c) => ({ ...c, locked_until: lockedUntil, attempts: attempts.get(c.id)! }));
    return { claimed, candidates: candidates.length };
  }

  private async process(delivery: WebhookDeliveriesTable): Promise<void> {
    const db = this.deps.db;
    const topic = queuedTopic(delivery.topic);
    // What a group read once (readOncePerGroup: a shop's row, programs, settings) may be changed by
    // a topic outside READS_CONFIG_ONLY (shop/redact, app/uninstalled): forgotten before and after it.
    const changesConfig = !READS_CONFIG_ONLY.has(delivery.topic);
    if (changesConfig) forgetGroupReads(db);
    try {
      if (!topic) throw new ApiError(400, 'unknown_topic', `No processor for ${delivery.topic}`);
      const kept = this.forget(delivery.id);
      const body = kept && 'parsed' in kept ? kept.parsed : parseExact(kept ? kept.text : (await BODY_OF.rows(db, 'one', { id: delivery.id }))[0]!.body);
      const markDone = async (tx: Db, result: unknown): Promise<void> => {
        await MARK_DONE.run(tx, 'one', { id: delivery.id, result: JSON.stringify(result ?? null), at: iso(Date.now()) });
      };
      let finished = false;
      const result = await topic.process(this.deps, delivery.shop_id, body, async (tx, result) => {
        await markDone(tx, result);
        finished = true;
      });
      if (!finished) await markDone(db, result);
    } catch (e) {
      const permanent = e instanceof ApiError && e.status < 500;
      const dead = permanent || delivery.attempts >= this.maxAttempts;
      const message = e instanceof Error ? `${e instanceof ApiError ? `${e.code}: ` : ''}${e.message}` : String(e);
      this.logger?.warn({ deliveryId: delivery.id, topic: delivery.topic, shop: delivery.shop_id, attempts: delivery.attempts, dead, error: message }, 'webhook delivery failed');
      await db
        .updateTable('webhook_deliveries')
        .set({
          status: dead ? 'dead' : 'queued',
          available_at: iso(Date.now() + this.backoff(delivery.attempts) * 1000),
          locked_until: null,
          last_error: message.slice(0, 2000),
          finished_at: dead ? iso(Date.now()) : null,
        })
        .where('id', '=', delivery.id)
        .execute();
    }
    if (changesConfig) forgetGroupReads(db);
  }
}
