import { useAtomValue } from 'jotai';
import { useEffect, useState, type FormEvent } from 'react';
import { Link, useNavigate, useSearchParams } from 'react-router-dom';
import { ApiError } from '../../api/client';
import { api, type CustomerRow, type CustomerSort, type CustomerTab, type ListPage } from '../../api/endpoints';
import { useResource } from '../../api/use-resource';
import { Badge } from '../../components/Badge';
import { Banner } from '../../components/Banner';
import { Button } from '../../components/Button';
import { Card } from '../../components/Card';
import { EmptyState } from '../../components/EmptyState';
import { IndexTable, IndexTableRow } from '../../components/IndexTable';
import { Page } from '../../components/Page';
import { Tabs } from '../../components/Tabs';
import { CursorPagination, useCursorPages } from '../../components/CursorPagination';
import { Select } from '../../components/Select';
import { useT, type MessageKey } from '../../i18n';
import { shopAtom } from '../../state/session';
import { CustomerImportExportActions } from './import/ImportExportActions';
import { ExportDialog } from './export/ExportDialog';
import { BulkWalletPassesAction } from './wallet/GenerateWalletPass';
import { ExportStatusBanner } from './export/ExportStatus';
import type { ExportScope } from './export/api';
import { customerName, rfmLabels, tabLabels, typeLabels, typeTones } from './format';
import { AdjustPointsModal, ConvertToGuestsModal, MembershipModal } from './modals';

const TABS: CustomerTab[] = ['all', 'member', 'guest', 'left', 'b2b', 'left_segment'];
const SORTS: CustomerSort[] = ['points_desc', 'points_asc', 'updated_desc'];
const sortLabels: Record<CustomerSort, MessageKey> = { points_desc: 'customers.sort.pointsDesc', points_asc: 'customers.sort.pointsAsc', updated_desc: 'customers.sort.updated' };
const PAGE_SIZES = [10, 20, 50, 100];

/** Optional columns (spec 002 §2 "Columns are customizable"); the name is always shown. */
type Column = 'email' | 'phone' | 'birthday' | 'type' | 'segment' | 'tier' | 'tierEarned' | 'tierSpent' | 'tierOrders' | 'points' | 'updated';
const COLUMNS: Column[] = ['email', 'phone', 'birthday', 'type', 'segment', 'tier', 'tierEarned', 'tierSpent', 'tierOrders', 'points', 'updated'];
const columnLabels: Record<Column, MessageKey> = {
  email: 'customers.col.email',
  phone: 'customers.col.phone',
  birthday: 'customers.col.birthday',
  type: 'customers.col.type',
  segment: 'customers.col.segment',
  tier: 'customers.col.tier',
  tierEarned: 'customers.col.tierEarned',
  tierSpent: 'customers.col.tierSpent',
  tierOrders: 'customers.col.tierOrders',
  points: 'customers.col.points',
  updated: 'customers.col.updated',
};
/** Columns of numbers, aligned to the end. */
const NUMERIC_COLUMNS: ReadonlySet<Column> = new Set(['tierEarned', 'tierSpent', 'tierOrders', 'points']);
const DEFAULT_COLUMNS: Column[] = ['email', 'type', 'points', 'updated'];

/** The chosen columns, remembered per shop in this browser. */
function useColumns(shopId: string | undefined): [Column[], (c: Column[]) => void] {
  const key = `customers.columns.${shopId ?? 'default'}`;
  const read = (): Column[] => {
    try {
      const saved = JSON.parse(localStorage.getItem(key) ?? 'null') as unknown;
      if (Array.isArray(saved)) return COLUMNS.filter((c) => saved.includes(c));
    } catch {
      // a damaged entry: the defaults
    }
    return DEFAULT_COLUMNS;
  };
  const [columns, setColumns] = useState<Column[]>(read);
  useEffect(() => setColumns(read()), [key]);
  return [
    columns,
    (next) => {
      setColumns(next);
      localStorage.setItem(key, JSON.stringify(next));
    },
  ];
}

function parse<T extends string>(value: string | null, allowed: readonly T[], fallback: T): T {
  return allowed.includes(value as T) ? (value as T) : fallback;
}

/**
 * `/customers` (spec 002 §2 Customers): tabs All, Member, Guest, Left, B2B, Left segment; search by full e-mail or
 * name; sort by points either way or by last update; items per page; cursor pages; customizable
 * columns remembered per shop; a row opens the profile; bulk adjust, exclude, rejoin, export and
 * wallet passes of the selected rows.
 */
export function CustomersPage() {
  const t = useT();
  const navigate = useNavigate();
  const shop = useAtomValue(shopAtom);
  const [params, setParams] = useSearchParams();
  const tab = parse(params.get('tab'), TABS, 'all');
  const sort = parse(params.get('sort'), SORTS, 'points_desc');
  const limit = PAGE_SIZES.includes(Number(params.get('limit'))) ? Number(params.get('limit')) : 20;
  const search = params.get('search') ?? '';
  const [draft, setDraft] = useState(search);
  const pages = useCursorPages();
  const after = pages.after;
  const [columns, setColumns] = useColumns(shop?.shop.id);
  // Bulk selection (spec 002 §2 list actions): ids on the page shown; cleared when the page changes.
  const [selected, setSelected] = useState<ReadonlySet<string>>(new Set());
  const [dialog, setDialog] = useState<'adjust' | 'exclude' | 'rejoin' | 'revert' | 'convert' | null>(null);
  const key = `customers:${tab}:${sort}:${limit}:${search}:${after ?? ''}`;
  const page = useResource<ListPage<CustomerRow>>(key, () => api.customers({ tab, sort, limit, ...(search ? { search } : {}), ...(after ? { after } : {}) }), { keepData: true });
  useEffect(() => setSelected(new Set()), [key]);
  // Export (spec 002 §2 "Exports are emailed as CSV"): the tab and search, or the selected rows.
  const [exportScope, setExportScope] = useState<ExportScope | null>(null);
  const [startedExport, setStartedExport] = useState<string | null>(null);
  const afterBulk = () => {
    setSelected(new Set());
    page.reload();
  };

  const update = (changes: Record<string, string | null>) => {
    const next = new URLSearchParams(params);
    for (const [k, v] of Object.entries(changes)) {
      if (v === null || v === '') next.delete(k);
      else next.set(k, v);
    }
    pages.reset();
    setParams(next);
  };
  const submitSearch = (event: FormEvent) => {
    event.preventDefault();
    update({ search: draft.trim() || null });
  };
  const money = (n: number) => n.toLocaleString();
  const currency = shop?.shop.currency ?? 'USD';
  const formatMoney = (minor: number) => {
    const format = new Intl.NumberFormat(undefined, { style: 'currency', currency });
    return format.format(minor / 10 ** (format.resolvedOptions().maximumFractionDigits ?? 2));
  };
  // What an empty list says: no match for the search, nobody in this tab, or no customers at all.
  const emptyText: [MessageKey, MessageKey] = search
    ? ['customers.emptySearch', 'customers.emptySearchBody']
    : tab === 'left_segment'
      ? ['customers.emptyLeftSegment', 'customers.emptyLeftSegmentBody']
      : tab !== 'all'
        ? ['customers.emptyTab', 'customers.emptyTabBody']
        : ['customers.empty', 'customers.emptyBody'];
  const rows = page.data?.data;
  const empty = rows !== undefined && rows.length === 0 && !page.loading;
  const pageIds = rows?.map((r) => r.id) ?? [];
  const allSelected = pageIds.length > 0 && pageIds.every((id) => selected.has(id));
  const toggle = (id: string, on: boolean) => {
    const next = new Set(selected);
    if (on) next.add(id);
    else next.delete(id);
    setSelected(next);
  };
  const selectedRows = rows?.filter((r) => selected.has(r.id)) ?? [];
  const headings = [{ title: t('customers.select.column'), hidden: true }, { title: t('customers.col.name') }, ...columns.map((c) => ({ title: t(columnLabels[c]), ...(NUMERIC_COLUMNS.has(c) ? { align: 'end' as const } : {}) }))];

  return (
    <Page
      title={t('customers.title')}
      secondaryActions={
        <>
          <Link className="btn btn--secondary" to="/customers/segments">
            {t('customers.segments.action')}
          </Link>
          <Link className="btn btn--secondary" to="/customers/activity/review">
            {t('reviews.title')}
          </Link>
          <Link className="btn btn--secondary" to="/customers/whitelist/referral">
            {t('referrals.whitelist.title')}
          </Link>
          <CustomerImportExportActions onExport={() => setExportScope({ tab, ...(search ? { search } : {}) })} />
          <Button variant="secondary" onClick={() => setDialog('convert')}>
            {t('customers.convert.action')}
          </Button>
        </>
      }
    >
      <ExportStatusBanner startedId={startedExport} />
      <Tabs tabs={TABS.map((id) => ({ id, label: t(tabLabels[id]) }))} selected={tab} label={t('customers.tabs.label')} onSelect={(id) => update({ tab: id === 'all' ? null : id })} />
      <div role="tabpanel" aria-labelledby={`tab-${tab}`} className="tabs__panel">
        <Card>
          <div className="list-toolbar">
            <form className="list-toolbar__search" role="search" onSubmit={submitSearch}>
              <label className="visually-hidden" htmlFor="customer-search">
                {t('customers.search')}
              </label>
              <div className="input">
                <input id="customer-search" className="input__field" type="search" value={draft} placeholder={t('customers.searchPlaceholder')} onChange={(e) => setDraft(e.target.value)} maxLength={254} />
              </div>
              <Button type="submit">{t('customers.searchButton')}</Button>
            </form>
            <Select label={t('customers.sort.label')} value={sort} options={SORTS.map((v) => ({ value: v, label: t(sortLabels[v]) }))} onChange={(v) => update({ sort: v === 'points_desc' ? null : v })} />
            <details className="column-picker">
              <summary className="btn btn--secondary">{t('customers.columns')}</summary>
              <fieldset className="column-picker__menu">
                <legend className="visually-hidden">{t('customers.columns')}</legend>
                {COLUMNS.map((c) => (
                  <label key={c} className="column-picker__option">
                    <input type="checkbox" checked={columns.includes(c)} onChange={(e) => setColumns(e.target.checked ? COLUMNS.filter((x) => x === c || columns.includes(x)) : columns.filter((x) => x !== c))} />
                    {t(columnLabels[c])}
                  </label>
                ))}
              </fieldset>
            </details>
          </div>
        </Card>
        {page.error !== undefined ? (
          <Banner tone="critical" title={t('customers.listFailed')} action={{ label: t('common.reload'), onAction: page.reload }}>
            {page.error instanceof ApiError ? page.error.message : null}
          </Banner>
        ) : empty ? (
          <Card>
            <EmptyState heading={t(emptyText[0])}>{t(emptyText[1])}</EmptyState>
          </Card>
        ) : (
          <Card flush>
            <div className="bulk-bar" role="group" aria-label={t('customers.bulk.label')}>
              <label className="checkbox-row">
                <input type="checkbox" checked={allSelected} disabled={pageIds.length === 0} onChange={(e) => setSelected(e.target.checked ? new Set(pageIds) : new Set())} />
                {selected.size > 0 ? t('customers.selected', { count: selected.size }) : t('customers.select.page')}
              </label>
              {selected.size > 0 && (
                <div className="bulk-bar__actions">
                  <Button onClick={() => setDialog('adjust')}>{t('customers.adjust.title')}</Button>
                  {selectedRows.every((r) => r.type === 'member') && <Button onClick={() => setDialog('exclude')}>{t('customers.membership.exclude')}</Button>}
                  {selectedRows.every((r) => r.type === 'left' && r.leftReason !== 'segment') && <Button onClick={() => setDialog('rejoin')}>{t('customers.membership.rejoin')}</Button>}
                  {selectedRows.every((r) => r.type === 'left' && r.leftReason === 'segment') && <Button onClick={() => setDialog('revert')}>{t('customers.membership.revert')}</Button>}
                  <Button onClick={() => setExportScope({ tab, ids: [...selected] })}>{t('import.export.action')}</Button>
                  <BulkWalletPassesAction customers={selectedRows.map((r) => ({ id: r.id, label: customerName(r, r.email || t('customers.noName')), email: r.email ?? '' }))} />
                  <Button variant="plain" onClick={() => setSelected(new Set())}>
                    {t('customers.bulk.clear')}
                  </Button>
                </div>
              )}
            </div>
            <IndexTable label={t('customers.title')} headings={headings}>
              {rows === undefined
                ? Array.from({ length: 5 }, (_, r) => (
                    <tr key={r} aria-hidden="true">
                      {headings.map((h) => (
                        <td key={h.title}>
                          <span className="skeleton skeleton--line" />
                        </td>
                      ))}
                    </tr>
                  ))
                : rows.map((row) => (
                    <IndexTableRow key={row.id} onOpen={() => navigate(`/customers/profile/${row.id}`)}>
                      <td className="index-table__select">
                        <input type="checkbox" checked={selected.has(row.id)} onChange={(e) => toggle(row.id, e.target.checked)} aria-label={t('customers.select.row', { name: customerName(row, row.email || t('customers.noName')) })} />
                      </td>
                      <td className="index-table__primary">
                        <Link to={`/customers/profile/${row.id}`}>{customerName(row, t('customers.noName'))}</Link>
                      </td>
                      {columns.map((c) => (
                        <td key={c} className={NUMERIC_COLUMNS.has(c) ? 'index-table__cell--end' : undefined}>
                          {c === 'email' && row.email}
                          {c === 'phone' && (row.phone ?? '—')}
                          {c === 'birthday' && (row.birthday ?? '—')}
                          {c === 'segment' && (row.rfmGroup && rfmLabels[row.rfmGroup] ? t(rfmLabels[row.rfmGroup]!) : '—')}
                          {c === 'tier' && (row.tierName ?? '—')}
                          {c === 'tierEarned' && row.tierStats.tierPoints.toLocaleString()}
                          {c === 'tierSpent' && formatMoney(row.tierStats.amountSpentMinor)}
                          {c === 'tierOrders' && row.tierStats.orders.toLocaleString()}
                          {c === 'type' && <Badge tone={typeTones[row.type] ?? 'neutral'}>{typeLabels[row.type] ? t(typeLabels[row.type]!) : row.type}</Badge>}
                          {c === 'points' && (
                            <>
                              {money(row.points)}
                              {row.pendingPoints > 0 && <div className="text-subdued">{t('customers.pendingShort', { points: money(row.pendingPoints) })}</div>}
                            </>
                          )}
                          {c === 'updated' && <time dateTime={row.updatedAt}>{new Date(row.updatedAt).toLocaleDateString()}</time>}
                        </td>
                      ))}
                    </IndexTableRow>
                  ))}
            </IndexTable>
            <nav className="pagination" aria-label={t('customers.pagination')}>
              <span className="pagination__info">{page.data?.total !== undefined ? t('customers.total', { count: page.data.total }) : null}</span>
              <Select className="pagination__size" label={t('customers.perPage')} value={limit} options={PAGE_SIZES.map((n) => ({ value: n, label: String(n) }))} onChange={(v) => update({ limit: v === '20' ? null : v })} />
              <CursorPagination pages={pages} hasNextPage={Boolean(page.data?.pageInfo.hasNextPage)} endCursor={page.data?.pageInfo.endCursor ?? null} loading={page.loading} />
            </nav>
          </Card>
        )}
      </div>
      <AdjustPointsModal target={{ kind: 'many', ids: [...selected] }} open={dialog === 'adjust'} onClose={() => setDialog(null)} onDone={afterBulk} />
      <MembershipModal target={{ kind: 'many', ids: [...selected] }} action={dialog === 'rejoin' || dialog === 'revert' ? dialog : 'exclude'} open={dialog === 'exclude' || dialog === 'rejoin' || dialog === 'revert'} onClose={() => setDialog(null)} onDone={afterBulk} />
      <ExportDialog open={exportScope !== null} scope={exportScope ?? { tab }} onClose={() => setExportScope(null)} onStarted={(job) => setStartedExport(job.id)} />
      <ConvertToGuestsModal open={dialog === 'convert'} onClose={() => setDialog(null)} onDone={afterBulk} />
    </Page>
  );
}
