import { NavLink } from 'react-router-dom';
import { isEmbedded } from '../embedded';
import { useT, type MessageKey } from '../i18n';

export interface NavItem {
  to: string;
  label: MessageKey;
  /** The item's icon: SVG path data on a 20 × 20 grid, stroked (NavIcon). */
  icon: string;
  /** The embedded variant leaves it out: the shop admin has its own home. */
  standaloneOnly?: boolean;
}

/**
 * Side navigation (spec 000 §2; the embedded variant drops Dashboard). Every entry leads to its
 * spec route; areas not built yet show what they will hold (ui/areas/shell/coming-soon.tsx).
 */
export const NAV_ITEMS: NavItem[] = [
  { to: '/home', label: 'nav.dashboard', icon: 'M3 9.5 10 3.5l7 6V17h-4.5v-5h-5v5H3z', standaloneOnly: true },
  { to: '/customers', label: 'nav.customers', icon: 'M7.5 9a3 3 0 1 0 0-6 3 3 0 0 0 0 6zM2 17c0-3 2.5-5.5 5.5-5.5S13 14 13 17M13.5 3.2a3 3 0 0 1 0 5.6M15.5 11.8c1.6.8 2.5 2.6 2.5 5.2' },
  { to: '/programs', label: 'nav.programs', icon: 'M10 2.5l2.3 4.8 5.2.7-3.8 3.6.9 5.2L10 14.3l-4.6 2.5.9-5.2L2.5 8l5.2-.7z' },
  { to: '/membership', label: 'nav.membership', icon: 'M5 3h10l3 4.5-8 9.5-8-9.5zM2 7.5h16M7.5 3 10 17M12.5 3 10 17' },
  { to: '/storefront', label: 'nav.onsite', icon: 'M3 3.5h14v13H3zM3 7.5h14M7 7.5v9' },
  { to: '/analytics', label: 'nav.analytics', icon: 'M3 17h14M5.5 14V9M10 14V4M14.5 14v-7' },
  { to: '/integration', label: 'nav.integrations', icon: 'M3 7h12.5M12.5 4l3 3-3 3M17 13H4.5M7.5 10l-3 3 3 3' },
  { to: '/settings', label: 'nav.settings', icon: 'M10 12.5a2.5 2.5 0 1 0 0-5 2.5 2.5 0 0 0 0 5zM10 2.5v2M10 15.5v2M2.5 10h2M15.5 10h2M4.7 4.7l1.4 1.4M13.9 13.9l1.4 1.4M4.7 15.3l1.4-1.4M13.9 6.1l1.4-1.4' },
];

/**
 * A navigation icon, drawn as SVG: the same on every system (the Unicode symbols it replaces needed
 * font fallback, were missing from some fonts, and sent the first layout searching the system's
 * fonts for them).
 */
function NavIcon({ path }: { path: string }) {
  return (
    <svg viewBox="0 0 20 20" width="18" height="18" fill="none" stroke="currentColor" strokeWidth="1.5" strokeLinecap="round" strokeLinejoin="round" aria-hidden="true" focusable="false">
      <path d={path} />
    </svg>
  );
}

export function Navigation({ onNavigate }: { onNavigate?: () => void }) {
  const t = useT();
  const embedded = isEmbedded();
  return (
    <nav className="nav" aria-label={t('nav.label')}>
      <ul className="nav__list">
        {NAV_ITEMS.filter((item) => !(embedded && item.standaloneOnly)).map((item) => (
          <li key={item.to}>
            <NavLink
              to={item.to}
              className={({ isActive }) => (isActive ? 'nav__link nav__link--active' : 'nav__link')}
              onClick={onNavigate}
            >
              <span className="nav__icon" aria-hidden="true">
                <NavIcon path={item.icon} />
              </span>
              {t(item.label)}
            </NavLink>
          </li>
        ))}
      </ul>
    </nav>
  );
}
