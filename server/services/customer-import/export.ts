/**
 * Customer export (issue 10; spec 002 §2 Customers "Export", §6 "Essential: customer export"): the
 * customers of one list tab and search (or the ones selected on the list) as CSV, streamed 1,000
 * rows at a time in id order. The
 * columns are the import template's (Customer ID, Email, Phone, First Name, Last Name, Points,
 * Birthday, Tier) plus Type and Last Update, so an export imports back as it is. Every text cell is
 * escaped against spreadsheet formulas (csv.ts `csvCell`).
 */
import { sql } from 'kysely';
import type { Db } from '../../db/database';
import { listDocuments } from '../../store/documents';
import type { CustomerTab } from '../customers';
import { csvLine } from './csv';

/** The list's filters (server/services/customers.ts listCustomers): tab and search; or the customers selected on the list. */
export interface ExportQuery {
  tab: CustomerTab;
  /** Full e-mail (contains `@`) or the start of a first or last name, as the list searches. */
  search?: string;
  /** Only these customers (the list's bulk selection, at most EXPORT_MAX_IDS), within the tab and search. */
  ids?: readonly string[];
}

/** The most customers a bulk export names (the list's largest page). */
export const EXPORT_MAX_IDS = 100;

const TYPE_LABELS: Record<string, string> = { member: 'Member', guest: 'Guest', left: 'Left Program' };

/** The export's header line. */
export const EXPORT_HEADERS = ['Customer ID', 'Email', 'Phone', 'First Name', 'Last Name', 'Points', 'Birthday', 'Tier', 'Type', 'Last Update'] as const;

/**
 * CSV text of the shop's customers matching `q`, in chunks (header first). Points are the stored
 * balance in whole points (pending awards included). Starts with a UTF-8 byte-order mark so
 * spreadsheets read accents right.
 */
export async function* customerCsvChunks(db: Db, shopId: string, q: ExportQuery): AsyncGenerator<string> {
  const tiers = new Map((await listDocuments(db, shopId, ['tier.tier', 'tier.partner'])).map((t) => [t.id, typeof t.data.name === 'string' ? t.data.name : t.id]));
  yield `\uFEFF${csvLine(EXPORT_HEADERS)}`;
  let after: string | null = null;
  const search = q.search?.trim();
  for (;;) {
    // The same filter as the list (listCustomers); tests/api/customer-import.test.ts compares them.
    let page = db.selectFrom('customers').selectAll().where('shop_id', '=', shopId);
    if (q.tab === 'b2b') page = page.where('tier_id', 'in', (eb) => eb.selectFrom('documents').select('id').where('shop_id', '=', shopId).where('kind', '=', 'tier.partner'));
    else if (q.tab !== 'all') page = page.where('type', '=', q.tab);
    if (search) {
      if (search.includes('@')) page = page.where('email', 'in', [...new Set([search, search.toLowerCase()])]);
      else {
        const prefix = `${search.toLowerCase().replace(/[\\%_]/g, (m) => `\\${m}`)}%`;
        page = page.where((eb) => eb.or([eb(sql`lower(first_name)`, 'like', sql`${prefix} escape '\\'`), eb(sql`lower(last_name)`, 'like', sql`${prefix} escape '\\'`), eb(sql`lower(first_name || ' ' || last_name)`, 'like', sql`${prefix} escape '\\'`)]));
      }
    }
    if (q.ids) page = page.where('id', 'in', q.ids.length > 0 ? [...q.ids] : ['']);
    if (after !== null) page = page.where('id', '>', after);
    const rows = await page.orderBy('id').limit(1000).execute();
    if (rows.length === 0) return;
    yield rows
      .map((c) => csvLine([c.id, c.email, c.phone, c.first_name, c.last_name, c.points_balance, c.birthday, c.tier_id ? (tiers.get(c.tier_id) ?? c.tier_id) : '', TYPE_LABELS[c.type] ?? c.type, c.updated_at]))
      .join('');
    after = rows.at(-1)!.id;
  }
}
