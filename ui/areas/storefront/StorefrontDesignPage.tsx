import { DocumentEditorPage } from '../../pages/DocumentEditor';
import { useT } from '../../i18n';
import { WidgetPreview } from './WidgetPreview';

/** The widget design kind: one document per shop (schemas/storefront/widget_design). */
export const WIDGET_DESIGN_KIND = 'storefront.widget_design';

/**
 * `/storefront` (spec 000 §2, spec 001 §2 widget design settings): the widget design form, rendered
 * from its schema, with the live preview beside it updated on every keystroke without saving.
 */
export function StorefrontDesignPage() {
  const t = useT();
  return (
    <DocumentEditorPage
      source={{ mode: 'singleton', kind: WIDGET_DESIGN_KIND }}
      backTo="/home"
      backLabel={t('nav.dashboard')}
      title={() => t('storefront.design.title')}
      aside={(data) => <WidgetPreview design={data} />}
    />
  );
}
