/**
 * The admin's small icons, drawn as inline SVG in `currentColor`.
 *
 * Icons used to be text glyphs (★ ⌄ ▾ ☰). A glyph that the page's font lacks sends the browser
 * through its system font fallback on the first layout (on Linux a fontconfig search per
 * character, about 7 ms each at 4× CPU in a trace of `/programs`), and each platform draws it with
 * another font. An SVG is the same everywhere and costs no font lookup.
 *
 * Every icon is decorative (`aria-hidden`): the control that carries it names itself.
 */
import type { ReactElement } from 'react';

/** The icons the admin draws; each is a 16 × 16 view box. */
export type IconName = 'chevron-down' | 'caret-down' | 'star' | 'menu';

const PATHS: Record<IconName, ReactElement> = {
  'chevron-down': <path d="M4 6l4 4 4-4" fill="none" stroke="currentColor" strokeWidth="1.6" strokeLinecap="round" strokeLinejoin="round" />,
  'caret-down': <path d="M4.5 6.5h7L8 10.5z" fill="currentColor" />,
  star: <path d="M8 1.6l1.9 4.1 4.5.5-3.4 3 1 4.4L8 11.3l-4 2.3 1-4.4-3.4-3 4.5-.5z" fill="currentColor" />,
  menu: <path d="M2.5 4h11M2.5 8h11M2.5 12h11" fill="none" stroke="currentColor" strokeWidth="1.6" strokeLinecap="round" />,
};

/**
 * One icon, sized by `size` in CSS pixels (default 1em, so it follows the surrounding text).
 * @param className extra classes for placement (e.g. `select__chevron`).
 */
export function Icon({ name, size = '1em', className }: { name: IconName; size?: number | string; className?: string }) {
  return (
    <svg className={className ? `icon ${className}` : 'icon'} width={size} height={size} viewBox="0 0 16 16" aria-hidden="true" focusable="false">
      {PATHS[name]}
    </svg>
  );
}
