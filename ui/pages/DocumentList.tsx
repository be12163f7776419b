import { useMemo, useState, type ReactNode } from 'react';
import { Link, useNavigate } from 'react-router-dom';
import type { StoredDocument } from '../../engine/types';
import { ApiError } from '../api/client';
import { api } from '../api/endpoints';
import { useResource } from '../api/use-resource';
import { Badge } from '../components/Badge';
import { Banner } from '../components/Banner';
import { Card } from '../components/Card';
import { EmptyState } from '../components/EmptyState';
import { IndexTable, IndexTableRow } from '../components/IndexTable';
import { Toggle } from '../components/Toggle';
import { useT } from '../i18n';
import { DeleteProgramModal, type DeleteTarget } from './DeleteProgramModal';
import { TrashIcon } from './ProgramsTable';
import { RefusalBanner } from './RefusalBanner';
import { useStatusToggle } from './use-status-toggle';

export interface DocumentColumn {
  title: string;
  render: (doc: StoredDocument) => ReactNode;
}

export interface DocumentListProps {
  /** The kind whose documents are listed (`GET /api/kinds/:kind/docs`). */
  kind: string;
  /** Card title and the table's accessible name. */
  label: string;
  /** The first column's heading: the document's name. */
  nameHeading: string;
  titleOf: (doc: StoredDocument) => string;
  /** Beside the name (a "Base tier" badge). */
  nameSuffix?: (doc: StoredDocument) => ReactNode;
  editPath: (doc: StoredDocument) => string;
  /** Columns between the name and the status. */
  columns?: DocumentColumn[];
  sort?: (a: StoredDocument, b: StoredDocument) => number;
  /** Status badge and on/off switch (kinds with a boolean `status`). */
  toggles?: boolean;
  /** The create button: in the card header, or in the empty state when there is nothing yet. */
  createAction: ReactNode;
  empty: { heading: string; body: string };
  deletedMessage: string;
  /** More row actions beside Edit (e.g. a tier's rewards). */
  rowActions?: (doc: StoredDocument) => ReactNode;
}

function SkeletonRows({ columns }: { columns: number }) {
  return Array.from({ length: 3 }, (_, row) => (
    <tr key={row} aria-hidden="true">
      {Array.from({ length: columns }, (_, cell) => (
        <td key={cell}>
          <span className="skeleton skeleton--line" />
        </td>
      ))}
    </tr>
  ));
}

/**
 * The documents of one kind as a card: a table with open-on-click rows, on/off switches and delete
 * with confirmation, or an empty state with the create action.
 */
export function DocumentList(props: DocumentListProps) {
  const t = useT();
  const { kind, label, nameHeading, titleOf, nameSuffix, editPath, columns = [], sort, toggles = false, createAction, empty, deletedMessage, rowActions } = props;
  const navigate = useNavigate();
  const docs = useResource(`docs:${kind}`, () => api.docs(kind));
  const { pending, toggle, refusal, dismissRefusal } = useStatusToggle<StoredDocument>(docs.setData, titleOf);
  const [deleting, setDeleting] = useState<DeleteTarget | null>(null);
  const rows = useMemo(() => (docs.data && sort ? [...docs.data].sort(sort) : docs.data), [docs.data, sort]);

  const headings = [
    { title: nameHeading },
    ...columns.map((column) => ({ title: column.title })),
    ...(toggles ? [{ title: t('programs.col.status') }, { title: t('programs.col.on') }] : []),
    { title: t('programs.col.actions'), hidden: true, align: 'end' as const },
  ];

  let body: ReactNode;
  if (docs.error !== undefined) {
    body = (
      <Banner tone="critical" title={t('catalogue.listFailed')} action={{ label: t('common.reload'), onAction: docs.reload }}>
        {docs.error instanceof ApiError ? docs.error.message : null}
      </Banner>
    );
  } else if (rows !== undefined && rows.length === 0) {
    body = (
      <Card>
        <EmptyState heading={empty.heading} action={createAction}>
          {empty.body}
        </EmptyState>
      </Card>
    );
  } else {
    body = (
      <Card flush title={label} actions={createAction}>
        <IndexTable label={label} headings={headings}>
          {rows === undefined ? (
            <SkeletonRows columns={headings.length} />
          ) : (
            rows.map((doc) => {
              const title = titleOf(doc);
              const active = doc.data.status === true;
              return (
                <IndexTableRow key={doc.id} onOpen={() => navigate(editPath(doc))}>
                  <td className="index-table__primary">
                    <span className="document-list__name">
                      {title}
                      {nameSuffix?.(doc)}
                    </span>
                  </td>
                  {columns.map((column) => (
                    <td key={column.title}>{column.render(doc)}</td>
                  ))}
                  {toggles && (
                    <>
                      <td>
                        <Badge tone={active ? 'success' : 'neutral'}>{t(active ? 'programs.status.active' : 'programs.status.inactive')}</Badge>
                      </td>
                      <td>
                        <Toggle checked={active} label={t('programs.toggle', { title })} disabled={pending.has(doc.id)} onChange={() => void toggle(doc)} />
                      </td>
                    </>
                  )}
                  <td className="index-table__cell--end">
                    <span className="index-table__actions">
                      {rowActions?.(doc)}
                      <Link className="btn btn--plain" to={editPath(doc)} aria-label={t('programs.editLabel', { title })}>
                        {t('common.edit')}
                      </Link>
                      <button
                        type="button"
                        className="icon-button icon-button--critical"
                        aria-label={t('programs.deleteLabel', { title })}
                        onClick={() => setDeleting({ id: doc.id, kind: doc.kind, title })}
                      >
                        <TrashIcon />
                      </button>
                    </span>
                  </td>
                </IndexTableRow>
              );
            })
          )}
        </IndexTable>
      </Card>
    );
  }

  return (
    <>
      <RefusalBanner message={refusal} onDismiss={dismissRefusal} />
      {body}
      <DeleteProgramModal
        program={deleting}
        deletedMessage={deletedMessage}
        onClose={() => setDeleting(null)}
        onDeleted={(id) => docs.setData((current) => current?.filter((doc) => doc.id !== id))}
      />
    </>
  );
}
