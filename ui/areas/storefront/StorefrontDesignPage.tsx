import './storefront.css';
import { Link } from 'react-router-dom';
import { Card } from '../../components/Card';
import { DocumentEditorPage } from '../../pages/DocumentEditor';
import { useT } from '../../i18n';
import { BRANDING_PAGES, STOREFRONT_PAGES } from './sections';
import { useSavedStorefront, WIDGET_DESIGN_KIND } from './use-storefront-docs';
import { WidgetPreview } from './WidgetPreview';

export { WIDGET_DESIGN_KIND };

/** Links to the storefront pages and the branding hub (spec 000 §2), beside the design's preview. */
export function StorefrontPagesCard() {
  const t = useT();
  return (
    <Card title={t('storefront.pages.title')}>
      <ul className="storefront-links">
        {STOREFRONT_PAGES.map((p) => (
          <li key={p.path}>
            <Link to={`/storefront/${p.path}`}>{t(p.titleKey)}</Link>
          </li>
        ))}
        <li>
          <Link to="/storefront/branding">{t('storefront.branding.title')}</Link>
        </li>
      </ul>
      <p className="muted">{t('storefront.pages.note', { count: STOREFRONT_PAGES.length + BRANDING_PAGES.length })}</p>
    </Card>
  );
}

/**
 * `/storefront` (spec 000 §2, spec 001 §2 widget design settings): the widget design form, rendered
 * from its schema, with the live preview beside it updated on every keystroke without saving (the
 * saved storefront pages shown too), and links to the storefront pages and the branding hub.
 */
export function StorefrontDesignPage() {
  const t = useT();
  const saved = useSavedStorefront();
  return (
    <DocumentEditorPage
      source={{ mode: 'singleton', kind: WIDGET_DESIGN_KIND }}
      backTo="/home"
      backLabel={t('nav.dashboard')}
      title={() => t('storefront.design.title')}
      aside={(data) => (
        <>
          <WidgetPreview design={data} {...(saved ? { sections: saved.sections } : {})} />
          <StorefrontPagesCard />
        </>
      )}
    />
  );
}
