/**
 * The storefront widget's design (issue 13; spec 001 §2 widget design settings): what the admin
 * saves and the widget reads through `GET /proxy/widget`. Pure: shared by the server, the widget
 * bundle and the admin's live preview, so all three read a design the same way.
 */

/** The panel's content blocks (spec 001 §2 "content blocks reordered by drag and drop"). */
export const WIDGET_BLOCKS = ['welcome', 'earn', 'redeem', 'coupons', 'history', 'tiers', 'referral'] as const;
export type WidgetBlock = (typeof WIDGET_BLOCKS)[number];

/** A saved design, every field filled (see `resolveDesign`). Colors are `#rrggbb`; lengths are CSS pixels. */
export interface WidgetDesign {
  colors: {
    /** Banner (panel header) background. */
    banner: string;
    /** Buttons and the launcher. */
    button: string;
    /** Text on the banner and on buttons. */
    buttonText: string;
    /** Block backgrounds. */
    block: string;
    /** Body text. */
    text: string;
  };
  /** `square` draws 0 px corners whatever `borderRadius` says. */
  corners: 'square' | 'rounded';
  /** Corner radius of the panel, blocks and buttons when `corners` is `rounded` (0–32 px). */
  borderRadius: number;
  /** Icon theme (spec 001 §2): Vivid or Elegant. */
  iconTheme: 'vivid' | 'elegant';
  /** Outlined buttons instead of filled ones. */
  minimalButtons: boolean;
  launcher: {
    /** Hide the float button (the theme opens the panel itself, e.g. from a menu link). */
    hidden: boolean;
    alignment: 'left' | 'right';
    /** Show the label beside the icon. */
    showLabel: boolean;
    icon: 'gift' | 'star' | 'crown' | 'heart';
    /** When `hidden`: on every device, or on phones only (spec 001 §2 "mobile only or all devices"). */
    hiddenOn: 'all_devices' | 'mobile_only';
  };
  /** Blocks in display order, each shown or not, with how many items a list block shows. */
  blocks: { id: WidgetBlock; visible: boolean; items: number }[];
  /** Show the widget only to signed-in shoppers. */
  showOnlyAfterLogin: boolean;
  /** The single custom redirect link (the guest prompt's "Join" target), or '' for the account page. */
  redirectUrl: string;
  /** Advanced CSS (paid plan), applied inside the widget only; sanitized by `sanitizeWidgetCss`. */
  advancedCss: string;
  /** Instant popup (spec 001 §2): the panel opens by itself on the listed pages and devices, once per browser session. */
  instantPopup: {
    enabled: boolean;
    desktop: boolean;
    mobile: boolean;
    /** `all` pages, the `home` page (`/`) only, or the `custom` pathnames. */
    pages: 'all' | 'home' | 'custom';
    /** Pathnames one per line (`/pages/rewards`, `/products/*`); used when `pages` is `custom`. */
    customPaths: string;
  };
  /** Page restriction (spec 001 §2): where the widget (launcher and panel) appears at all. */
  pageRestriction: {
    /** `none`: every page; `hide_on`: not on `paths`; `show_only_on`: only on `paths`. */
    mode: 'none' | 'hide_on' | 'show_only_on';
    /** Pathnames one per line, `*` matching any run of characters. */
    paths: string;
  };
  /** The membership card a signed-in shopper sees at the top of the panel (spec 001 §2 membership card design). */
  membershipCard: {
    enabled: boolean;
    background: string;
    text: string;
    showTier: boolean;
  };
}

/** The design a shop has before it saves one. */
export const DEFAULT_WIDGET_DESIGN: WidgetDesign = {
  colors: { banner: '#3d4ec2', button: '#3d4ec2', buttonText: '#ffffff', block: '#f6f6f7', text: '#202223' },
  corners: 'rounded',
  borderRadius: 12,
  iconTheme: 'vivid',
  minimalButtons: false,
  launcher: { hidden: false, alignment: 'right', showLabel: true, icon: 'gift', hiddenOn: 'all_devices' },
  blocks: WIDGET_BLOCKS.map((id) => ({ id, visible: true, items: id === 'history' ? 5 : 10 })),
  showOnlyAfterLogin: false,
  redirectUrl: '',
  advancedCss: '',
  instantPopup: { enabled: false, desktop: true, mobile: true, pages: 'all', customPaths: '' },
  pageRestriction: { mode: 'none', paths: '' },
  membershipCard: { enabled: false, background: '#202223', text: '#ffffff', showTier: true },
};

const HEX = /^#[0-9a-fA-F]{6}$/;
const isRecord = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);
const pick = <T extends string>(value: unknown, allowed: readonly T[], fallback: T): T => (allowed.includes(value as T) ? (value as T) : fallback);
const bool = (value: unknown, fallback: boolean): boolean => (typeof value === 'boolean' ? value : fallback);
const color = (value: unknown, fallback: string): string => (typeof value === 'string' && HEX.test(value) ? value.toLowerCase() : fallback);

/**
 * A complete design from whatever was saved (`unknown`: a stored document's data, possibly from an
 * older version): each missing or invalid field takes its default, blocks keep the saved order,
 * unknown blocks are dropped and blocks the save did not mention are appended, hidden.
 */
export function resolveDesign(saved: unknown): WidgetDesign {
  const d = DEFAULT_WIDGET_DESIGN;
  if (!isRecord(saved)) return structuredClone(d);
  const colors = isRecord(saved.colors) ? saved.colors : {};
  const launcher = isRecord(saved.launcher) ? saved.launcher : {};
  const popup = isRecord(saved.instantPopup) ? saved.instantPopup : {};
  const restriction = isRecord(saved.pageRestriction) ? saved.pageRestriction : {};
  const card = isRecord(saved.membershipCard) ? saved.membershipCard : {};
  const text = (value: unknown): string => (typeof value === 'string' ? value.slice(0, 5000) : '');
  const radius = typeof saved.borderRadius === 'number' && Number.isFinite(saved.borderRadius) ? Math.min(32, Math.max(0, Math.round(saved.borderRadius))) : d.borderRadius;
  const blocks: WidgetDesign['blocks'] = [];
  if (Array.isArray(saved.blocks)) {
    for (const b of saved.blocks) {
      if (!isRecord(b) || !WIDGET_BLOCKS.includes(b.id as WidgetBlock) || blocks.some((x) => x.id === b.id)) continue;
      const items = typeof b.items === 'number' && Number.isInteger(b.items) ? Math.min(50, Math.max(1, b.items)) : (d.blocks.find((x) => x.id === b.id)?.items ?? 10);
      blocks.push({ id: b.id as WidgetBlock, visible: bool(b.visible, true), items });
    }
    for (const b of d.blocks) if (!blocks.some((x) => x.id === b.id)) blocks.push({ ...b, visible: false });
  } else blocks.push(...d.blocks.map((b) => ({ ...b })));
  return {
    colors: {
      banner: color(colors.banner, d.colors.banner),
      button: color(colors.button, d.colors.button),
      buttonText: color(colors.buttonText, d.colors.buttonText),
      block: color(colors.block, d.colors.block),
      text: color(colors.text, d.colors.text),
    },
    corners: pick(saved.corners, ['square', 'rounded'], d.corners),
    borderRadius: radius,
    iconTheme: pick(saved.iconTheme, ['vivid', 'elegant'], d.iconTheme),
    minimalButtons: bool(saved.minimalButtons, d.minimalButtons),
    launcher: {
      hidden: bool(launcher.hidden, d.launcher.hidden),
      alignment: pick(launcher.alignment, ['left', 'right'], d.launcher.alignment),
      showLabel: bool(launcher.showLabel, d.launcher.showLabel),
      icon: pick(launcher.icon, ['gift', 'star', 'crown', 'heart'], d.launcher.icon),
      hiddenOn: pick(launcher.hiddenOn, ['all_devices', 'mobile_only'], d.launcher.hiddenOn),
    },
    blocks,
    showOnlyAfterLogin: bool(saved.showOnlyAfterLogin, d.showOnlyAfterLogin),
    redirectUrl: typeof saved.redirectUrl === 'string' && /^(https:\/\/|\/)[^\s"'<>]*$/.test(saved.redirectUrl) ? saved.redirectUrl : '',
    advancedCss: typeof saved.advancedCss === 'string' ? saved.advancedCss.slice(0, 20_000) : '',
    instantPopup: {
      enabled: bool(popup.enabled, d.instantPopup.enabled),
      desktop: bool(popup.desktop, d.instantPopup.desktop),
      mobile: bool(popup.mobile, d.instantPopup.mobile),
      pages: pick(popup.pages, ['all', 'home', 'custom'], d.instantPopup.pages),
      customPaths: text(popup.customPaths),
    },
    pageRestriction: { mode: pick(restriction.mode, ['none', 'hide_on', 'show_only_on'], d.pageRestriction.mode), paths: text(restriction.paths) },
    membershipCard: {
      enabled: bool(card.enabled, d.membershipCard.enabled),
      background: color(card.background, d.membershipCard.background),
      text: color(card.text, d.membershipCard.text),
      showTier: bool(card.showTier, d.membershipCard.showTier),
    },
  };
}

/**
 * The pathnames of a "one per line" setting: trimmed, empty lines dropped, each starting with `/`
 * (a full URL keeps only its path), trailing `/` removed except for the home page.
 * @example pathList(' /pages/rewards/\n\nhttps://shop.example/cart ') // ['/pages/rewards', '/cart']
 */
export function pathList(lines: string): string[] {
  const out: string[] = [];
  for (const raw of lines.split(/\r?\n/)) {
    let line = raw.trim();
    if (!line) continue;
    const full = /^https?:\/\/[^/]+(\/.*)?$/i.exec(line);
    if (full) line = full[1] ?? '/';
    if (!line.startsWith('/')) line = `/${line}`;
    out.push(normalPath(line));
  }
  return out;
}

const normalPath = (path: string): string => {
  const noQuery = path.split(/[?#]/)[0] ?? '/';
  const trimmed = noQuery.length > 1 ? noQuery.replace(/\/+$/, '') : noQuery;
  return (trimmed || '/').toLowerCase();
};

/**
 * Whether `pathname` (the page's `location.pathname`) matches `pattern` of `pathList`: equal, case
 * and trailing slash aside; `*` matches any run of characters (`/products/*`). A locale prefix the
 * platform adds (`/fr/pages/rewards`) also matches `/pages/rewards`.
 */
export function pathMatches(pattern: string, pathname: string): boolean {
  const path = normalPath(pathname);
  const source = `^${pattern.split('*').map((part) => part.replace(/[.+?^${}()|[\]\\]/g, '\\$&')).join('.*')}$`;
  const re = new RegExp(source);
  if (re.test(path)) return true;
  const unlocalized = /^\/[a-z]{2}(-[a-z]{2})?(\/.*)?$/.exec(path);
  return unlocalized !== null && re.test(unlocalized[2] ?? '/');
}

/** Whether the page restriction keeps the widget off `pathname` (spec 001 §2 page restriction). */
export function restrictedOn(design: WidgetDesign, pathname: string): boolean {
  const { mode, paths } = design.pageRestriction;
  if (mode === 'none') return false;
  const listed = pathList(paths).some((p) => pathMatches(p, pathname));
  return mode === 'hide_on' ? listed : !listed;
}

/** Whether the instant popup opens the panel on `pathname` on this device (`mobile`: a phone-sized screen). */
export function popupOn(design: WidgetDesign, pathname: string, mobile: boolean): boolean {
  const p = design.instantPopup;
  if (!p.enabled || !(mobile ? p.mobile : p.desktop)) return false;
  if (p.pages === 'all') return true;
  if (p.pages === 'home') return pathMatches('/', pathname);
  return pathList(p.customPaths).some((pattern) => pathMatches(pattern, pathname));
}

/** Whether the launcher (float button) is hidden on this device. */
export function launcherHiddenOn(design: WidgetDesign, mobile: boolean): boolean {
  return design.launcher.hidden && (design.launcher.hiddenOn === 'all_devices' || mobile);
}

/** Color presets offered beside the palette (spec 001 §2 "color presets and palette"): name → the five colors. */
export const COLOR_PRESETS: Record<string, WidgetDesign['colors']> = {
  indigo: { banner: '#3d4ec2', button: '#3d4ec2', buttonText: '#ffffff', block: '#f6f6f7', text: '#202223' },
  forest: { banner: '#1f6f4a', button: '#1f6f4a', buttonText: '#ffffff', block: '#eef6f1', text: '#1c2b24' },
  sunset: { banner: '#c2410c', button: '#b4370a', buttonText: '#ffffff', block: '#fff4ec', text: '#2b1a12' },
  rose: { banner: '#be185d', button: '#be185d', buttonText: '#ffffff', block: '#fdf2f8', text: '#2a1020' },
  midnight: { banner: '#111827', button: '#111827', buttonText: '#ffffff', block: '#f3f4f6', text: '#111827' },
};

/**
 * Advanced CSS made safe to put in the widget's shadow root: the widget's own styles cannot leak
 * out of a shadow root, and this removes what could reach beyond it or load anything — `@import`,
 * `url(…)` and `expression(…)` (to the end of their declaration), `-moz-binding`, `behavior:`, tags such as
 * `</style>`, and
 * `:host-context` (which styles by the page around the widget). Selectors that name the page
 * (`html`, `body`) match nothing inside a shadow root. Returns the CSS to inject (may be '').
 */
export function sanitizeWidgetCss(css: string): string {
  return css
    .replace(/\/\*[\s\S]*?\*\//g, '')
    .replace(/<[^>]*>?/g, '')
    .replace(/@import[^;]*;?/gi, '')
    .replace(/url\s*\([^;}]*/gi, 'none')
    .replace(/expression\s*\([^;}]*/gi, 'none')
    .replace(/-moz-binding\s*:[^;}]*/gi, '')
    .replace(/behavior\s*:[^;}]*/gi, '')
    .replace(/:host-context\s*\([^)]*\)/gi, ':host')
    .trim();
}

/**
 * The storefront and branding sections a shop saved (issue 13; spec 000 §2 Storefront and Branding
 * routes), by the kind's name (`faqs`, `branding_point`, …): each the document's data as validated
 * against `schemas/storefront/<name>/schema.json` (defaults applied). Only sections switched on
 * (`enabled`) are served to the widget; a section never saved is absent.
 */
export type StorefrontSections = Partial<Record<string, Record<string, unknown>>>;

/** The place-order earning rate the point calculator uses: `points` for every `per` of the shop's currency; null when no active place-order program earns by order amount. */
export interface EarnRate {
  points: number;
  per: number;
}

/**
 * Points an order of `amount` earns at `rate` (rounded down, as the default place-order program
 * rounds: spec 001 §9), or 0 for a negative or non-numeric amount.
 * @example calculatorPoints(250, { points: 10, per: 100 }) // 20
 */
export function calculatorPoints(amount: number, rate: EarnRate): number {
  if (!Number.isFinite(amount) || amount <= 0 || rate.per <= 0) return 0;
  return Math.floor(amount / rate.per) * rate.points;
}
