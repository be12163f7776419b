/**
 * Customer export (issue 10; spec 002 §2 Customers "Export", §6 "Essential: customer export"): the
 * customers of one list tab and search (or the ones selected on the list) as CSV, streamed 1,000
 * rows at a time in id order. The
 * columns are the import template's (Customer ID, Email, Phone, First Name, Last Name, Points,
 * Birthday, Tier) plus Type and Last Update, so an export imports back as it is. Every text cell is
 * escaped against spreadsheet formulas (csv.ts `csvCell`).
 */
import { sql } from 'kysely';
import type { FieldIssue } from '../../../engine/types';
import { checkGate } from '../../../engine/gates';
import type { Db } from '../../db/database';
import { ApiError } from '../../errors';
import { listDocuments } from '../../store/documents';
import { findShop } from '../../store/shops';
import { CUSTOMER_TABS, type CustomerTab } from '../customers';
import { shopContext } from '../shop-context';
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

/**
 * Checks the list filters of an export as a client sent them (the streamed download's query, the
 * e-mailed export's JSON body): `tab` one of CUSTOMER_TABS (default `all`), `search` at most 254
 * characters (trimmed), `ids` 1 to EXPORT_MAX_IDS non-empty ids (repeats dropped). `pathOf` names
 * each field in the error (`tab` for a query, `/tab` for a body).
 * @throws ApiError 400 `code` with one issue per bad field
 */
export function parseExportQuery(input: { tab?: unknown; search?: unknown; ids?: unknown }, pathOf: (field: 'tab' | 'search' | 'ids') => string, code = 'invalid_query'): ExportQuery {
  const issues: FieldIssue[] = [];
  const tab = input.tab === undefined || input.tab === null || input.tab === '' ? 'all' : input.tab;
  if (typeof tab !== 'string' || !(CUSTOMER_TABS as readonly string[]).includes(tab)) issues.push({ path: pathOf('tab'), message: `Must be one of ${CUSTOMER_TABS.join(', ')}` });
  const search = typeof input.search === 'string' ? input.search.trim() : '';
  if (input.search !== undefined && input.search !== null && typeof input.search !== 'string') issues.push({ path: pathOf('search'), message: 'Must be text' });
  else if (search.length > 254) issues.push({ path: pathOf('search'), message: 'Must be at most 254 characters' });
  let ids: string[] | undefined;
  if (input.ids !== undefined && input.ids !== null) {
    ids = Array.isArray(input.ids) ? [...new Set(input.ids as unknown[])].filter((id): id is string => typeof id === 'string') : [];
    if (!Array.isArray(input.ids) || ids.length !== new Set(input.ids as unknown[]).size || ids.length === 0 || ids.length > EXPORT_MAX_IDS || ids.some((id) => id === '' || id.length > 255)) {
      issues.push({ path: pathOf('ids'), message: `Name 1 to ${EXPORT_MAX_IDS} customers` });
    }
  }
  if (issues.length > 0) throw new ApiError(400, code, 'Value invalid', issues);
  return { tab: tab as CustomerTab, ...(search ? { search } : {}), ...(ids ? { ids } : {}) };
}

/**
 * The plan gate of every export (spec 002 §6 "Essential: customer export").
 * @throws ApiError 403 `plan_gate` naming the plan that unlocks it
 */
export async function requireExportGate(db: Db, shopId: string): Promise<void> {
  const shop = await findShop(db, shopId);
  const gate = await checkGate('customer_export', shop ? shopContext(shop).gate : { plan: 'free' });
  if (!gate.allowed) throw new ApiError(403, 'plan_gate', `Customer exports are available on the ${gate.unlockPlan ?? 'a higher'} plan. ${gate.reason}`, [{ path: '', message: gate.reason }]);
}

/** The export's header line. */
export const EXPORT_HEADERS = ['Customer ID', 'Email', 'Phone', 'First Name', 'Last Name', 'Points', 'Birthday', 'Tier', 'Type', 'Last Update'] as const;

/**
 * CSV text of the shop's customers matching `q`, in chunks (header first). Points are the stored
 * balance in whole points (pending awards included). Starts with a UTF-8 byte-order mark so
 * spreadsheets read accents right. `onRows` hears the customers of each chunk (the e-mailed
 * export counts them).
 */
export async function* customerCsvChunks(db: Db, shopId: string, q: ExportQuery, onRows?: (rows: number) => void): AsyncGenerator<string> {
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
    onRows?.(rows.length);
    yield rows
      .map((c) => csvLine([c.id, c.email, c.phone, c.first_name, c.last_name, c.points_balance, c.birthday, c.tier_id ? (tiers.get(c.tier_id) ?? c.tier_id) : '', TYPE_LABELS[c.type] ?? c.type, c.updated_at]))
      .join('');
    after = rows.at(-1)!.id;
  }
}
