/**
 * Imports a customer CSV from the command line with the same service as the admin's wizard
 * (issue 10; spec 002 §5 CSV import):
 *
 *   npm run import:customers -- --shop <domain> [--kind customers|birthday|points] [--tier-rule from_file|ignore] <file.csv>
 *
 * Uses the server's database (DATABASE_PATH or DATABASE_URL, as `npm start`); the shop must exist.
 * Columns are mapped by their header names (the wizard's guess). Prints progress after every batch
 * and a summary: imported rows, bad rows, points added and the path of the bad rows' CSV (written
 * beside the input as `<file>.errors.csv`). Exits 1 when the file is refused or the import fails.
 */
import { createReadStream, createWriteStream, existsSync, statSync } from 'node:fs';
import { once } from 'node:events';
import { parseArgs } from 'node:util';
import { configFromEnv } from '../server/config';
import { openDatabase } from '../server/db/database';
import { ApiError } from '../server/errors';
import { createImport, errorCsvLines, ImportRunner, startImport } from '../server/services/customer-import/job';
import { IMPORT_KINDS, TIER_RULES, type ImportKind, type TierRule } from '../server/services/customer-import/rules';
import { findShop } from '../server/store/shops';

const USAGE = 'usage: npm run import:customers -- --shop <domain> [--kind customers|birthday|points] [--tier-rule from_file|ignore] <file.csv>';

async function main(): Promise<number> {
  const { values, positionals } = parseArgs({ options: { shop: { type: 'string' }, kind: { type: 'string', default: 'customers' }, 'tier-rule': { type: 'string', default: 'from_file' } }, allowPositionals: true });
  const file = positionals[0];
  if (!values.shop || !file || positionals.length > 1) {
    console.error(USAGE);
    return 2;
  }
  if (!(IMPORT_KINDS as readonly string[]).includes(values.kind!) || !(TIER_RULES as readonly string[]).includes(values['tier-rule']!)) {
    console.error(USAGE);
    return 2;
  }
  if (!existsSync(file) || !statSync(file).isFile()) {
    console.error(`no file ${file}`);
    return 1;
  }
  const db = await openDatabase(configFromEnv().databasePath);
  try {
    if (!(await findShop(db, values.shop))) {
      console.error(`no shop ${values.shop} in this database (sign in to the admin once to create it)`);
      return 1;
    }
    const uploaded = await createImport({ db }, values.shop, { fileName: file.split('/').pop() ?? file, kind: values.kind as ImportKind, body: createReadStream(file), actor: 'cli' });
    console.log(`${uploaded.fileName}: ${uploaded.totalRows.toLocaleString('en-US')} rows; columns: ${Object.entries(uploaded.guessedMapping).map(([h, f]) => `${h} → ${f}`).join(', ')}`);
    await startImport({ db }, values.shop, uploaded.id, { mapping: uploaded.guessedMapping, tierRule: values['tier-rule'] as TierRule });
    const started = Date.now();
    const runner = new ImportRunner({ db }, {
      onProgress: (v) => process.stdout.write(`\r${v.processedRows.toLocaleString('en-US')} / ${v.totalRows.toLocaleString('en-US')} rows (${v.importedRows.toLocaleString('en-US')} imported, ${v.failedRows.toLocaleString('en-US')} bad)`),
    });
    const outcome = await runner.run(uploaded.id);
    process.stdout.write('\n');
    const done = await db.selectFrom('customer_imports').selectAll().where('id', '=', uploaded.id).executeTakeFirstOrThrow();
    let errorsPath: string | null = null;
    if (done.failed_rows > 0) {
      errorsPath = `${file.replace(/\.csv$/i, '')}.errors.csv`;
      const out = createWriteStream(errorsPath);
      for await (const chunk of errorCsvLines({ db }, values.shop, uploaded.id)) if (!out.write(chunk)) await once(out, 'drain');
      out.end();
      await once(out, 'finish');
    }
    console.log(`import ${uploaded.id} ${outcome === 'completed' ? 'completed' : `ended: ${outcome}`} in ${((Date.now() - started) / 1000).toFixed(1)} s`);
    console.log(`imported: ${done.imported_rows}`);
    console.log(`failed: ${done.failed_rows}`);
    console.log(`points added: ${done.points_awarded}`);
    if (errorsPath) console.log(`bad rows: ${errorsPath}`);
    if (done.error) console.log(`error: ${done.error}`);
    return outcome === 'completed' ? 0 : 1;
  } catch (e) {
    if (e instanceof ApiError) {
      const details = (e.details ?? []).map((d) => d.message).filter((m) => m !== e.message);
      console.error(`${e.message}${details.length ? `: ${details.join('; ')}` : ''}`);
      return 1;
    }
    throw e;
  } finally {
    await db.destroy();
  }
}

process.exitCode = await main();
