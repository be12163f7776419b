/**
 * Wallet passes (spec 002 §2 "Wallet pass designer", §3 "**Wallet pass**: header, rows with left
 * and right labels and values", §5 "Wallet pass and button icon 30x30 px"): fills the shop's pass
 * design (`membership.wallet_pass`) with one customer's values. Pure: the server fills a real
 * customer's pass with it and the admin's live preview fills the unsaved design with a sample
 * customer, so both always show the same text.
 *
 * @example
 * fillWalletPass(design, { id: '7', firstName: 'Ana', lastName: 'Diaz', points: 1250, … }, { locale: 'en-US', timeZone: 'America/New_York' })
 * // → { header: { title: 'Rewards card', logo: null }, rows: [{ left: { label: 'Member', field: 'name', value: 'Ana Diaz' }, right: { …, value: '1,250' } }], … }
 */
import type { MembershipWalletPass } from './generated/membership.wallet_pass';

/** The kind holding the shop's pass design: one document per shop. */
export const WALLET_PASS_KIND = 'membership.wallet_pass';

/**
 * Customer fields a pass row may show, as the design's `value` enum lists them (the schema is the
 * authority; tests/api/wallet-pass.test.ts compares the two lists). `none` leaves the side empty.
 */
export const WALLET_VALUE_FIELDS = [
  'name',
  'first_name',
  'email',
  'phone',
  'points',
  'pending_points',
  'lifetime_points',
  'tier',
  'member_since',
  'birthday',
  'referral_code',
  'customer_id',
  'none',
] as const;
export type WalletValueField = (typeof WALLET_VALUE_FIELDS)[number];

/** The pass design as stored (defaults applied by the kind's validator). */
export type WalletPassDesign = MembershipWalletPass;

/**
 * What a pass can show about one customer. Points are whole points; `memberSince` is an ISO 8601
 * instant (when the customer joined); `birthday` is the stored `MM/DD` or null.
 */
export interface WalletCustomerFacts {
  /** Platform customer id, an exact string (ids exceed 2^53). */
  id: string;
  firstName: string;
  lastName: string;
  email: string;
  phone: string | null;
  birthday: string | null;
  /** Available points (the balance less pending awards). */
  points: number;
  pendingPoints: number;
  /** Points ever earned. */
  lifetimePoints: number;
  /** The VIP tier's name, or null when the customer has none. */
  tierName: string | null;
  memberSince: string;
  /** The customer's referral link code, or null before they have a link. */
  referralCode: string | null;
}

/** One side of a filled row: the merchant's label, which field, and the customer's value as shown. */
export interface FilledCell {
  label: string;
  field: WalletValueField;
  /** The value as text; `''` for `none`, `'—'` when the customer has no such value. */
  value: string;
}

/** A pass filled for one customer: what the admin shows and what every wallet adapter issues. */
export interface FilledWalletPass {
  header: { title: string; logo: string | null };
  /** `#RRGGBB` colors of the design. */
  colors: { background: string; foreground: string; label: string };
  rows: { left: FilledCell; right: FilledCell }[];
  customerId: string;
  /** The customer's name (or e-mail when the platform sent no name), for the wallet's account name. */
  accountName: string;
  /** Available points, whole points (the wallet's balance field). */
  points: number;
}

/** How values are written: a BCP 47 locale (default `en-US`) and the store's IANA time zone (default UTC). */
export interface WalletFormat {
  locale?: string;
  timeZone?: string;
}

/** Shown for a field the customer has no value for (no tier, no phone, no referral link yet). */
export const NO_VALUE = '—';

const MONTHS_DAY = /^(\d{2})\/(\d{2})$/;

/**
 * The text of one field for one customer: points grouped in `format.locale` ("1,250"), dates in
 * its medium style in the store's time zone ("Mar 4, 2024"), a birthday as month and day.
 */
export function walletValue(field: WalletValueField, facts: WalletCustomerFacts, format: WalletFormat = {}): string {
  const locale = format.locale ?? 'en-US';
  const number = (n: number) => new Intl.NumberFormat(locale).format(n);
  const text = (s: string | null | undefined) => (s && s.trim() ? s.trim() : NO_VALUE);
  switch (field) {
    case 'name':
      return text(`${facts.firstName} ${facts.lastName}`);
    case 'first_name':
      return text(facts.firstName);
    case 'email':
      return text(facts.email);
    case 'phone':
      return text(facts.phone);
    case 'points':
      return number(facts.points);
    case 'pending_points':
      return number(facts.pendingPoints);
    case 'lifetime_points':
      return number(facts.lifetimePoints);
    case 'tier':
      return text(facts.tierName);
    case 'member_since': {
      const at = new Date(facts.memberSince);
      if (Number.isNaN(at.getTime())) return NO_VALUE;
      return new Intl.DateTimeFormat(locale, { dateStyle: 'medium', timeZone: format.timeZone ?? 'UTC' }).format(at);
    }
    case 'birthday': {
      const m = MONTHS_DAY.exec(facts.birthday ?? '');
      if (!m) return NO_VALUE;
      // A leap year, so 02/29 is a date; UTC so no time zone moves the day.
      const at = new Date(Date.UTC(2000, Number(m[1]) - 1, Number(m[2])));
      return new Intl.DateTimeFormat(locale, { month: 'short', day: 'numeric', timeZone: 'UTC' }).format(at);
    }
    case 'referral_code':
      return text(facts.referralCode);
    case 'customer_id':
      return facts.id;
    case 'none':
      return '';
  }
}

const fieldOf = (value: unknown): WalletValueField => ((WALLET_VALUE_FIELDS as readonly unknown[]).includes(value) ? (value as WalletValueField) : 'none');

/**
 * The design filled with one customer's values. Tolerates a partial design (the admin's unsaved
 * form): a missing title, color or row side falls back to the kind's defaults or to an empty side.
 */
export function fillWalletPass(design: Partial<WalletPassDesign>, facts: WalletCustomerFacts, format: WalletFormat = {}): FilledWalletPass {
  const cell = (side: { label?: unknown; value?: unknown } | undefined): FilledCell => {
    const field = fieldOf(side?.value);
    return { label: typeof side?.label === 'string' ? side.label : '', field, value: walletValue(field, facts, format) };
  };
  const colors = design.colors ?? ({} as Partial<WalletPassDesign['colors']>);
  const name = `${facts.firstName} ${facts.lastName}`.trim();
  return {
    header: { title: design.header?.title || 'Rewards card', logo: design.header?.logo || null },
    colors: { background: colors.background ?? '#1f2a44', foreground: colors.foreground ?? '#ffffff', label: colors.label ?? '#aeb9d6' },
    rows: (Array.isArray(design.rows) ? design.rows : []).slice(0, 4).map((row) => ({ left: cell(row?.left), right: cell(row?.right) })),
    customerId: facts.id,
    accountName: name || facts.email || facts.id,
    points: facts.points,
  };
}
