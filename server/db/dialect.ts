/** Which database a Kysely instance runs on, for the few places SQLite and PostgreSQL differ. */
import { SqliteAdapter, type Kysely } from 'kysely';

/** True when `db` runs on SQLite (some migrations differ: triggers). */
export function isSqlite(db: Kysely<unknown>): boolean {
  return db.getExecutor().adapter instanceof SqliteAdapter;
}
