import { useState } from 'react';
import { useNavigate, useParams } from 'react-router-dom';
import { ApiError } from '../api/client';
import { api } from '../api/endpoints';
import { useResource } from '../api/use-resource';
import { Badge } from '../components/Badge';
import { Button } from '../components/Button';
import { LEAVE_WITHOUT_PROMPT } from '../components/LeavePrompt';
import { SkeletonPage } from '../components/Skeleton';
import { withDefaults } from '../form/form-data';
import { t } from '../i18n';
import { useToast } from '../state/toasts';
import { DeleteProgramModal } from './DeleteProgramModal';
import { LoadFailed } from './LoadFailed';
import { NotFoundPage } from './NotFoundPage';
import { ProgramEditor } from './ProgramEditor';
import { listPathOf, paths } from './program-paths';

/** `/programs/point/:id`: an existing program's form; Save sends the version it read (409 on conflict). */
export function EditProgramPage() {
  const { id = '' } = useParams();
  const navigate = useNavigate();
  const toast = useToast();
  const [deleting, setDeleting] = useState(false);
  const loaded = useResource(`program:${id}`, async () => {
    const program = await api.program(id);
    const kind = await api.kind(program.kind);
    return { program, kind, initialData: withDefaults(kind.schema, program.data) };
  });

  if (loaded.loading && !loaded.data) return <SkeletonPage label={t('common.loading')} />;
  if (loaded.error instanceof ApiError && loaded.error.status === 404) return <NotFoundPage />;
  if (loaded.error || !loaded.data) {
    return <LoadFailed title={t('programs.title')} error={loaded.error} backTo={paths.list('earning')} onRetry={loaded.reload} />;
  }

  const { program, kind, initialData } = loaded.data;
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
          <Button variant="critical-plain" onClick={() => setDeleting(true)}>
            {t('common.delete')}
          </Button>
        }
        save={(data) => api.updateDoc(kind.id, program.id, data, program.version)}
        onSaved={(doc) => {
          toast(t('programs.saved'));
          loaded.setData({ program: { ...program, ...doc }, kind, initialData: withDefaults(kind.schema, doc.data) });
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
