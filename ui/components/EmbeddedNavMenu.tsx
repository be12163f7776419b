import { Link } from 'react-router-dom';
import { useT } from '../i18n';
import { NAV_ITEMS } from './Navigation';

declare module 'react' {
  // eslint-disable-next-line @typescript-eslint/no-namespace
  namespace JSX {
    interface IntrinsicElements {
      /** App Bridge's navigation menu: the platform's admin reads its links into its own side navigation. */
      'ui-nav-menu': React.DetailedHTMLProps<React.HTMLAttributes<HTMLElement>, HTMLElement>;
    }
  }
}

/**
 * The embedded app's navigation (spec 000 §2 embedded variant): inside the platform's admin the app
 * draws no top bar or side navigation of its own — the admin frame has them — and hands its entries
 * to the admin as an App Bridge `<ui-nav-menu>`. The first link, `rel="home"`, is the app's home
 * (the dashboard at `/`); the admin lists the others. The element is never drawn by the app itself
 * (ui/styles/frame.css); links go through the router, so they carry the `/embed` prefix.
 */
export function EmbeddedNavMenu() {
  const t = useT();
  return (
    <ui-nav-menu>
      <Link to="/" rel="home">
        {t('nav.dashboard')}
      </Link>
      {NAV_ITEMS.filter((item) => !item.standaloneOnly).map((item) => (
        <Link key={item.to} to={item.to}>
          {t(item.label)}
        </Link>
      ))}
    </ui-nav-menu>
  );
}
