/**
 * Opens the database and brings it to the latest migration: a SQLite file by default
 * (better-sqlite3, WAL; the folder is created on first start), or PostgreSQL when given a
 * `postgres://` / `postgresql://` URL (DATABASE_URL), through Kysely's PostgresDialect on a `pg`
 * pool. The same migrations and queries serve both.
 */
import { mkdirSync } from 'node:fs';
import { dirname } from 'node:path';
import SQLite from 'better-sqlite3';
import { Kysely, Migrator, PostgresDialect, SqliteDialect, type SqliteDatabase } from 'kysely';
import { startCheckpointer, SAFETY_NET_PAGES } from './checkpointer';
import { migrations } from './migrations';
import type { Database } from './tables';

export type Db = Kysely<Database>;

/** Pool settings for PostgreSQL; `sqliteSynchronous` for SQLite. */
export interface PostgresOptions {
  /** SQLite's `synchronous` with WAL (`normal`; ServerConfig.sqliteSynchronous). Ignored on PostgreSQL. */
  sqliteSynchronous?: 'normal' | 'full';
  /** SQLite file: checkpoint it from a worker thread (server/db/checkpointer.ts; true). One connection per file should. */
  checkpointer?: boolean;
  /** Connections in the pool (10). */
  max?: number;
  /** Milliseconds before an idle connection closes (10,000). */
  idleTimeoutMillis?: number;
  /** Schema to use (PostgreSQL `search_path`); created when missing. Tests give each app its own. */
  schema?: string;
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
  sqlite.pragma('journal_mode = WAL');
  sqlite.pragma(`synchronous = ${options.sqliteSynchronous === 'full' ? 'FULL' : 'NORMAL'}`);
  // SQLite's default page cache is 2 MB: a shop's indexes outgrow it early, and every lookup
  // then goes back to the operating system for its pages. 64 MB of cache, and reads straight from
  // a memory map of the file, keep them in memory.
  sqlite.pragma('cache_size = -65536');
  sqlite.pragma('mmap_size = 268435456');
  // Checkpoints run on a worker thread (server/db/checkpointer.ts), not inside a request's commit.
  const checkpointer = location === ':memory:' || options.checkpointer === false ? null : startCheckpointer(location);
  if (location !== ':memory:') sqlite.pragma(`wal_autocheckpoint = ${SAFETY_NET_PAGES}`);
  sqlite.pragma('foreign_keys = ON');
  sqlite.pragma('busy_timeout = 5000');
  const db = new Kysely<Database>({ dialect: new SqliteDialect({ database: withStatementCache(sqlite, () => checkpointer?.stop()) }) });
  await migrate(db);
  return db;
}

/**
 * The SQLite connection as Kysely sees it, with prepared statements kept by SQL text (the last
 * `size` distinct texts): Kysely's SQLite driver prepares every query afresh, which cost more than
 * running most of them (a webhook's dozen queries spent 0.6 ms preparing). Parameters are bound
 * per run, so a kept statement is safe to reuse; better-sqlite3 runs each to completion before
 * the next (streams, which would hold one open, are not used).
 */
function withStatementCache(sqlite: SQLite.Database, onClose: () => void, size = 500): SqliteDatabase {
  const statements = new Map<string, SQLite.Statement>();
  return {
    close: () => {
      onClose();
      sqlite.close();
    },
    prepare(text: string) {
      let statement = statements.get(text);
      if (statement) {
        // Least recently used goes first: move this one to the end.
        statements.delete(text);
      } else {
        statement = sqlite.prepare(text);
        if (statements.size >= size) statements.delete(statements.keys().next().value as string);
      }
      statements.set(text, statement);
      return statement;
    },
  };
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
    max: options.max ?? 10,
    idleTimeoutMillis: options.idleTimeoutMillis ?? 10_000,
    allowExitOnIdle: true,
    ...(schema ? { options: `-c search_path=${schema}` } : {}),
  });
  const db = new Kysely<Database>({ dialect: new PostgresDialect({ pool }) });
  await migrate(db, schema);
  return db;
}

/**
 * Runs pending migrations; throws with the failing migration's name. `schema` (PostgreSQL) keeps
 * the migration bookkeeping in that schema too, so schemas on one server never see each other's.
 */
export async function migrate(db: Db, schema?: string): Promise<void> {
  const migrator = new Migrator({
    db,
    provider: { getMigrations: async () => migrations },
    allowUnorderedMigrations: true,
    ...(schema ? { migrationTableSchema: schema } : {}),
  });
  const { error, results } = await migrator.migrateToLatest();
  if (error) {
    const failed = results?.find((r) => r.status === 'Error')?.migrationName ?? 'unknown';
    throw new Error(`database migration ${failed} failed: ${(error as Error).message ?? String(error)}`);
  }
}
