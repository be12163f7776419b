import { useMemo, useState, type ReactNode } from 'react';
import { useSearchParams } from 'react-router-dom';
import { ApiError } from '../api/client';
import { api } from '../api/endpoints';
import { useResource } from '../api/use-resource';
import { Banner } from '../components/Banner';
import { Card } from '../components/Card';
import { EmptyState } from '../components/EmptyState';
import { Page } from '../components/Page';
import { Tabs } from '../components/Tabs';
import { useLabelLanguage, useT, type MessageKey } from '../i18n';
import { AddProgramMenu } from './AddProgramMenu';
import { DeleteProgramModal, type DeleteTarget } from './DeleteProgramModal';
import { isProgramListTab, listTypeOfTab, parseTab, programTabs, tabOffersKind, type ProgramListTab, type ProgramTab } from './program-paths';
import { programTitle, ProgramsTable } from './ProgramsTable';
import { ReferralCard } from './ReferralCard';
import { RefusalBanner } from './RefusalBanner';
import { GateBanner, isGated, useKindGate } from './PlanGate';
import { TIER_KIND, TierList } from './TierList';
import { useStatusToggle } from './use-status-toggle';

const tabLabels: Record<ProgramTab, MessageKey> = {
  earning: 'programs.tabs.earning',
  redeem: 'programs.tabs.redeem',
  referral: 'programs.tabs.referral',
  milestone: 'programs.tabs.milestone',
  tier: 'programs.tabs.tier',
};

const emptyHeadings: Record<ProgramListTab, MessageKey> = {
  earning: 'programs.empty.earning',
  redeem: 'programs.empty.redeem',
  milestone: 'programs.empty.milestone',
};

/** The shared frame of every tab: title, tabs, and the selected tab's panel. */
function ProgramsFrame({ tab, primaryAction, children }: { tab: ProgramTab; primaryAction?: ReactNode; children: ReactNode }) {
  const [, setSearch] = useSearchParams();
  const t = useT();
  const tabs = programTabs.map((id) => ({ id, label: t(tabLabels[id]) }));
  return (
    <Page title={t('programs.title')} primaryAction={primaryAction}>
      <Tabs tabs={tabs} selected={tab} label={t('programs.tabs.label')} onSelect={(id) => setSearch({ type: id })} />
      <div role="tabpanel" aria-labelledby={`tab-${tab}`} className="tabs__panel">
        {children}
      </div>
    </Page>
  );
}

/** Earning, redeem and milestone tabs: the programs of the tab's kinds with toggles, delete and the add menu. */
function ProgramListTabPanel({ tab }: { tab: ProgramListTab }) {
  const t = useT();
  const listType = listTypeOfTab[tab];
  const programs = useResource(`programs:${listType}`, () => api.programs(listType));
  const language = useLabelLanguage();
  // Template titles follow the admin's language; the list stays on screen while they reload.
  const kinds = useResource(`kinds:${language}`, () => api.kinds(language), { keepData: true });
  const { pending, toggle, refusal, dismissRefusal } = useStatusToggle(programs.setData, programTitle);
  const [deleting, setDeleting] = useState<DeleteTarget | null>(null);

  const kindTitles = useMemo(() => new Map((kinds.data ?? []).map((kind) => [kind.id, kind.title])), [kinds.data]);
  // Earning and milestone programs share one list; each tab shows its own kinds.
  const rows = useMemo(() => programs.data?.filter((row) => tabOffersKind(tab, row.kind)), [programs.data, tab]);
  const empty = rows !== undefined && rows.length === 0;
  return (
    // The empty state carries the add action itself, so the header doesn't repeat it.
    <ProgramsFrame tab={tab} primaryAction={empty ? undefined : <AddProgramMenu kinds={kinds.data} tab={tab} />}>
      <RefusalBanner message={refusal} onDismiss={dismissRefusal} />
      {programs.error !== undefined ? (
        <Banner tone="critical" title={t('programs.listFailed')} action={{ label: t('common.reload'), onAction: programs.reload }}>
          {programs.error instanceof ApiError ? programs.error.message : null}
        </Banner>
      ) : empty ? (
        <Card>
          <EmptyState heading={t(emptyHeadings[tab])} action={<AddProgramMenu kinds={kinds.data} tab={tab} />}>
            {t(tab === 'milestone' ? 'programs.empty.milestoneBody' : 'programs.empty.body')}
          </EmptyState>
        </Card>
      ) : (
        <Card flush>
          <ProgramsTable
            programs={rows}
            kindTitles={kindTitles}
            pending={pending}
            onToggle={(row) => void toggle(row)}
            onDelete={(row) => setDeleting({ id: row.id, kind: row.kind, title: programTitle(row) })}
          />
        </Card>
      )}
      <DeleteProgramModal
        program={deleting}
        onClose={() => setDeleting(null)}
        onDeleted={(id) => programs.setData((current) => current?.filter((row) => row.id !== id))}
      />
    </ProgramsFrame>
  );
}

/** The tier tab: the plan gate of VIP tiers above the list, when the shop's plan lacks it. */
function TierTabPanel() {
  const gate = useKindGate(TIER_KIND);
  return (
    <ProgramsFrame tab="tier">
      {isGated(gate) && <GateBanner gate={gate} />}
      <TierList />
    </ProgramsFrame>
  );
}

/**
 * `/programs?type=earning|redeem|referral|milestone|tier` (spec 000 §2, earning by default): one
 * list per tab; each tab loads its own data.
 */
export function ProgramsPage() {
  const [search] = useSearchParams();
  const tab = parseTab(search.get('type'));
  if (isProgramListTab(tab)) return <ProgramListTabPanel key={tab} tab={tab} />;
  if (tab === 'tier') return <TierTabPanel />;
  return (
    <ProgramsFrame tab={tab}>
      <ReferralCard />
    </ProgramsFrame>
  );
}
