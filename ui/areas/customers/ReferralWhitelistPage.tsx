import { useState, type FormEvent } from 'react';
import { Link, useSearchParams } from 'react-router-dom';
import { ApiError } from '../../api/client';
import { referralApi, type WhitelistEntry, type WhitelistSort } from '../../api/endpoints';
import { useResource } from '../../api/use-resource';
import { Banner } from '../../components/Banner';
import { Button } from '../../components/Button';
import { Card } from '../../components/Card';
import { EmptyState } from '../../components/EmptyState';
import { IndexTable, IndexTableRow } from '../../components/IndexTable';
import { Modal } from '../../components/Modal';
import { Page } from '../../components/Page';
import { Select } from '../../components/Select';
import { useT, type MessageKey } from '../../i18n';
import { useToast } from '../../state/toasts';
import { customerName } from './format';

const SORTS: WhitelistSort[] = ['added_desc', 'added_asc', 'email_asc', 'email_desc'];
const sortLabels: Record<WhitelistSort, MessageKey> = {
  added_desc: 'referrals.whitelist.sort.addedDesc',
  added_asc: 'referrals.whitelist.sort.addedAsc',
  email_asc: 'referrals.whitelist.sort.emailAsc',
  email_desc: 'referrals.whitelist.sort.emailDesc',
};
const PAGE_SIZES = [10, 20, 50, 100];

/**
 * `/customers/whitelist/referral` (spec 002 §2 Referral whitelist): customers whose referrals skip
 * anti-cheat. Search by full e-mail, sort, refresh, add by e-mail, remove the selected with a
 * confirmation, pages with items per page and the selected count.
 */
export function ReferralWhitelistPage() {
  const t = useT();
  const toast = useToast();
  const [params, setParams] = useSearchParams();
  const search = params.get('search') ?? '';
  const sort = SORTS.includes(params.get('sort') as WhitelistSort) ? (params.get('sort') as WhitelistSort) : 'added_desc';
  const limit = PAGE_SIZES.includes(Number(params.get('limit'))) ? Number(params.get('limit')) : 20;
  const pageNo = Math.max(1, Math.trunc(Number(params.get('page')) || 1));
  const [draft, setDraft] = useState(search);
  const [selected, setSelected] = useState<Set<string>>(new Set());
  const [adding, setAdding] = useState(false);
  const [email, setEmail] = useState('');
  const [addError, setAddError] = useState<string | null>(null);
  const [confirming, setConfirming] = useState(false);
  const [busy, setBusy] = useState(false);
  const page = useResource(`referral-whitelist:${search}:${sort}:${limit}:${pageNo}`, () => referralApi.whitelist({ search, sort, limit, page: pageNo }), { keepData: true });

  const update = (patch: Record<string, string | null>) => {
    const next = new URLSearchParams(params);
    for (const [k, v] of Object.entries(patch)) {
      if (v === null || v === '') next.delete(k);
      else next.set(k, v);
    }
    if (!('page' in patch)) next.delete('page');
    setSelected(new Set());
    setParams(next);
  };
  const submitSearch = (e: FormEvent) => {
    e.preventDefault();
    update({ search: draft.trim() });
  };
  const add = async () => {
    if (!email.trim()) {
      setAddError(t('referrals.whitelist.emailRequired'));
      return;
    }
    setBusy(true);
    setAddError(null);
    try {
      await referralApi.addToWhitelist(email.trim());
      toast(t('referrals.whitelist.added'));
      setAdding(false);
      setEmail('');
      page.reload();
    } catch (e) {
      setAddError(e instanceof ApiError && e.status === 404 ? t('referrals.whitelist.notFound') : t('referrals.whitelist.saveFailed'));
    } finally {
      setBusy(false);
    }
  };
  const remove = async () => {
    setBusy(true);
    try {
      const { removed } = await referralApi.removeFromWhitelist([...selected]);
      toast(t('referrals.whitelist.removed', { count: removed }));
      setSelected(new Set());
      setConfirming(false);
      page.reload();
    } catch {
      toast(t('referrals.whitelist.saveFailed'), 'error');
    } finally {
      setBusy(false);
    }
  };

  const rows = page.data?.data;
  const total = page.data?.total ?? 0;
  const pages = Math.max(1, Math.ceil(total / limit));
  const pageIds = rows?.map((r) => r.customerId) ?? [];
  const allSelected = pageIds.length > 0 && pageIds.every((id) => selected.has(id));
  const toggle = (id: string, on: boolean) => {
    const next = new Set(selected);
    if (on) next.add(id);
    else next.delete(id);
    setSelected(next);
  };
  const headings = [{ title: t('referrals.whitelist.select'), hidden: true }, { title: t('referrals.whitelist.col.name') }, { title: t('referrals.whitelist.col.email') }, { title: t('referrals.whitelist.col.added') }];

  return (
    <Page
      title={t('referrals.whitelist.title')}
      backTo="/customers"
      backLabel={t('customers.back')}
      secondaryActions={
        <Button onClick={page.reload} loading={page.loading && rows !== undefined}>
          {t('referrals.whitelist.refresh')}
        </Button>
      }
      primaryAction={
        <Button variant="primary" onClick={() => setAdding(true)}>
          {t('referrals.whitelist.add')}
        </Button>
      }
    >
      <p className="text-subdued">{t('referrals.whitelist.intro')}</p>
      <Card>
        <div className="list-toolbar">
          <form className="list-toolbar__search" role="search" onSubmit={submitSearch}>
            <label className="visually-hidden" htmlFor="whitelist-search">
              {t('referrals.whitelist.search')}
            </label>
            <div className="input">
              <input id="whitelist-search" className="input__field" type="search" value={draft} placeholder={t('referrals.whitelist.searchPlaceholder')} onChange={(e) => setDraft(e.target.value)} maxLength={254} />
            </div>
            <Button type="submit">{t('referrals.whitelist.searchButton')}</Button>
          </form>
          <Select label={t('referrals.whitelist.sort.label')} value={sort} options={SORTS.map((v) => ({ value: v, label: t(sortLabels[v]) }))} onChange={(v) => update({ sort: v === 'added_desc' ? null : v })} />
        </div>
      </Card>
      {page.error !== undefined ? (
        <Banner tone="critical" title={t('referrals.whitelist.loadFailed')} action={{ label: t('common.reload'), onAction: page.reload }} />
      ) : rows !== undefined && rows.length === 0 ? (
        <Card>
          <EmptyState heading={t(search ? 'referrals.whitelist.emptySearch' : 'referrals.whitelist.empty')}>{t('referrals.whitelist.emptyBody')}</EmptyState>
        </Card>
      ) : (
        <Card flush>
          <div className="bulk-bar" role="group" aria-label={t('referrals.whitelist.bulk')}>
            <label className="checkbox-row">
              <input type="checkbox" checked={allSelected} disabled={pageIds.length === 0} onChange={(e) => setSelected(e.target.checked ? new Set(pageIds) : new Set())} />
              {selected.size > 0 ? t('referrals.whitelist.selected', { count: selected.size }) : t('referrals.whitelist.selectPage')}
            </label>
            {selected.size > 0 && (
              <div className="bulk-bar__actions">
                <Button variant="critical" onClick={() => setConfirming(true)}>
                  {t('referrals.whitelist.remove')}
                </Button>
              </div>
            )}
          </div>
          <IndexTable label={t('referrals.whitelist.title')} headings={headings}>
            {rows === undefined
              ? Array.from({ length: 4 }, (_, r) => (
                  <tr key={r} aria-hidden="true">
                    {headings.map((h) => (
                      <td key={h.title}>
                        <span className="skeleton skeleton--line" />
                      </td>
                    ))}
                  </tr>
                ))
              : rows.map((row: WhitelistEntry) => (
                  <IndexTableRow key={row.customerId}>
                    <td className="index-table__select">
                      <input type="checkbox" checked={selected.has(row.customerId)} onChange={(e) => toggle(row.customerId, e.target.checked)} aria-label={t('referrals.whitelist.selectRow', { email: row.email || row.customerId })} />
                    </td>
                    <td className="index-table__primary">
                      <Link to={`/customers/profile/${row.customerId}`}>{customerName(row, t('customers.noName'))}</Link>
                    </td>
                    <td className="whitelist__email">{row.email || '—'}</td>
                    <td>
                      <time dateTime={row.addedAt}>{new Date(row.addedAt).toLocaleDateString()}</time>
                    </td>
                  </IndexTableRow>
                ))}
          </IndexTable>
          <nav className="pagination" aria-label={t('referrals.whitelist.pagination')}>
            <span className="pagination__info">{t('referrals.whitelist.total', { count: total })}</span>
            <Select className="pagination__size" label={t('referrals.whitelist.perPage')} value={limit} options={PAGE_SIZES.map((n) => ({ value: n, label: String(n) }))} onChange={(v) => update({ limit: v === '20' ? null : v })} />
            <span className="whitelist__pages">
              <Button variant="plain" disabled={pageNo <= 1} onClick={() => update({ page: pageNo - 1 <= 1 ? null : String(pageNo - 1) })}>
                {t('referrals.whitelist.previous')}
              </Button>
              <span>{t('referrals.whitelist.pageOf', { page: pageNo, pages })}</span>
              <Button variant="plain" disabled={pageNo >= pages} onClick={() => update({ page: String(pageNo + 1) })}>
                {t('referrals.whitelist.next')}
              </Button>
            </span>
          </nav>
        </Card>
      )}
      <Modal
        open={adding}
        title={t('referrals.whitelist.addTitle')}
        onClose={() => {
          setAdding(false);
          setAddError(null);
        }}
        primaryAction={{ label: t('referrals.whitelist.add'), onAction: () => void add(), loading: busy }}
      >
        <div className="stack">
          {addError && <Banner tone="critical" title={addError} />}
          <div className="form-field">
            <label className="form-field__label" htmlFor="whitelist-email">
              {t('referrals.whitelist.email')}
            </label>
            <div className="input">
              <input id="whitelist-email" className="input__field" type="email" value={email} maxLength={254} onChange={(e) => setEmail(e.target.value)} />
            </div>
          </div>
        </div>
      </Modal>
      <Modal open={confirming} title={t('referrals.whitelist.removeTitle', { count: selected.size })} onClose={() => setConfirming(false)} primaryAction={{ label: t('referrals.whitelist.remove'), onAction: () => void remove(), loading: busy, destructive: true }}>
        <p>{t('referrals.whitelist.removeBody')}</p>
      </Modal>
    </Page>
  );
}
