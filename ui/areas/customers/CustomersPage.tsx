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
import { useT, type MessageKey } from '../../i18n';
import { shopAtom } from '../../state/session';
import { customerName, typeLabels, typeTones } from './format';

const TABS: CustomerTab[] = ['all', 'member', 'guest', 'left'];
const tabLabels: Record<CustomerTab, MessageKey> = { all: 'customers.tabs.all', member: 'customers.tabs.member', guest: 'customers.tabs.guest', left: 'customers.tabs.left' };
const SORTS: CustomerSort[] = ['points_desc', 'points_asc', 'updated_desc'];
const sortLabels: Record<CustomerSort, MessageKey> = { points_desc: 'customers.sort.pointsDesc', points_asc: 'customers.sort.pointsAsc', updated_desc: 'customers.sort.updated' };
const PAGE_SIZES = [10, 20, 50, 100];

/** Optional columns (spec 002 §2 "Columns are customizable"); the name is always shown. */
type Column = 'email' | 'phone' | 'birthday' | 'type' | 'points' | 'updated';
const COLUMNS: Column[] = ['email', 'phone', 'birthday', 'type', 'points', 'updated'];
const columnLabels: Record<Column, MessageKey> = {
  email: 'customers.col.email',
  phone: 'customers.col.phone',
  birthday: 'customers.col.birthday',
  type: 'customers.col.type',
  points: 'customers.col.points',
  updated: 'customers.col.updated',
};
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
 * `/customers` (spec 002 §2 Customers): tabs All, Member, Guest, Left; search by full e-mail or
 * name; sort by points either way or by last update; items per page; cursor pages; customizable
 * columns remembered per shop; a row opens the profile.
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
  // Cursors of the pages before the current one (Previous goes back through them).
  const [cursors, setCursors] = useState<(string | undefined)[]>([]);
  const [after, setAfter] = useState<string | undefined>(undefined);
  const [columns, setColumns] = useColumns(shop?.shop.id);
  const key = `customers:${tab}:${sort}:${limit}:${search}:${after ?? ''}`;
  const page = useResource<ListPage<CustomerRow>>(key, () => api.customers({ tab, sort, limit, ...(search ? { search } : {}), ...(after ? { after } : {}) }), { keepData: true });

  const update = (changes: Record<string, string | null>) => {
    const next = new URLSearchParams(params);
    for (const [k, v] of Object.entries(changes)) {
      if (v === null || v === '') next.delete(k);
      else next.set(k, v);
    }
    setCursors([]);
    setAfter(undefined);
    setParams(next);
  };
  const submitSearch = (event: FormEvent) => {
    event.preventDefault();
    update({ search: draft.trim() || null });
  };
  const money = (n: number) => n.toLocaleString();
  const rows = page.data?.data;
  const empty = rows !== undefined && rows.length === 0 && !page.loading;
  const headings = [{ title: t('customers.col.name') }, ...columns.map((c) => ({ title: t(columnLabels[c]), ...(c === 'points' ? { align: 'end' as const } : {}) }))];

  return (
    <Page title={t('customers.title')}>
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
            <label className="inline-form__field">
              <span>{t('customers.sort.label')}</span>
              <span className="select">
                <select className="select__field" value={sort} onChange={(e) => update({ sort: e.target.value === 'points_desc' ? null : e.target.value })}>
                  {SORTS.map((s) => (
                    <option key={s} value={s}>
                      {t(sortLabels[s])}
                    </option>
                  ))}
                </select>
                <span className="select__chevron" aria-hidden="true">
                  ⌄
                </span>
              </span>
            </label>
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
            <EmptyState heading={t(search ? 'customers.emptySearch' : 'customers.empty')}>{t(search ? 'customers.emptySearchBody' : 'customers.emptyBody')}</EmptyState>
          </Card>
        ) : (
          <Card flush>
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
                      <td className="index-table__primary">
                        <Link to={`/customers/profile/${row.id}`}>{customerName(row, t('customers.noName'))}</Link>
                      </td>
                      {columns.map((c) => (
                        <td key={c} className={c === 'points' ? 'index-table__cell--end' : undefined}>
                          {c === 'email' && row.email}
                          {c === 'phone' && (row.phone ?? '—')}
                          {c === 'birthday' && (row.birthday ?? '—')}
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
              <label className="pagination__size">
                <span>{t('customers.perPage')}</span>
                <span className="select">
                  <select className="select__field" value={limit} onChange={(e) => update({ limit: e.target.value === '20' ? null : e.target.value })}>
                    {PAGE_SIZES.map((n) => (
                      <option key={n} value={n}>
                        {n}
                      </option>
                    ))}
                  </select>
                  <span className="select__chevron" aria-hidden="true">
                    ⌄
                  </span>
                </span>
              </label>
              <Button
                disabled={cursors.length === 0 || page.loading}
                onClick={() => {
                  setAfter(cursors.at(-1));
                  setCursors(cursors.slice(0, -1));
                }}
              >
                {t('customers.previous')}
              </Button>
              <Button
                disabled={!page.data?.pageInfo.hasNextPage || page.loading}
                onClick={() => {
                  setCursors([...cursors, after]);
                  setAfter(page.data?.pageInfo.endCursor ?? undefined);
                }}
              >
                {t('customers.next')}
              </Button>
            </nav>
          </Card>
        )}
      </div>
    </Page>
  );
}
