import { useAtomValue } from 'jotai';
import { useMemo } from 'react';
import { useNavigate, useParams, useSearchParams } from 'react-router-dom';
import type { JsonObject, KindSummary } from '../../engine/types';
import { api } from '../api/endpoints';
import { useLocalizedKind } from '../api/use-localized-kind';
import { useResource } from '../api/use-resource';
import { SkeletonPage } from '../components/Skeleton';
import { newDocumentData } from '../form/form-data';
import { currentLabelLanguage, useT } from '../i18n';
import { timezoneAtom } from '../state/session';
import { useToast } from '../state/toasts';
import { LoadFailed } from './LoadFailed';
import { NotFoundPage } from './NotFoundPage';
import { ProgramEditor } from './ProgramEditor';
import { ConnectionTestCard } from '../areas/events/ConnectionTestCard';
import { listPathOf, paths } from './program-paths';

/** Finds the program template for `/programs/:event/new`: an earning or redeem kind with that name. */
function findKind(kinds: KindSummary[], event: string, preferred: string | null): KindSummary | undefined {
  const candidates = kinds.filter((kind) => kind.name === event && (kind.family === 'earning' || kind.family === 'redeem'));
  return candidates.find((kind) => kind.family === preferred) ?? candidates[0];
}

/** `/programs/:event/new`: the template's form with its defaults; Save creates the program. */
export function NewProgramPage() {
  const t = useT();
  const { event = '' } = useParams();
  const [search] = useSearchParams();
  const navigate = useNavigate();
  const toast = useToast();
  const family = search.get('type') === 'redeem' ? 'redeem' : null;
  const timezone = useAtomValue(timezoneAtom);
  const template = useResource(`new:${event}:${family}`, async () => {
    const language = currentLabelLanguage();
    const summary = findKind(await api.kinds(language), event, family);
    if (!summary) return null;
    const kind = await api.kind(summary.id, language);
    return { kind, language };
  });
  // Computed here, not in the load: the shop (and its timezone) may arrive after the template.
  const initialData = useMemo(() => (template.data ? newDocumentData(template.data.kind.schema, timezone) : undefined), [template.data, timezone]);
  // A language switch translates the form in place, keeping what the merchant typed.
  const localizedKind = useLocalizedKind(template.data ?? undefined);

  if (template.loading && template.data === undefined) return <SkeletonPage label={t('common.loading')} />;
  if (template.error) {
    return <LoadFailed title={t('programs.title')} error={template.error} backTo={paths.list('earning')} onRetry={template.reload} />;
  }
  if (!template.data || !initialData) return <NotFoundPage />;

  const detail = localizedKind ?? template.data.kind;
  return (
    <ProgramEditor
      // Dates relative to today start again in the store's timezone once the shop has loaded.
      key={`${detail.id}:${timezone ?? ''}`}
      kind={detail}
      initialData={initialData}
      isNew
      title={detail.title}
      backTo={listPathOf(detail.id)}
      // The custom program is turned on only once its connection test passed or was skipped (spec 002 §4).
      {...(detail.id === 'earning.custom_program' ? { afterForm: (data: JsonObject, setData: (next: JsonObject) => void) => <ConnectionTestCard data={data} onChange={setData} /> } : {})}
      save={(data) => api.createDoc(detail.id, data)}
      onSaved={(doc) => {
        toast(t('programs.saved'));
        navigate(paths.edit(doc.id), { replace: true });
      }}
    />
  );
}
