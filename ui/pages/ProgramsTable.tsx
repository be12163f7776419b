import { Link, useNavigate } from 'react-router-dom';
import type { ProgramRow } from '../api/endpoints';
import { Badge } from '../components/Badge';
import { IndexTable, IndexTableRow } from '../components/IndexTable';
import { Toggle } from '../components/Toggle';
import { t, useT, type Translate } from '../i18n';
import { paths } from './program-paths';

export interface ProgramsTableProps {
  /** Undefined while loading: skeleton rows. */
  programs: ProgramRow[] | undefined;
  kindTitles: Map<string, string>;
  /** Ids whose toggle is on its way to the server. */
  pending: ReadonlySet<string>;
  onToggle: (program: ProgramRow) => void;
  onDelete: (program: ProgramRow) => void;
}

/** The table's column headings, in the current language. */
function headingsOf(t: Translate) {
  return [
    { title: t('programs.col.title') },
    { title: t('programs.col.kind') },
    { title: t('programs.col.status') },
    { title: t('programs.col.on') },
    { title: t('programs.col.actions'), hidden: true, align: 'end' as const },
  ];
}

export function programTitle(program: ProgramRow): string {
  return program.title || t('programs.untitled');
}

function SkeletonRows({ columns }: { columns: number }) {
  return Array.from({ length: 4 }, (_, row) => (
    <tr key={row} aria-hidden="true">
      {Array.from({ length: columns }, (_, cell) => (
        <td key={cell}>
          <span className="skeleton skeleton--line" />
        </td>
      ))}
    </tr>
  ));
}

/** The program list of one tab: each row opens its program; toggle and delete act in place. */
export function ProgramsTable({ programs, kindTitles, pending, onToggle, onDelete }: ProgramsTableProps) {
  const t = useT();
  const navigate = useNavigate();
  const headings = headingsOf(t);
  return (
    <IndexTable label={t('programs.title')} headings={headings}>
      {programs === undefined ? (
        <SkeletonRows columns={headings.length} />
      ) : (
        programs.map((program) => {
          const title = programTitle(program);
          return (
            <IndexTableRow key={program.id} onOpen={() => navigate(paths.edit(program.id))}>
              <td className="index-table__primary">{title}</td>
              <td>{kindTitles.get(program.kind) ?? program.event}</td>
              <td>
                <Badge tone={program.status ? 'success' : 'neutral'}>
                  {t(program.status ? 'programs.status.active' : 'programs.status.inactive')}
                </Badge>
              </td>
              <td>
                <Toggle
                  checked={program.status}
                  label={t('programs.toggle', { title })}
                  disabled={pending.has(program.id)}
                  onChange={() => onToggle(program)}
                />
              </td>
              <td className="index-table__cell--end">
                <span className="index-table__actions">
                  <Link className="btn btn--plain" to={paths.edit(program.id)} aria-label={t('programs.editLabel', { title })}>
                    {t('common.edit')}
                  </Link>
                  <button type="button" className="icon-button icon-button--critical" aria-label={t('programs.deleteLabel', { title })} onClick={() => onDelete(program)}>
                    <TrashIcon />
                  </button>
                </span>
              </td>
            </IndexTableRow>
          );
        })
      )}
    </IndexTable>
  );
}

export function TrashIcon() {
  return (
    <svg viewBox="0 0 20 20" width="16" height="16" aria-hidden="true" focusable="false">
      <path
        fill="currentColor"
        d="M8 3.5A1.5 1.5 0 0 1 9.5 2h1A1.5 1.5 0 0 1 12 3.5V4h3.25a.75.75 0 0 1 0 1.5h-.32l-.7 10.02A2.5 2.5 0 0 1 11.74 18H8.26a2.5 2.5 0 0 1-2.49-2.48L5.07 5.5h-.32a.75.75 0 0 1 0-1.5H8v-.5Zm-1.43 2 .7 9.92c.03.53.46.83.99.83h3.48c.53 0 .96-.3.99-.83l.7-9.92H6.57Z"
      />
    </svg>
  );
}
