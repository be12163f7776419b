/**
 * Prepares PostgreSQL for the API suite's second run (scripts/test.ts): drops the databases earlier
 * runs left (`t_…`), then (re)creates the template database TEST_DATABASE_TEMPLATE
 * (loyalty_template) at the latest migration. Each test then copies it (tests/support/app.ts).
 * Usage: TEST_DATABASE_URL=postgres://user:pass@host/db tsx scripts/pg-test-template.ts
 */
import pg from 'pg';
import { openDatabase } from '../server/db/database';

const url = process.env.TEST_DATABASE_URL;
if (!url) {
  console.error('TEST_DATABASE_URL is not set');
  process.exit(1);
}
const template = process.env.TEST_DATABASE_TEMPLATE ?? 'loyalty_template';
const admin = new pg.Client({ connectionString: url });
await admin.connect();
const { rows } = await admin.query<{ datname: string }>("select datname from pg_database where datname like 't\\_%' or datname = $1", [template]);
// A database another run is still using cannot be dropped (PostgreSQL refuses while it has
// connections): it is left to that run, and to the next clean-up.
let inUse = 0;
for (const { datname } of rows) {
  try {
    await admin.query(`drop database if exists ${datname}`);
  } catch (e) {
    if (datname === template) throw e;
    inUse += 1;
  }
}
await admin.query(`create database ${template}`);
await admin.end();
const target = new URL(url);
target.pathname = `/${template}`;
const db = await openDatabase(target.toString(), { max: 1 });
await db.destroy();
console.log(`PostgreSQL template ${template} ready (dropped ${rows.length - inUse} earlier databases, ${inUse} still in use)`);
