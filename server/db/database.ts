/**
 * Opens the database and brings it to the latest migration: a SQLite file by default
 * (better-sqlite3, WAL; the folder is created on first start), or PostgreSQL when given a
 * `postgres://` / `postgresql://` URL (DATABASE_URL), through Kysely's PostgresDialect on a `pg`
 * pool. The same migrations and queries serve both.
 */
import { mkdirSync } from 'node:fs';
import { dirname } from 'node:path';
import SQLite from 'better-sqlite3';
import { Kysely, Migrator, PostgresDialect, SqliteDialect, SqliteDriver, type DatabaseConnection, type Driver, type SqliteDatabase, type SqliteDialectConfig } from 'kysely';
import { startCheckpointer, SAFETY_NET_PAGES, SERVING_CHECKPOINT_PAGES } from './checkpointer';
import { LIFT_AFTER_MS, type WritePriority } from './write-priority';
import { liftThread } from '../thread-priority';
import { migrations } from './migrations';
import { isSqlite } from './dialect';
import type { Database } from './tables';

export type Db = Kysely<Database>;

/** Pool settings for PostgreSQL; `sqliteSynchronous` for SQLite. */
export interface PostgresOptions {
  /** SQLite's `synchronous` with WAL (`normal`; ServerConfig.sqliteSynchronous). Ignored on PostgreSQL. */
  sqliteSynchronous?: 'normal' | 'full';
  /** SQLite file: checkpoint it from a worker thread (server/db/checkpointer.ts; true). One connection per file should. */
  checkpointer?: boolean;
  /**
   * SQLite only: milliseconds a statement waits for another connection's write lock before
   * failing with SQLITE_BUSY (5000). SQLite waits by sleeping the calling thread.
   */
  busyTimeoutMs?: number;
  /**
   * SQLite only, for a thread that may block (the webhook processing thread): wait for the write
   * lock in short spins of 50 µs instead of SQLite's sleeps (which start at 1 ms). Transactions
   * begin IMMEDIATE, so a statement that meets the lock taken has read nothing yet and simply
   * runs again; gives up with the SQLITE_BUSY error after `busyTimeoutMs` (5000).
   */
  spinOnBusy?: boolean;
  /**
   * SQLite only: whether this connection's commits may run the safety-net checkpoint when the WAL
   * passes SAFETY_NET_PAGES (true). A connection that must never stall (the serving thread's
   * delivery intake) leaves it to the checkpointer and the other connections.
   */
  safetyNetCheckpoint?: boolean;
  /**
   * SQLite only: let the connection's owner commit several transactions as one ({@link GroupCommit},
   * found with {@link groupCommitOf}). For the webhook processing thread, the only writer of
   * awards: one commit per batch of deliveries instead of one per delivery.
   */
  groupCommit?: boolean;
  /**
   * SQLite only: the process's WritePriority (server/db/write-priority.ts). A spinning connection
   * (a background thread) yields to the serving thread before it takes the write lock, and its
   * group commit ends a group early when the serving thread waits; the serving thread's connection
   * counts its transactions in while they wait for the lock.
   */
  writePriority?: WritePriority;
  /** Connections in the pool (10). */
  max?: number;
  /** Milliseconds before an idle connection closes (10,000). */
  idleTimeoutMillis?: number;
  /** Schema to use (PostgreSQL `search_path`); created when missing. Tests give each app its own. */
  schema?: string;
  /**
   * PostgreSQL only: told when an idle pooled connection fails (the server restarted, an
   * administrator ended the session, the network dropped it). The pool discards that connection
   * and the next query opens a new one; without a listener node-postgres would throw the error out
   * of the event loop and end the process. Default: ignored.
   */
  onIdleConnectionError?: (message: string) => void;
}

/** True when `location` names a PostgreSQL database rather than a SQLite file. */
export function isPostgresUrl(location: string): boolean {
  return /^postgres(?:ql)?:\/\//.test(location);
}

/**
 * A Kysely instance on a SQLite file (or `:memory:` for tests) or a PostgreSQL URL, migrated to
 * the latest version. Throws when a migration fails (the error names it).
 */
export async function openDatabase(location: string, options: PostgresOptions = {}): Promise<Db> {
  if (isPostgresUrl(location)) return openPostgres(location, options);
  if (location !== ':memory:') mkdirSync(dirname(location), { recursive: true });
  const sqlite = new SQLite(location);
  // Turning a new file to WAL needs a moment alone with it: wait (as the connection's statements
  // will, below) rather than fail "database is locked" when another process opens it at the same
  // time (two instances starting on one file) or its checkpointer is reading it.
  sqlite.pragma(`busy_timeout = ${Math.max(0, Math.trunc(options.busyTimeoutMs ?? 5000))}`);
  sqlite.pragma('journal_mode = WAL');
  sqlite.pragma(`synchronous = ${options.sqliteSynchronous === 'full' ? 'FULL' : 'NORMAL'}`);
  // SQLite's default page cache is 2 MB: a shop's indexes outgrow it early, and every lookup
  // then goes back to the operating system for its pages. 64 MB of cache, and reads straight from
  // a memory map of the file, keep them in memory.
  sqlite.pragma('cache_size = -65536');
  sqlite.pragma('mmap_size = 268435456');
  // Checkpoints run on a worker thread (server/db/checkpointer.ts), not inside a request's commit.
  const checkpointer = location === ':memory:' || options.checkpointer === false ? null : startCheckpointer(location);
  // The connection that runs the checkpointer (the serving thread's) restarts the log at 16 MB; the
  // others keep the safety net (server/db/checkpointer.ts).
  if (location !== ':memory:') sqlite.pragma(`wal_autocheckpoint = ${options.safetyNetCheckpoint === false ? 0 : checkpointer ? SERVING_CHECKPOINT_PAGES : SAFETY_NET_PAGES}`);
  sqlite.pragma('foreign_keys = ON');
  const busyTimeoutMs = Math.max(0, Math.trunc(options.busyTimeoutMs ?? 5000));
  const spin = options.spinOnBusy ? busyTimeoutMs : null;
  // Without spinning, a statement that meets another connection's write lock does not sleep in
  // SQLite's busy handler: it fails at once and is run again on later turns of the event loop
  // (WaitingSqliteDriver), so the serving thread keeps answering while another connection writes.
  const waitAsync = spin === null && busyTimeoutMs > 0;
  sqlite.pragma(`busy_timeout = ${spin !== null || waitAsync ? 0 : busyTimeoutMs}`);
  const priority = options.writePriority ?? null;
  const group = options.groupCommit ? new SqliteGroupCommit(spin !== null ? priority : null) : null;
  // A group commit runs each delivery as a savepoint of one long transaction; a savepoint keeps the
  // pages it changes in a statement journal, which SQLite spills to a temporary file past 64 KiB —
  // most deliveries, since an order changes about a hundred pages. In memory instead: a third of the
  // processing thread's write calls, measured (strace, 1,500 orders: 396,000 → 145,000 pwrite).
  if (group) sqlite.pragma('temp_store = MEMORY');
  const database = withStatementCache(sqlite, () => checkpointer?.stop(), spin, group, 500, spin !== null ? priority : null);
  const dialect = waitAsync ? new WaitingSqliteDialect({ database }, busyTimeoutMs, priority) : new SqliteDialect({ database });
  const db = new Kysely<Database>({ dialect });
  const driver = dialect instanceof WaitingSqliteDialect ? dialect.driver : null;
  if (driver) directReaders.set(db, (text, parameters) => (driver.idle ? (database.prepare(text).all(parameters) as unknown[]) : null));
  if (group) groupCommits.set(db, group);
  await migrate(db);
  return db;
}

/**
 * Several of the app's transactions committed as one (a group commit), on one SQLite connection
 * opened with `groupCommit: true`. Between `begin()` and `commit()` every transaction the app
 * opens on the connection (Kysely's `begin` / `commit` / `rollback`) runs as a savepoint inside
 * one real transaction: a transaction that rolls back undoes only its own writes, and nothing is
 * durable until `commit()`. A crash before that loses the whole group, as it would lose an
 * uncommitted transaction. While a group is open the connection holds SQLite's write lock.
 */
export interface GroupCommit {
  /** Whether a group is open. */
  readonly active: boolean;
  /** Opens a group (`begin immediate`, waiting for the write lock as the connection's own transactions do). Throws when one is open. */
  begin(): void;
  /** Commits the group. */
  commit(): void;
  /** Rolls the whole group back. */
  rollback(): void;
  /** Whether the serving thread waits for the write lock (WritePriority): a group should commit now rather than grow. */
  readonly yieldRequested: boolean;
}

const groupCommits = new WeakMap<Db, GroupCommit>();

/**
 * Runs a read statement (SQL text in the SQLite dialect, positional parameters) at once on the
 * connection, past Kysely's connection queue; answers its rows, or null while a transaction or a
 * stream holds the connection (then go through Kysely, which waits for it).
 */
export type DirectReader = (sql: string, parameters: readonly unknown[]) => unknown[] | null;

const directReaders = new WeakMap<Db, DirectReader>();

/**
 * The serving thread's direct reader of a SQLite database (the storefront's hot reads:
 * server/proxy/shopper.ts), or undefined (PostgreSQL, a background thread's connection).
 * Kysely queues every statement behind one promise-based lock per SQLite connection, and each
 * release wakes every waiter (a sixth of a saturated storefront read's time went there); a read
 * when no transaction is open has nothing to wait for: better-sqlite3 runs it to completion.
 */
export function directReaderOf(db: Db): DirectReader | undefined {
  return directReaders.get(db);
}

/** The group commit of a database opened with `groupCommit: true`, else undefined. */
export function groupCommitOf(db: Db): GroupCommit | undefined {
  return groupCommits.get(db);
}

/**
 * The keys of readOncePerGroup, one builder per thing a group reads, so that callers reading the
 * same thing share one read and no two things share a key. Keyed by shop (ids are the shops'
 * domains); `documents` by shop and document kind (e.g. `earning.place_order`).
 */
export const groupReadKeys = {
  shop: (shopId: string) => `shop:${shopId}`,
  documents: (shopId: string, kind: string) => `documents:${shopId}:${kind}`,
  settings: (shopId: string) => `settings:${shopId}`,
  tierFacts: (shopId: string) => `tier-facts:${shopId}`,
  tierContext: (shopId: string) => `tier-context:${shopId}`,
  tierMultiplier: (shopId: string, tierId: string) => `tier-multiplier:${shopId}:${tierId}`,
  referralDocuments: (shopId: string) => `referral-documents:${shopId}`,
} as const;

/**
 * A value read once per group commit: while a group is open on `db` (the root Db of a connection
 * opened with `groupCommit: true`, as the webhook processing thread's is), the first call with
 * `key` (a groupReadKeys builder's) runs `load` and later calls in the same group get its promise; outside a group, and on any
 * other connection (PostgreSQL included), every call runs `load`. Sound because a group holds
 * SQLite's write lock from its first statement (`begin immediate`), so no other connection can
 * change what was read until the group ends, and the memo is dropped at every begin, commit and
 * rollback. For a shop's configuration (its row, programs, settings, tiers), which the deliveries of
 * a group read over and over and never write; a processor that may change it (the privacy topics)
 * calls forgetGroupReads first. A rejected load is not kept. The value is shared: never mutate it.
 */
export function readOncePerGroup<T>(db: Db, key: string, load: () => Promise<T>): Promise<T> {
  const group = groupCommits.get(db);
  if (!(group instanceof SqliteGroupCommit) || !group.active) return load();
  const kept = group.reads.get(key) as Promise<T> | undefined;
  if (kept) return kept;
  const loaded = load();
  group.reads.set(key, loaded);
  loaded.catch(() => {
    if (group.reads.get(key) === loaded) group.reads.delete(key);
  });
  return loaded;
}

/** Drops what readOncePerGroup kept in the open group on `db` (before a delivery that may change a shop's configuration). */
export function forgetGroupReads(db: Db): void {
  const group = groupCommits.get(db);
  if (group instanceof SqliteGroupCommit) group.reads.clear();
}

class SqliteGroupCommit implements GroupCommit {
  active = false;
  /** What readOncePerGroup kept in the open group, by key. */
  readonly reads = new Map<string, Promise<unknown>>();

  constructor(private readonly priority: WritePriority | null = null) {}

  get yieldRequested(): boolean {
    return this.priority?.wanted ?? false;
  }

  /** Runs a statement on the connection (set by withStatementCache). */
  run: (text: string) => void = () => {
    throw new Error('group commit not attached to a connection');
  };

  begin(): void {
    if (this.active) throw new Error('a group commit is already open');
    this.run('begin');
    this.reads.clear();
    this.active = true;
  }

  commit(): void {
    this.active = false;
    this.reads.clear();
    this.run('commit');
    // A serving write lifted this thread while the group held the lock: it is free now.
    this.priority?.lowerAgainIfLifted();
  }

  rollback(): void {
    this.active = false;
    this.reads.clear();
    this.run('rollback');
    this.priority?.lowerAgainIfLifted();
  }
}

/** Kysely's transaction statements as savepoints inside an open group. */
const SAVEPOINT_OF: Record<string, string[]> = {
  begin: ['savepoint app_tx'],
  commit: ['release app_tx'],
  rollback: ['rollback to app_tx', 'release app_tx'],
};

/**
 * The SQLite connection as Kysely sees it, with prepared statements kept by SQL text (the last
 * `size` distinct texts): Kysely's SQLite driver prepares every query afresh, which cost more than
 * running most of them (a webhook's dozen queries spent 0.6 ms preparing). Parameters are bound
 * per run, so a kept statement is safe to reuse; better-sqlite3 runs each to completion before
 * the next (streams, which would hold one open, are not used).
 */
function withStatementCache(sqlite: SQLite.Database, onClose: () => void, spinMs: number | null, group: SqliteGroupCommit | null = null, size = 500, yieldTo: WritePriority | null = null): SqliteDatabase {
  const statements = new Map<string, SQLite.Statement>();
  const database: SqliteDatabase = {
    close: () => {
      onClose();
      sqlite.close();
    },
    prepare(text: string) {
      const savepoint = group?.active ? SAVEPOINT_OF[text] : undefined;
      if (savepoint) {
        // Inside a group commit: the app's transaction is a savepoint of the group's.
        const run = (): SQLite.RunResult => {
          for (const step of savepoint) database.prepare(step).run([]);
          return { changes: 0, lastInsertRowid: 0 };
        };
        return { reader: false, run } as unknown as SQLite.Statement;
      }
      let statement = statements.get(text);
      if (statement) {
        // Least recently used goes first: move this one to the end.
        statements.delete(text);
      } else {
        // Transactions begin IMMEDIATE: a deferred one that read first and then wrote while another
        // connection held the write lock failed at once with "database is locked" (SQLite does not
        // wait for a read transaction's upgrade), a 500 under concurrent writers; now it waits for
        // the lock at its start like any statement.
        const prepared = sqlite.prepare(text === 'begin' ? 'begin immediate' : text);
        statement = spinMs === null ? prepared : spinningOnBusy(prepared, spinMs, text === 'begin' ? yieldTo : null);
        if (statements.size >= size) statements.delete(statements.keys().next().value as string);
      }
      statements.set(text, statement);
      return statement;
    },
  };
  if (group) group.run = (text) => void database.prepare(text).run([]);
  return database;
}

async function openPostgres(url: string, options: PostgresOptions): Promise<Db> {
  // Loaded only for PostgreSQL: a SQLite server starts without it.
  const { default: pg } = await import('pg');
  const schema = options.schema;
  if (schema !== undefined && !/^[a-z_][a-z0-9_]{0,62}$/.test(schema)) throw new Error(`invalid schema name ${schema}`);
  if (schema) {
    const client = new pg.Client({ connectionString: url });
    await client.connect();
    try {
      await client.query(`create schema if not exists ${schema}`);
    } finally {
      await client.end();
    }
  }
  const pool = new pg.Pool({
    connectionString: url,
    // `bigint` columns and count()/sum() results (int8) come back as numbers, as SQLite gives them:
    // points and minor currency units stay far below 2^53.
    types: { getTypeParser: ((oid: number, format?: 'text' | 'binary') => (oid === pg.types.builtins.INT8 ? Number : pg.types.getTypeParser(oid, format))) as typeof pg.types.getTypeParser },
    max: options.max ?? 10,
    idleTimeoutMillis: options.idleTimeoutMillis ?? 10_000,
    allowExitOnIdle: true,
    ...(schema ? { options: `-c search_path=${schema}` } : {}),
  });
  pool.on('error', (error) => options.onIdleConnectionError?.(error.message));
  const db = new Kysely<Database>({ dialect: new PostgresDialect({ pool }) });
  await migrate(db, schema);
  return db;
}

/** How often a migration that lost a race with another process is tried again, and how far apart (ms). */
const MIGRATION_ATTEMPTS = 8;
const MIGRATION_RETRY_MS = 250;

/**
 * Runs pending migrations; throws with the failing migration's name. `schema` (PostgreSQL) keeps
 * the migration bookkeeping in that schema too, so schemas on one server never see each other's.
 *
 * Two processes starting at once on one new database (several instances behind a load balancer)
 * race to migrate it. PostgreSQL serialises them with the migrator's lock; on SQLite the loser's
 * transaction fails ("table … already exists", or busy) and is rolled back whole (DDL is
 * transactional there), so it waits and tries again: by then the winner's migrations are recorded
 * and nothing is left to run. A migration that fails on its own fails every attempt and is thrown.
 */
export async function migrate(db: Db, schema?: string): Promise<void> {
  const migrator = new Migrator({
    db,
    provider: { getMigrations: async () => migrations },
    allowUnorderedMigrations: true,
    ...(schema ? { migrationTableSchema: schema } : {}),
  });
  for (let attempt = 1; ; attempt++) {
    const { error, results } = await migrator.migrateToLatest();
    if (!error) return;
    if (attempt < MIGRATION_ATTEMPTS && isSqlite(db as unknown as Kysely<unknown>)) {
      await new Promise((resolve) => setTimeout(resolve, MIGRATION_RETRY_MS * attempt));
      continue;
    }
    const failed = results?.find((r) => r.status === 'Error')?.migrationName ?? 'unknown';
    throw new Error(`database migration ${failed} failed: ${(error as Error).message ?? String(error)}`);
  }
}

/** SqliteDialect whose driver waits for the write lock without blocking the thread (WaitingSqliteDriver). */
class WaitingSqliteDialect extends SqliteDialect {
  constructor(
    private readonly settings: SqliteDialectConfig,
    private readonly timeoutMs: number,
    private readonly priority: WritePriority | null,
  ) {
    super(settings);
  }

  /** The driver Kysely made (Kysely's constructor asks for it at once). */
  driver: WaitingSqliteDriver | null = null;

  override createDriver(): Driver {
    this.driver = new WaitingSqliteDriver(this.settings, this.timeoutMs, this.priority);
    return this.driver;
  }
}

/**
 * Kysely's SQLite driver on a connection with `busy_timeout = 0`: a statement that meets another
 * connection's write lock (SQLITE_BUSY, at once) is run again on the next turns of the event loop
 * and then every millisecond, for up to `timeoutMs`, before the error is thrown. SQLite's own busy
 * handler would sleep the thread instead (1, 2, 5 … up to 100 ms at a time), stopping every other
 * request of the serving thread and oversleeping a lock that is free again within a millisecond
 * (redeem's p99 in bench:storefront). Safe to repeat: a busy statement did nothing, transactions
 * begin IMMEDIATE (so only their BEGIN meets the lock), and a busy COMMIT may be retried.
 */
class WaitingSqliteDriver extends SqliteDriver {
  private connection: DatabaseConnection | null = null;
  /** Between BEGIN and COMMIT / ROLLBACK (one connection: one transaction at a time). */
  private inTransaction = false;
  /** Streams open on the connection (each holds a statement open until it ends). */
  private streams = 0;

  /** No transaction and no stream holds the connection: a read may run on it at once (DirectReader). */
  get idle(): boolean {
    return !this.inTransaction && this.streams === 0;
  }

  constructor(
    settings: SqliteDialectConfig,
    private readonly timeoutMs: number,
    private readonly priority: WritePriority | null,
  ) {
    super(settings);
  }

  override async acquireConnection(): Promise<DatabaseConnection> {
    const inner = await super.acquireConnection();
    const streams = (change: number): void => void (this.streams += change);
    this.connection ??= {
      executeQuery: async (query) => {
        const started = Date.now();
        const until = started + this.timeoutMs;
        let counted = false;
        try {
          for (let attempt = 0; ; attempt++) {
            try {
              return await inner.executeQuery(query);
            } catch (e) {
              if (!String((e as { code?: unknown }).code ?? '').startsWith('SQLITE_BUSY') || Date.now() > until) throw e;
              // Waited long: the lowered background writer may be starved while it holds the lock (WritePriority).
              if (this.priority && Date.now() - started >= LIFT_AFTER_MS) this.priority.liftLoweredWriters(liftThread);
              // A write outside a transaction: background writers let it go first while it waits.
              if (!counted && !this.inTransaction && this.priority) {
                this.priority.waiting();
                counted = true;
              }
              await new Promise((resolve) => (attempt < 3 ? setImmediate(resolve) : setTimeout(resolve, 1)));
            }
          }
        } finally {
          if (counted) this.priority!.served();
        }
      },
      streamQuery: async function* (this: void, query, chunkSize) {
        streams(1);
        try {
          yield* inner.streamQuery(query, chunkSize);
        } finally {
          streams(-1);
        }
      },
    };
    return this.connection;
  }

  /**
   * A transaction counts itself in the WritePriority from before its BEGIN to its end: background
   * writers of this process neither take the lock while it waits nor in the moment between two
   * of the serving thread's transactions (redemptions one after another).
   */
  override async beginTransaction(connection: DatabaseConnection): Promise<void> {
    this.priority?.waiting();
    this.inTransaction = true;
    try {
      await super.beginTransaction(connection);
    } catch (e) {
      this.endTransaction();
      throw e;
    }
  }

  override async commitTransaction(connection: DatabaseConnection): Promise<void> {
    try {
      await super.commitTransaction(connection);
    } finally {
      this.endTransaction();
    }
  }

  override async rollbackTransaction(connection: DatabaseConnection): Promise<void> {
    try {
      await super.rollbackTransaction(connection);
    } finally {
      this.endTransaction();
    }
  }

  private endTransaction(): void {
    if (!this.inTransaction) return;
    this.inTransaction = false;
    // On the next turn of the event loop: the serving thread's next transaction, waiting for this
    // connection, begins within this turn's microtasks, before a background thread can slip in.
    const priority = this.priority;
    if (priority) setImmediate(() => priority.served());
  }
}

const spinCell = new Int32Array(new SharedArrayBuffer(4));

/**
 * The statement with `run`, `get` and `all` retried while they fail with SQLITE_BUSY, 50 µs apart
 * (Atomics.wait blocks this thread only), for up to `timeoutMs`; then the error is thrown. Safe for
 * autocommit statements and, with transactions begun IMMEDIATE, for every statement of one: the
 * lock is taken before anything is read, and a COMMIT that meets SQLITE_BUSY may be retried.
 * With `yieldTo` (the BEGIN of a background thread), first yields to a waiting serving-thread writer.
 */
function spinningOnBusy(statement: SQLite.Statement, timeoutMs: number, yieldTo: WritePriority | null = null): SQLite.Statement {
  for (const name of ['run', 'get', 'all'] as const) {
    const original = statement[name].bind(statement) as (...args: unknown[]) => unknown;
    (statement as unknown as Record<string, unknown>)[name] = (...args: unknown[]): unknown => {
      const until = Date.now() + timeoutMs;
      for (;;) {
        // A BEGIN of a background thread lets the serving thread's transactions go first (write-priority.ts).
        yieldTo?.yieldToServing();
        try {
          return original(...args);
        } catch (e) {
          if ((e as { code?: unknown }).code !== 'SQLITE_BUSY' || Date.now() > until) throw e;
          Atomics.wait(spinCell, 0, 0, 0.05);
        }
      }
    };
  }
  return statement;
}
