/**
 * Opens the database and brings it to the latest migration: a SQLite file by default
 * (better-sqlite3, WAL; the folder is created on first start), or PostgreSQL when given a
 * `postgres://` / `postgresql://` URL (DATABASE_URL), through Kysely's PostgresDialect on a `pg`
 * pool. The same migrations and queries serve both.
 */
import { mkdirSync } from 'node:fs';
import { dirname } from 'node:path';
import SQLite from 'better-sqlite3';
import { Kysely, Migrator, PostgresDialect, SqliteDialect } from 'kysely';
import pg from 'pg';
import { migrations } from './migrations';
import type { Database } from './tables';

export type Db = Kysely<Database>;

/** Pool settings for PostgreSQL (ignored for SQLite). */
export interface PostgresOptions {
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
  sqlite.pragma('foreign_keys = ON');
  sqlite.pragma('busy_timeout = 5000');
  const db = new Kysely<Database>({ dialect: new SqliteDialect({ database: sqlite }) });
  await migrate(db);
  return db;
}

async function openPostgres(url: string, options: PostgresOptions): Promise<Db> {
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
