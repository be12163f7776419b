import type { MessageKey } from '../../i18n';

/**
 * The built-in icons the icon widget offers, as 24×24 SVG path data filled with the text color. A
 * stored icon is either one of these names or an image URL.
 */
export const ICON_SET: readonly { name: string; label: MessageKey; path: string }[] = [
  { name: 'star', label: 'form.icon.star', path: 'M12 2l3.1 6.6 6.9.7-5.2 4.7 1.4 7L12 17.5 5.8 21l1.4-7L2 9.3l6.9-.7z' },
  { name: 'crown', label: 'form.icon.crown', path: 'M2 7l5 4 5-7 5 7 5-4-2 12H4z' },
  { name: 'diamond', label: 'form.icon.diamond', path: 'M6 3h12l4 6-10 12L2 9z' },
  { name: 'heart', label: 'form.icon.heart', path: 'M12 21s-8-5.3-8-11a4.5 4.5 0 0 1 8-2.8A4.5 4.5 0 0 1 20 10c0 5.7-8 11-8 11z' },
  { name: 'gift', label: 'form.icon.gift', path: 'M3 8h18v5H3zM5 14h6v7H5zM13 14h6v7h-6zM12 8c-1-4-6-5-6-2s4 2 6 2zm0 0c1-4 6-5 6-2s-4 2-6 2z' },
  { name: 'trophy', label: 'form.icon.trophy', path: 'M7 3h10v5a5 5 0 0 1-10 0zM3 4h3v5a3 3 0 0 1-3-3zM21 4h-3v5a3 3 0 0 0 3-3zM11 13h2v4h-2zM7 18h10v3H7z' },
  { name: 'bolt', label: 'form.icon.bolt', path: 'M13 2L4 14h7l-1 8 10-13h-7z' },
  { name: 'medal', label: 'form.icon.medal', path: 'M7 2h4l2 6-4 1zM17 2h-4l-2 6 4 1zM12 9a6 6 0 1 1 0 12 6 6 0 0 1 0-12z' },
];

const names = new Set(ICON_SET.map((icon) => icon.name));

/** Whether a stored icon value names a built-in icon (otherwise it is an image URL). */
export function isBuiltInIcon(value: unknown): value is string {
  return typeof value === 'string' && names.has(value);
}
