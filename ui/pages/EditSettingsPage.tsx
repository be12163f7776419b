import { useParams } from 'react-router-dom';
import { useT } from '../i18n';
import { DocumentEditorPage } from './DocumentEditor';
import { listPathOf } from './program-paths';

/** `/programs/edit-settings/:id`: any document by id alone, in the generic editor (spec 000 §2). */
export function EditSettingsPage() {
  const t = useT();
  const { id = '' } = useParams();
  return (
    <DocumentEditorPage
      source={{ mode: 'any', id }}
      backTo={({ kind }) => listPathOf(kind.id)}
      backLabel={t('catalogue.back')}
      deletable
    />
  );
}
