/**
 * Queries built once with Kysely and then run from their compiled SQL with fresh parameters. On the
 * two-core development machine Kysely's builder and compiler cost about 0.02–0.13 ms a query, more
 * than SQLite takes for an indexed read or a one-row write: the storefront's reads and the
 * processing thread's per-order statements (about 25 an order) spend more in the builder than in
 * the database.
 *
 * `build` gets a sentinel for each named parameter; the compiled parameters are matched back to the
 * names, so the SQL text and placeholder order are Kysely's own for the dialect (SQLite `?`,
 * PostgreSQL `$n`). Each variant (`key`, e.g. a row count for a multi-row insert) is compiled once
 * per dialect on first use, so a transaction and its database share the compiled text.
 */
import { CompiledQuery, type Compilable, type QueryResult } from 'kysely';
import { directReaderOf, type Db } from './database';
import { isSqlite } from './dialect';

const SENTINEL = '\u0000param:';

export class CompiledOnce<N extends string, R = unknown> {
  private readonly compiled = new Map<string, { sql: string; order: (N | { value: unknown })[] }>();

  /**
   * @param build the query for variant `key`, with `p.<name>` wherever parameter `<name>` goes (a
   * sentinel typed `never` so it fits any column); constants may be written as they are.
   */
  constructor(private readonly build: (db: Db, p: Record<N, never>, key: string) => Compilable<R>) {}

  /** The SQL text and parameters of variant `key` with `values` on `db`'s dialect. */
  compile(db: Db, key: string, values: Record<N, unknown>): CompiledQuery<R> {
    const cacheKey = `${isSqlite(db as never) ? 'sqlite' : 'postgres'}|${key}`;
    let v = this.compiled.get(cacheKey);
    if (!v) {
      const sentinels = new Proxy({} as Record<N, never>, { get: (_t, name) => `${SENTINEL}${String(name)}` });
      const c = this.build(db, sentinels, key).compile();
      v = { sql: c.sql, order: c.parameters.map((p) => (typeof p === 'string' && p.startsWith(SENTINEL) ? (p.slice(SENTINEL.length) as N) : { value: p })) };
      this.compiled.set(cacheKey, v);
    }
    const params = v.order.map((o) => (typeof o === 'string' ? values[o] : o.value));
    return CompiledQuery.raw(v.sql, params) as CompiledQuery<R>;
  }

  /** Runs variant `key` with `values` on `db` (a database or a transaction); answers the rows. */
  async rows(db: Db, key: string, values: Record<N, unknown>): Promise<R[]> {
    const query = this.compile(db, key, values);
    // On the serving thread's SQLite connection, at once when no transaction holds it (directReaderOf).
    const rows = directReaderOf(db)?.(query.sql, query.parameters as unknown[]);
    if (rows) return rows as R[];
    return (await db.executeQuery(query)).rows;
  }

  /** Runs variant `key` (a write) with `values` on `db`; answers Kysely's result (`numAffectedRows`). */
  async run(db: Db, key: string, values: Record<N, unknown>): Promise<QueryResult<R>> {
    return db.executeQuery(this.compile(db, key, values));
  }
}
