import './storefront.css';
import { useMemo } from 'react';
import type { JsonObject } from '../../../engine/types';
import { DocumentEditorPage } from '../../pages/DocumentEditor';
import { useT } from '../../i18n';
import type { StorefrontSection } from './sections';
import { useSavedStorefront } from './use-storefront-docs';
import { WidgetPreview } from './WidgetPreview';

/** The live preview of one section: its unsaved data over the saved design and sections. */
function SectionPreview({ kind, data }: { kind: string; data: JsonObject }) {
  const saved = useSavedStorefront();
  const name = kind.slice('storefront.'.length);
  const sections = useMemo(() => ({ ...(saved?.sections ?? {}), [name]: data }), [saved, name, data]);
  return <WidgetPreview design={saved?.design ?? null} sections={sections} />;
}

/**
 * A storefront or branding page (spec 000 §2; issue 13): the section's form, rendered from its
 * schema (`schemas/storefront/<name>`), saved through the documents API as the shop's one document
 * of that kind, with the real widget beside it showing the unsaved section on every keystroke.
 * Loading, error and Not Found states are the document editor's.
 */
export function StorefrontSectionPage({ section, backTo }: { section: StorefrontSection; backTo: string }) {
  const t = useT();
  return (
    <DocumentEditorPage
      key={section.kind}
      source={{ mode: 'singleton', kind: section.kind }}
      backTo={backTo}
      backLabel={backTo === '/storefront/branding' ? t('storefront.branding.title') : t('storefront.design.title')}
      title={() => t(section.titleKey)}
      aside={(data) => <SectionPreview kind={section.kind} data={data} />}
    />
  );
}
