import { useMemo, useState } from 'react';
import { useSearchParams } from 'react-router-dom';
import { ApiError } from '../api/client';
import { api, type ProgramRow } from '../api/endpoints';
import { useResource } from '../api/use-resource';
import { Banner } from '../components/Banner';
import { Card } from '../components/Card';
import { EmptyState } from '../components/EmptyState';
import { Page } from '../components/Page';
import { Tabs } from '../components/Tabs';
import { t } from '../i18n';
import { useToast } from '../state/toasts';
import { AddProgramMenu } from './AddProgramMenu';
import { DeleteProgramModal, type DeleteTarget } from './DeleteProgramModal';
import { listTypeOfTab, parseTab, type ProgramTab } from './program-paths';
import { programTitle, ProgramsTable } from './ProgramsTable';

const tabs: { id: ProgramTab; label: string }[] = [
  { id: 'earning', label: t('programs.tabs.earning') },
  { id: 'redeem', label: t('programs.tabs.redeem') },
];

/** `/programs?type=earning|redeem`: the program list with on/off toggles, delete and the add menu. */
export function ProgramsPage() {
  const [search, setSearch] = useSearchParams();
  const tab = parseTab(search.get('type'));
  const programs = useResource(`programs:${tab}`, () => api.programs(listTypeOfTab[tab]));
  const kinds = useResource('kinds', () => api.kinds());
  const [pending, setPending] = useState<ReadonlySet<string>>(new Set());
  const [deleting, setDeleting] = useState<DeleteTarget | null>(null);
  const toast = useToast();

  const kindTitles = useMemo(() => new Map((kinds.data ?? []).map((kind) => [kind.id, kind.title])), [kinds.data]);
  const replaceRow = (row: ProgramRow) => programs.setData((rows) => rows?.map((r) => (r.id === row.id ? row : r)));
  const setRowPending = (id: string, on: boolean) =>
    setPending((current) => {
      const next = new Set(current);
      if (on) next.add(id);
      else next.delete(id);
      return next;
    });

  /** Flips status at once and rolls back when the server refuses (e.g. a limit). */
  async function toggle(row: ProgramRow) {
    const status = !row.status;
    replaceRow({ ...row, status, data: { ...row.data, status } });
    setRowPending(row.id, true);
    try {
      const saved = await api.updateDoc(row.kind, row.id, { ...row.data, status }, row.version);
      replaceRow({ ...row, ...saved, status });
      toast(t(status ? 'programs.turnedOn' : 'programs.turnedOff', { title: programTitle(row) }));
    } catch (error) {
      replaceRow(row);
      toast(error instanceof ApiError ? error.message : t('common.genericError'), 'error');
    } finally {
      setRowPending(row.id, false);
    }
  }

  const rows = programs.data;
  const empty = rows !== undefined && rows.length === 0;
  return (
    // The empty state carries the add action itself, so the header doesn't repeat it.
    <Page title={t('programs.title')} primaryAction={empty ? undefined : <AddProgramMenu kinds={kinds.data} tab={tab} />}>
      <Tabs tabs={tabs} selected={tab} label={t('programs.tabs.label')} onSelect={(id) => setSearch({ type: id })} />
      <div role="tabpanel" aria-labelledby={`tab-${tab}`} className="tabs__panel">
        {programs.error !== undefined ? (
          <Banner
            tone="critical"
            title={t('programs.listFailed')}
            action={{ label: t('common.reload'), onAction: programs.reload }}
          >
            {programs.error instanceof ApiError ? programs.error.message : null}
          </Banner>
        ) : empty ? (
          <Card>
            <EmptyState heading={t(tab === 'earning' ? 'programs.empty.earning' : 'programs.empty.redeem')} action={<AddProgramMenu kinds={kinds.data} tab={tab} />}>
              {t('programs.empty.body')}
            </EmptyState>
          </Card>
        ) : (
          <Card flush>
            <ProgramsTable
              programs={rows}
              kindTitles={kindTitles}
              pending={pending}
              onToggle={toggle}
              onDelete={(row) => setDeleting({ id: row.id, kind: row.kind, title: programTitle(row) })}
            />
          </Card>
        )}
      </div>
      <DeleteProgramModal
        program={deleting}
        onClose={() => setDeleting(null)}
        onDeleted={(id) => programs.setData((current) => current?.filter((row) => row.id !== id))}
      />
    </Page>
  );
}
