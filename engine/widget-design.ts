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
  };
  /** Blocks in display order, each shown or not, with how many items a list block shows. */
  blocks: { id: WidgetBlock; visible: boolean; items: number }[];
  /** Show the widget only to signed-in shoppers. */
  showOnlyAfterLogin: boolean;
  /** The single custom redirect link (the guest prompt's "Join" target), or '' for the account page. */
  redirectUrl: string;
  /** Advanced CSS (paid plan), applied inside the widget only; sanitized by `sanitizeWidgetCss`. */
  advancedCss: string;
}

/** The design a shop has before it saves one. */
export const DEFAULT_WIDGET_DESIGN: WidgetDesign = {
  colors: { banner: '#3d4ec2', button: '#3d4ec2', buttonText: '#ffffff', block: '#f6f6f7', text: '#202223' },
  corners: 'rounded',
  borderRadius: 12,
  iconTheme: 'vivid',
  minimalButtons: false,
  launcher: { hidden: false, alignment: 'right', showLabel: true, icon: 'gift' },
  blocks: WIDGET_BLOCKS.map((id) => ({ id, visible: true, items: id === 'history' ? 5 : 10 })),
  showOnlyAfterLogin: false,
  redirectUrl: '',
  advancedCss: '',
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
    },
    blocks,
    showOnlyAfterLogin: bool(saved.showOnlyAfterLogin, d.showOnlyAfterLogin),
    redirectUrl: typeof saved.redirectUrl === 'string' && /^(https:\/\/|\/)[^\s"'<>]*$/.test(saved.redirectUrl) ? saved.redirectUrl : '',
    advancedCss: typeof saved.advancedCss === 'string' ? saved.advancedCss.slice(0, 20_000) : '',
  };
}

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
