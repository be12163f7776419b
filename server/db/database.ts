/**
 * Opens the database and brings it to the latest migration. SQLite file by default (better-sqlite3,
 * WAL); the folder is created on first start. PostgreSQL support plugs in here (DATABASE_URL) with
 * the same migrations and queries.
 */
import { mkdirSync } from 'node:fs';
import { dirname } from 'node:path';
import SQLite from 'better-sqlite3';
import { Kysely, Migrator, SqliteDialect } from 'kysely';
import { migrations } from './migrations';
import type { Database } from './tables';

export type Db = Kysely<Database>;

/**
 * A Kysely instance on a SQLite file (or `:memory:` for tests), migrated to the latest version.
 * Throws when a migration fails (the error names it).
 */
export async function openDatabase(path: string): Promise<Db> {
  if (path !== ':memory:') mkdirSync(dirname(path), { recursive: true });
  const sqlite = new SQLite(path);
  sqlite.pragma('journal_mode = WAL');
  sqlite.pragma('foreign_keys = ON');
  sqlite.pragma('busy_timeout = 5000');
  const db = new Kysely<Database>({ dialect: new SqliteDialect({ database: sqlite }) });
  await migrate(db);
  return db;
}

/** Runs pending migrations; throws with the failing migration's name. */
export async function migrate(db: Db): Promise<void> {
  const migrator = new Migrator({ db, provider: { getMigrations: async () => migrations }, allowUnorderedMigrations: true });
  const { error, results } = await migrator.migrateToLatest();
  if (error) {
    const failed = results?.find((r) => r.status === 'Error')?.migrationName ?? 'unknown';
    throw new Error(`database migration ${failed} failed: ${(error as Error).message ?? String(error)}`);
  }
}
