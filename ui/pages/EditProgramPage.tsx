import { useState } from 'react';
import { useNavigate, useParams } from 'react-router-dom';
import { ApiError } from '../api/client';
import { api } from '../api/endpoints';
import { useLocalizedKind } from '../api/use-localized-kind';
import { useResource } from '../api/use-resource';
import { Badge } from '../components/Badge';
import { Button, ButtonLink } from '../components/Button';
import { PreviewPanel } from '../areas/versions/PreviewPanel';
import { LEAVE_WITHOUT_PROMPT } from '../components/LeavePrompt';
import { SkeletonPage } from '../components/Skeleton';
import { withDefaults } from '../form/form-data';
import type { JsonObject } from '../../engine/types';
import { currentLabelLanguage, useT } from '../i18n';
import { useToast } from '../state/toasts';
import { DeleteProgramModal } from './DeleteProgramModal';
import { LoadFailed } from './LoadFailed';
import { NotFoundPage } from './NotFoundPage';
import { ProgramEditor } from './ProgramEditor';
import { ConnectionTestCard } from '../areas/events/ConnectionTestCard';
import { listPathOf, paths } from './program-paths';

/** `/programs/point/:id`: an existing program's form; Save sends the version it read (409 on conflict). */
export function EditProgramPage() {
  const t = useT();
  const { id = '' } = useParams();
  const navigate = useNavigate();
  const toast = useToast();
  const [deleting, setDeleting] = useState(false);
  const loaded = useResource(`program:${id}`, async () => {
    const language = currentLabelLanguage();
    const program = await api.program(id);
    const kind = await api.kind(program.kind, language);
    return { program, kind, language, initialData: withDefaults(kind.schema, program.data) };
  });
  // A language switch translates the form in place: same program, same unsaved edits.
  const localizedKind = useLocalizedKind(loaded.data);

  if (loaded.loading && !loaded.data) return <SkeletonPage label={t('common.loading')} />;
  if (loaded.error instanceof ApiError && loaded.error.status === 404) return <NotFoundPage />;
  if (loaded.error || !loaded.data) {
    return <LoadFailed title={t('programs.title')} error={loaded.error} backTo={paths.list('earning')} onRetry={loaded.reload} />;
  }

  const { program, initialData } = loaded.data;
  const kind = localizedKind ?? loaded.data.kind;
  const title = (typeof program.data.title === 'string' && program.data.title) || program.title || kind.title;
  const active = program.data.status === true;
  const listPath = listPathOf(kind.id);
  return (
    <>
      <ProgramEditor
        // A new version (own save or reload) starts the form again from the server's copy.
        key={`${program.id}:${program.version}`}
        kind={kind}
        initialData={initialData}
        title={title}
        titleMeta={<Badge tone={active ? 'success' : 'neutral'}>{t(active ? 'programs.status.active' : 'programs.status.inactive')}</Badge>}
        backTo={listPath}
        secondaryActions={
          <>
            <ButtonLink variant="plain" to={`/programs/versions/${encodeURIComponent(program.id)}`}>
              {t('versions.link')}
            </ButtonLink>
            <Button variant="critical-plain" onClick={() => setDeleting(true)}>
              {t('common.delete')}
            </Button>
          </>
        }
        // Place-order programs: "what would this change have done?" over past orders (issue 15).
        {...(kind.id === 'earning.place_order' ? { aside: (data: JsonObject) => <PreviewPanel data={data} programId={program.id} /> } : {})}
        // The custom program is turned on only once its connection test passed or was skipped (spec 002 §4).
        {...(kind.id === 'earning.custom_program' ? { afterForm: (data: JsonObject, setData: (next: JsonObject) => void) => <ConnectionTestCard data={data} programId={program.id} onChange={setData} /> } : {})}
        save={(data) => api.updateDoc(kind.id, program.id, data, program.version)}
        onSaved={(doc) => {
          toast(t('programs.saved'));
          loaded.setData({ ...loaded.data!, program: { ...program, ...doc }, initialData: withDefaults(kind.schema, doc.data) });
        }}
        onReload={loaded.reload}
      />
      <DeleteProgramModal
        program={deleting ? { id: program.id, kind: program.kind, title } : null}
        onClose={() => setDeleting(false)}
        onDeleted={() => navigate(listPath, { state: LEAVE_WITHOUT_PROMPT })}
      />
    </>
  );
}
