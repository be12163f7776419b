/**
 * The import rules of spec 002 §5 "CSV import" as pure functions: which customer field each column
 * holds (guessed from the header names, then chosen by the merchant), which headers a birthday or
 * points import needs, and the check of one row — identifier (Customer ID, then Email, then Phone;
 * e-mail compared case-sensitively), birthday MM/DD, points a whole number ≥ 0, a tier that
 * exists, no e-mail or Customer ID twice in one file. No database, no I/O.
 */
import type { FieldIssue } from '../../../engine/types';

/** Customer fields a column can fill (spec 002 §3 "Import row identifiers"). */
export const IMPORT_FIELDS = ['customerId', 'email', 'phone', 'firstName', 'lastName', 'points', 'birthday', 'tier', 'createDate', 'type'] as const;
export type ImportField = (typeof IMPORT_FIELDS)[number];
/** Header name (as in the file) → field, or `ignore` for a column the import does not read. */
export type ColumnMapping = Record<string, ImportField | 'ignore'>;

/** What a file is: a customer migration, a birthday-only import or a points import (spec 002 §5). */
export const IMPORT_KINDS = ['customers', 'birthday', 'points'] as const;
export type ImportKind = (typeof IMPORT_KINDS)[number];

/** The tier rule step: assign the tier named in the file's tier column, or leave tiers as they are. */
export const TIER_RULES = ['from_file', 'ignore'] as const;
export type TierRule = (typeof TIER_RULES)[number];

/** The largest points one row may bring (whole points), as for one award elsewhere. */
export const MAX_IMPORT_POINTS = 1_000_000_000;

/** Header names each field is recognised by (lower case, letters and digits only). */
const FIELD_ALIASES: Record<ImportField, readonly string[]> = {
  customerId: ['customerid', 'id', 'shopifycustomerid'],
  email: ['email', 'emailaddress', 'customeremail', 'mail'],
  phone: ['phone', 'phonenumber', 'mobile', 'customerphone'],
  firstName: ['firstname', 'givenname'],
  lastName: ['lastname', 'surname', 'familyname'],
  points: ['points', 'point', 'pointbalance', 'pointsbalance', 'balance', 'loyaltypoints'],
  birthday: ['birthday', 'birthdate', 'dateofbirth', 'dob'],
  tier: ['tier', 'viptier', 'tiername'],
  createDate: ['createdate', 'createdat', 'created', 'date'],
  type: ['type', 'customertype'],
};

const normalizeHeader = (header: string): string => header.toLowerCase().replace(/[^a-z0-9]/g, '');

/**
 * The mapping guessed from header names: each field goes to the first header that names it
 * (`Customer ID` → customerId, `E-mail` → email, …); every other header is `ignore`. Shopify's
 * `Default Address Phone` is not the customer's phone and is ignored; its `Phone` is mapped.
 */
export function guessMapping(headers: readonly string[]): ColumnMapping {
  const mapping: ColumnMapping = {};
  const taken = new Set<ImportField>();
  for (const header of headers) {
    if (header in mapping) continue;
    const key = normalizeHeader(header);
    const field = IMPORT_FIELDS.find((f) => !taken.has(f) && FIELD_ALIASES[f].includes(key));
    mapping[header] = field ?? 'ignore';
    if (field) taken.add(field);
  }
  return mapping;
}

const FIELD_HEADER: Record<ImportField, string> = {
  customerId: 'Customer ID',
  email: 'Email',
  phone: 'Phone',
  firstName: 'First Name',
  lastName: 'Last Name',
  points: 'Points',
  birthday: 'Birthday',
  tier: 'Tier',
  createDate: 'Create Date',
  type: 'Type',
};

/** The header name the app's template uses for a field (`Customer ID`, `Create Date`, …). */
export const templateHeader = (field: ImportField): string => FIELD_HEADER[field];

/** Fields a kind of import must have a column for (spec 002 §5: birthday Email + Birthday; points Email + Points). */
const REQUIRED_FIELDS: Record<ImportKind, readonly ImportField[]> = { customers: [], birthday: ['email', 'birthday'], points: ['email', 'points'] };

/**
 * The mapping's problems, as field issues for a 422 "Your file is invalid": an unknown header or
 * field, a field chosen twice, no identifier column (Customer ID, Email or Phone), or a header the
 * kind of import needs ("Email header is missing", "Birthday header is missing", "Points header is
 * missing"). Empty when the mapping can run.
 */
export function mappingIssues(headers: readonly string[], mapping: ColumnMapping, kind: ImportKind): FieldIssue[] {
  const issues: FieldIssue[] = [];
  const used = new Map<ImportField, string>();
  for (const [header, field] of Object.entries(mapping)) {
    const path = `/mapping/${header.replace(/~/g, '~0').replace(/\//g, '~1')}`;
    if (!headers.includes(header)) issues.push({ path, message: 'This column is not in the file' });
    else if (field !== 'ignore' && !(IMPORT_FIELDS as readonly string[]).includes(field)) issues.push({ path, message: `Must be one of ${IMPORT_FIELDS.join(', ')} or ignore` });
    else if (field !== 'ignore') {
      if (used.has(field)) issues.push({ path, message: `${FIELD_HEADER[field]} is already read from the column ${used.get(field)!}` });
      used.set(field, header);
    }
  }
  for (const field of REQUIRED_FIELDS[kind]) {
    if (!used.has(field)) issues.push({ path: '/mapping', message: `${FIELD_HEADER[field]} header is missing` });
  }
  if (kind === 'customers' && !used.has('customerId') && !used.has('email') && !used.has('phone')) {
    issues.push({ path: '/mapping', message: 'Map at least one identifier column: Customer ID, Email or Phone' });
  }
  return issues;
}

/** A row that passed every rule, ready to be written. Points are whole points. */
export interface ImportRow {
  /** Row number in the file (the header is row 1). */
  row: number;
  customerId?: string;
  email?: string;
  phone?: string;
  firstName?: string;
  lastName?: string;
  points?: number;
  /** MM/DD. */
  birthday?: string;
  /** Id of the tier document, when the tier rule reads the file's tier column. */
  tierId?: string;
  /** ISO instant of the points' Create Date. */
  createdAt?: string;
  /** member, guest or left. */
  type?: string;
}

/**
 * What the tier column may name (by lower-case name or by id): the tier's id, or the reason a row
 * naming it is refused (a tier entered by another method than the VIP program's, spec 002 §5 "The
 * tier import column must match the tier method").
 */
export type TierMatch = string | { refused: string };

/** A bad row: its number, the reasons (joined with "; ") and its cells. */
export interface BadRow {
  row: number;
  reason: string;
  cells: string[];
}

export type CheckedRow = { ok: true; value: ImportRow } | { ok: false; bad: BadRow };

const DAYS_IN_MONTH = [31, 29, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31];
const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;
const CUSTOMER_ID = /^(?:gid:\/\/shopify\/Customer\/)?(\d{1,20})$/;
const BIRTHDAY = /^(\d{1,2})\/(\d{1,2})$/;
const WHOLE = /^\d{1,10}$/;
const TYPES: Record<string, string> = { member: 'member', guest: 'guest', left: 'left', 'left program': 'left' };

/** Platform exports write ids and phones as `'7425035255929` so spreadsheets keep them as text. */
const unquote = (value: string): string => (value.startsWith("'") ? value.slice(1).trim() : value);

/** A Create Date: `YYYY-MM-DD`, an ISO instant, `YYYY-MM-DD HH:MM:SS -0500` (platform exports) or `MM/DD/YYYY`; null when unreadable. */
export function parseCreateDate(text: string): string | null {
  let iso: string | null = null;
  let m: RegExpExecArray | null;
  if ((m = /^(\d{4})-(\d{2})-(\d{2})$/.exec(text))) iso = `${m[1]}-${m[2]}-${m[3]}T00:00:00.000Z`;
  else if ((m = /^(\d{1,2})\/(\d{1,2})\/(\d{4})$/.exec(text))) iso = `${m[3]}-${m[1]!.padStart(2, '0')}-${m[2]!.padStart(2, '0')}T00:00:00.000Z`;
  else if ((m = /^(\d{4}-\d{2}-\d{2}) (\d{2}:\d{2}:\d{2}) ([+-]\d{2})(\d{2})$/.exec(text))) iso = `${m[1]}T${m[2]}${m[3]}:${m[4]}`;
  else if (/^\d{4}-\d{2}-\d{2}T[\d:.]+(?:Z|[+-]\d{2}:\d{2})$/.test(text)) iso = text;
  if (!iso) return null;
  const time = Date.parse(iso);
  if (Number.isNaN(time)) return null;
  const date = new Date(time);
  // Date.parse rolls 02/30 over into March: refuse dates that do not exist.
  if (/^\d{4}-\d{2}-\d{2}T00:00:00\.000Z$/.test(iso) && date.toISOString() !== iso) return null;
  return date.toISOString();
}

/** `MM/DD` (zero-padded) for a valid month and day (29 February allowed), else null. */
export function parseBirthday(text: string): string | null {
  const m = BIRTHDAY.exec(text);
  if (!m) return null;
  const month = Number(m[1]);
  const day = Number(m[2]);
  if (month < 1 || month > 12 || day < 1 || day > DAYS_IN_MONTH[month - 1]!) return null;
  return `${String(month).padStart(2, '0')}/${String(day).padStart(2, '0')}`;
}

/**
 * A set of text keys with the row each was first seen on, kept as an 85-bit hash in typed arrays
 * (about 32 bytes a key instead of the string and a Map entry, ~100 bytes), so a 350,000-row file's
 * e-mails and ids take a few megabytes. Two different keys of one file share a hash with a chance
 * below 10⁻¹⁴ (the second would then be reported as a duplicate).
 */
export class KeyRows {
  private hashes = new Float64Array(1024);
  private checks = new Int32Array(1024);
  private rows = new Int32Array(1024);
  private count = 0;

  /** Two lanes of FNV-1a-style mixing (53 bits) and a third independent 32-bit lane. */
  private static hash(key: string): [number, number] {
    let a = 0x811c9dc5;
    let b = 0x01000193 ^ key.length;
    let c = 5381;
    for (let i = 0; i < key.length; i++) {
      const ch = key.charCodeAt(i);
      a = Math.imul(a ^ ch, 0x01000193);
      b = Math.imul(b ^ ch, 0x5bd1e995) ^ (b >>> 15);
      c = (Math.imul(c, 33) + ch) | 0;
    }
    return [(a >>> 0) * 0x200000 + ((b >>> 0) & 0x1fffff), c];
  }

  /** The slot of a hash: where it is, or the empty slot where it would go (rows 0 = empty). */
  private slot(h: number, check: number): number {
    const mask = this.rows.length - 1;
    let i = (h % 0x100000000 >>> 0) & mask;
    while (this.rows[i] !== 0 && (this.hashes[i] !== h || this.checks[i] !== check)) i = (i + 1) & mask;
    return i;
  }

  /** The row `key` was first seen on, or undefined. */
  get(key: string): number | undefined {
    const [h, check] = KeyRows.hash(key);
    const row = this.rows[this.slot(h, check)]!;
    return row === 0 ? undefined : row;
  }

  /** Remembers `key` on `row` (≥ 1; a key already there keeps its first row). */
  set(key: string, row: number): void {
    if ((this.count + 1) * 2 > this.rows.length) this.grow();
    const [h, check] = KeyRows.hash(key);
    const i = this.slot(h, check);
    if (this.rows[i] !== 0) return;
    this.hashes[i] = h;
    this.checks[i] = check;
    this.rows[i] = row;
    this.count++;
  }

  private grow(): void {
    const { hashes, checks, rows } = this;
    this.hashes = new Float64Array(rows.length * 2);
    this.checks = new Int32Array(rows.length * 2);
    this.rows = new Int32Array(rows.length * 2);
    for (let j = 0; j < rows.length; j++) {
      if (rows[j] === 0) continue;
      const i = this.slot(hashes[j]!, checks[j]!);
      this.hashes[i] = hashes[j]!;
      this.checks[i] = checks[j]!;
      this.rows[i] = rows[j]!;
    }
  }
}

/**
 * Checks rows one after another (spec 002 §5). Keeps the e-mails and Customer IDs of the rows it
 * accepted, so a later row repeating one is a bad row naming the first; feed every row of a file in
 * order, including rows a resumed import already committed, to rebuild that memory.
 */
export class RowChecker {
  private readonly columns: [number, ImportField][];
  private readonly seenEmail = new KeyRows();
  private readonly seenId = new KeyRows();
  private readonly seenPhone = new KeyRows();

  /**
   * @param headers the file's header names
   * @param mapping header → field (checked with mappingIssues first)
   * @param tiers the shop's tiers by lower-case name and by id (→ id, or why a row may not name it), or null when the tier rule is `ignore`
   */
  constructor(
    headers: readonly string[],
    mapping: ColumnMapping,
    private readonly kind: ImportKind,
    private readonly tiers: ReadonlyMap<string, TierMatch> | null,
  ) {
    this.columns = [];
    headers.forEach((h, i) => {
      const field = mapping[h];
      if (field && field !== 'ignore' && !this.columns.some(([, f]) => f === field)) this.columns.push([i, field]);
    });
  }

  /** The row's verdict. `row` is its number in the file (the header is row 1). */
  check(cells: string[], row: number): CheckedRow {
    const reasons: string[] = [];
    const value: ImportRow = { row };
    for (const [index, field] of this.columns) {
      const raw = (cells[index] ?? '').trim();
      if (raw === '') continue;
      switch (field) {
        case 'customerId': {
          const m = CUSTOMER_ID.exec(unquote(raw));
          if (m) value.customerId = m[1]!;
          else reasons.push('Customer ID must be a number');
          break;
        }
        case 'email':
          if (raw.length <= 254 && EMAIL.test(raw)) value.email = raw;
          else reasons.push('Invalid email');
          break;
        case 'phone': {
          const phone = unquote(raw);
          if (phone.length <= 32 && /^\+?[\d\s().-]{3,}$/.test(phone)) value.phone = phone;
          else reasons.push('Invalid phone');
          break;
        }
        case 'firstName':
        case 'lastName':
          if (raw.length <= 255) value[field] = raw;
          else reasons.push(`${FIELD_HEADER[field]} must be at most 255 characters`);
          break;
        case 'points':
          if (WHOLE.test(raw) && Number(raw) <= MAX_IMPORT_POINTS) value.points = Number(raw);
          else reasons.push(`Points must be a whole number from 0 to ${MAX_IMPORT_POINTS.toLocaleString('en-US')}`);
          break;
        case 'birthday': {
          const birthday = parseBirthday(raw);
          if (birthday) value.birthday = birthday;
          else reasons.push('Birthday must be MM/DD');
          break;
        }
        case 'tier':
          if (this.tiers) {
            const match = this.tiers.get(raw.toLowerCase()) ?? this.tiers.get(raw);
            if (typeof match === 'string') value.tierId = match;
            else if (match) reasons.push(match.refused);
            else reasons.push(`Unknown tier: ${raw}`);
          }
          break;
        case 'createDate': {
          const createdAt = parseCreateDate(raw);
          if (createdAt) value.createdAt = createdAt;
          else reasons.push('Create Date is not a valid date');
          break;
        }
        case 'type': {
          const type = TYPES[raw.toLowerCase()];
          if (type) value.type = type;
          else reasons.push('Type must be Member, Guest or Left Program');
          break;
        }
      }
    }
    if (this.kind !== 'customers' && value.email === undefined && !reasons.includes('Invalid email')) reasons.push('Email is required');
    if (this.kind === 'birthday' && value.birthday === undefined && !reasons.includes('Birthday must be MM/DD')) reasons.push('Birthday is required');
    if (this.kind === 'points' && value.points === undefined && !reasons.some((r) => r.startsWith('Points'))) reasons.push('Points is required');
    if (this.kind === 'customers' && value.customerId === undefined && value.email === undefined && value.phone === undefined && !reasons.some((r) => r === 'Invalid email' || r === 'Invalid phone' || r.startsWith('Customer ID'))) {
      reasons.push('Missing identifier: Customer ID, Email or Phone');
    }
    const emailRow = value.email !== undefined ? this.seenEmail.get(value.email) : undefined;
    if (emailRow !== undefined) reasons.push(`Duplicate email in this file (first on row ${emailRow})`);
    const idRow = value.customerId !== undefined ? this.seenId.get(value.customerId) : undefined;
    if (idRow !== undefined) reasons.push(`Duplicate Customer ID in this file (first on row ${idRow})`);
    const byPhoneOnly = value.customerId === undefined && value.email === undefined && value.phone !== undefined;
    const phoneRow = byPhoneOnly ? this.seenPhone.get(value.phone!) : undefined;
    if (phoneRow !== undefined) reasons.push(`Duplicate phone in this file (first on row ${phoneRow})`);
    if (reasons.length > 0) return { ok: false, bad: { row, reason: reasons.join('; '), cells } };
    if (value.email !== undefined) this.seenEmail.set(value.email, row);
    if (value.customerId !== undefined) this.seenId.set(value.customerId, row);
    if (byPhoneOnly) this.seenPhone.set(value.phone!, row);
    return { ok: true, value };
  }
}
