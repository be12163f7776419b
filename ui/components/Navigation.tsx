import { NavLink } from 'react-router-dom';
import { isEmbedded } from '../embedded';
import { useT, type MessageKey } from '../i18n';

export interface NavItem {
  to: string;
  label: MessageKey;
  icon: string;
  /** The embedded variant leaves it out: the shop admin has its own home. */
  standaloneOnly?: boolean;
}

/**
 * Side navigation (spec 000 §2; the embedded variant drops Dashboard). Every entry leads to its
 * spec route; areas not built yet show what they will hold (ui/areas/shell/coming-soon.tsx).
 */
export const NAV_ITEMS: NavItem[] = [
  { to: '/home', label: 'nav.dashboard', icon: '⌂', standaloneOnly: true },
  { to: '/customers', label: 'nav.customers', icon: '◎' },
  { to: '/programs', label: 'nav.programs', icon: '★' },
  { to: '/membership', label: 'nav.membership', icon: '◆' },
  { to: '/storefront', label: 'nav.onsite', icon: '▣' },
  { to: '/analytics', label: 'nav.analytics', icon: '▤' },
  { to: '/integration', label: 'nav.integrations', icon: '⇄' },
  { to: '/settings', label: 'nav.settings', icon: '⚙' },
];

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
                {item.icon}
              </span>
              {t(item.label)}
            </NavLink>
          </li>
        ))}
      </ul>
    </nav>
  );
}
