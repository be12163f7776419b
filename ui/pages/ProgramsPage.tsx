import { lazy, Suspense, useMemo, useState, type ReactNode } from 'react';
import { useAtomValue } from 'jotai';
import { useSearchParams } from 'react-router-dom';
import { localDate } from '../../engine/store-time';
import type { ProgramRow } from '../api/endpoints';
import { ApiError } from '../api/client';
import { api } from '../api/endpoints';
import { useResource } from '../api/use-resource';
import { Banner } from '../components/Banner';
import { Card } from '../components/Card';
import { EmptyState } from '../components/EmptyState';
import { Page } from '../components/Page';
import { Select } from '../components/Select';
import { Tabs } from '../components/Tabs';
import { useLabelLanguage, useLanguage, useT, type MessageKey } from '../i18n';
import { currencyAtom, timezoneAtom } from '../state/session';
import { AddProgramMenu } from './AddProgramMenu';
import { DeleteProgramModal, type DeleteTarget } from './DeleteProgramModal';
import { isProgramListTab, listTypeOfTab, parseTab, programTabs, tabOffersKind, type ProgramListTab, type ProgramTab } from './program-paths';
import { hasDateWindow, programTitle, ProgramsTable } from './ProgramsTable';
import { ReferralCard } from './ReferralCard';
import { RefusalBanner } from './RefusalBanner';
import { GateBanner, isGated, useKindGate } from './PlanGate';
import { TIER_KIND, TierList } from './TierList';
import { useStatusToggle } from './use-status-toggle';

// The milestone tab's trial offer loads with that tab only (the billing area stays off the first load).
const MilestoneTrialBanner = lazy(() => import('../areas/billing/Offers').then((m) => ({ default: m.MilestoneTrialBanner })));

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

/** How the program tables sort (walkthrough: "program tables: search, sort"). */
export type ProgramSort = 'newest' | 'oldest' | 'title_asc' | 'title_desc';
const SORTS: { value: ProgramSort; label: MessageKey }[] = [
  { value: 'oldest', label: 'programs.list.sortOldest' },
  { value: 'newest', label: 'programs.list.sortNewest' },
  { value: 'title_asc', label: 'programs.list.sortTitleAsc' },
  { value: 'title_desc', label: 'programs.list.sortTitleDesc' },
];

const collators = new Map<string, Intl.Collator>();

/** The title collation of `language`, made once (a collator is costly to make; only title sorts need one). */
function collatorOf(language: string): Intl.Collator {
  let collator = collators.get(language);
  if (!collator) {
    collator = new Intl.Collator(language, { sensitivity: 'base', numeric: true });
    collators.set(language, collator);
  }
  return collator;
}

/**
 * The rows a search and a sort leave: `query` matches the title or the type's title, any case;
 * oldest (the default: the order programs were made in, as the server lists them) and newest by
 * creation, titles in the admin's language's collation.
 */
export function searchAndSort(rows: ProgramRow[], query: string, sort: ProgramSort, kindTitles: Map<string, string>, language: string): ProgramRow[] {
  const needle = query.trim().toLocaleLowerCase(language);
  const found = needle ? rows.filter((row) => [programTitle(row), kindTitles.get(row.kind) ?? row.event].some((text) => text.toLocaleLowerCase(language).includes(needle))) : [...rows];
  const collator = sort === 'title_asc' || sort === 'title_desc' ? collatorOf(language) : undefined;
  // ISO timestamps and ids order by code unit; `localeCompare` would load a collation for nothing.
  const byCode = (x: string, y: string) => (x < y ? -1 : x > y ? 1 : 0);
  const byCreated = (a: ProgramRow, b: ProgramRow) => byCode(a.createdAt, b.createdAt) || byCode(a.id, b.id);
  return found.sort((a, b) =>
    sort === 'newest' ? byCreated(b, a)
    : sort === 'title_asc' ? collator!.compare(programTitle(a), programTitle(b))
    : sort === 'title_desc' ? collator!.compare(programTitle(b), programTitle(a))
    : byCreated(a, b),
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
  const [query, setQuery] = useState('');
  const [sort, setSort] = useState<ProgramSort>('oldest');
  const uiLanguage = useLanguage();
  const currency = useAtomValue(currencyAtom);
  const timezone = useAtomValue(timezoneAtom);
  // Today's store-local date only matters to programs with a date window; working it out is the
  // first time-zone formatting of the visit (ICU's zone data: 20 ms on a phone), so it waits for one.
  const datedRows = programs.data?.some(hasDateWindow) ?? false;
  const today = useMemo(() => (datedRows ? localDate(new Date(), timezone ?? Intl.DateTimeFormat().resolvedOptions().timeZone) : ''), [datedRows, timezone]);

  const kindTitles = useMemo(() => new Map((kinds.data ?? []).map((kind) => [kind.id, kind.title])), [kinds.data]);
  // Earning and milestone programs share one list; each tab shows its own kinds.
  const rows = useMemo(() => programs.data?.filter((row) => tabOffersKind(tab, row.kind)), [programs.data, tab]);
  const shown = useMemo(() => (rows ? searchAndSort(rows, query, sort, kindTitles, uiLanguage) : undefined), [rows, query, sort, kindTitles, uiLanguage]);
  const empty = rows !== undefined && rows.length === 0;
  // Limits shown before the form (walkthrough): the add menu says why a template is unavailable.
  const placeOrderCount = programs.data?.filter((row) => row.kind === 'earning.place_order').length ?? 0;
  return (
    // The empty state carries the add action itself, so the header doesn't repeat it.
    <ProgramsFrame tab={tab} primaryAction={empty ? undefined : <AddProgramMenu kinds={kinds.data} tab={tab} placeOrderCount={placeOrderCount} />}>
      <RefusalBanner message={refusal} onDismiss={dismissRefusal} />
      {tab === 'milestone' && (
        <Suspense fallback={null}>
          <MilestoneTrialBanner />
        </Suspense>
      )}
      {programs.error !== undefined ? (
        <Banner tone="critical" title={t('programs.listFailed')} action={{ label: t('common.reload'), onAction: programs.reload }}>
          {programs.error instanceof ApiError ? programs.error.message : null}
        </Banner>
      ) : empty ? (
        <Card>
          <EmptyState heading={t(emptyHeadings[tab])} action={<AddProgramMenu kinds={kinds.data} tab={tab} placeOrderCount={placeOrderCount} />}>
            {t(tab === 'milestone' ? 'programs.empty.milestoneBody' : 'programs.empty.body')}
          </EmptyState>
        </Card>
      ) : (
        <Card flush>
          <div className="list-toolbar programs-toolbar">
            <div className="list-toolbar__search" role="search">
              <label className="inline-form__field programs-toolbar__search">
                <span>{t('programs.list.search')}</span>
                <span className="input">
                  <input className="input__field" type="search" value={query} onChange={(e) => setQuery(e.target.value)} />
                </span>
              </label>
            </div>
            <Select label={t('programs.list.sort')} value={sort} options={SORTS.map((s) => ({ value: s.value, label: t(s.label) }))} onChange={(v) => setSort(v as ProgramSort)} />
          </div>
          {shown !== undefined && shown.length === 0 && query.trim() !== '' && <p className="programs-toolbar__none">{t('programs.list.noMatch', { query: query.trim() })}</p>}
          <ProgramsTable
            programs={shown}
            today={today}
            currency={currency}
            language={uiLanguage}
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
