import { useNavigate, useParams, useSearchParams } from 'react-router-dom';
import type { KindSummary } from '../../engine/types';
import { api } from '../api/endpoints';
import { useResource } from '../api/use-resource';
import { SkeletonPage } from '../components/Skeleton';
import { withDefaults } from '../form/form-data';
import { t } from '../i18n';
import { useToast } from '../state/toasts';
import { LoadFailed } from './LoadFailed';
import { NotFoundPage } from './NotFoundPage';
import { ProgramEditor } from './ProgramEditor';
import { listPathOf, paths } from './program-paths';

/** Finds the program template for `/programs/:event/new`: an earning or redeem kind with that name. */
function findKind(kinds: KindSummary[], event: string, preferred: string | null): KindSummary | undefined {
  const candidates = kinds.filter((kind) => kind.name === event && (kind.family === 'earning' || kind.family === 'redeem'));
  return candidates.find((kind) => kind.family === preferred) ?? candidates[0];
}

/** `/programs/:event/new`: the template's form with its defaults; Save creates the program. */
export function NewProgramPage() {
  const { event = '' } = useParams();
  const [search] = useSearchParams();
  const navigate = useNavigate();
  const toast = useToast();
  const family = search.get('type') === 'redeem' ? 'redeem' : null;
  const template = useResource(`new:${event}:${family}`, async () => {
    const summary = findKind(await api.kinds(), event, family);
    if (!summary) return null;
    const kind = await api.kind(summary.id);
    return { kind, initialData: withDefaults(kind.schema) };
  });

  if (template.loading && template.data === undefined) return <SkeletonPage label={t('common.loading')} />;
  if (template.error) {
    return <LoadFailed title={t('programs.title')} error={template.error} backTo={paths.list('earning')} onRetry={template.reload} />;
  }
  if (!template.data) return <NotFoundPage />;

  const { kind: detail, initialData } = template.data;
  return (
    <ProgramEditor
      key={detail.id}
      kind={detail}
      initialData={initialData}
      title={detail.title}
      backTo={listPathOf(detail.id)}
      save={(data) => api.createDoc(detail.id, data)}
      onSaved={(doc) => {
        toast(t('programs.saved'));
        navigate(paths.edit(doc.id), { replace: true });
      }}
    />
  );
}
