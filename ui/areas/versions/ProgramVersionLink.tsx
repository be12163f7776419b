import { Link } from 'react-router-dom';
import type { ActivityEntry } from '../../api/endpoints';
import { useT } from '../../i18n';

/** The program title an entry's explanation names (order, review and event awards store their decision). */
function programTitle(explanation: unknown): string | null {
  if (explanation === null || typeof explanation !== 'object') return null;
  const e = explanation as { decision?: { programTitle?: unknown }; programTitle?: unknown; tierName?: unknown };
  const title = e.decision?.programTitle ?? e.programTitle ?? e.tierName;
  return typeof title === 'string' && title !== '' ? title : null;
}

/**
 * "Program X, version N" under a ledger entry, linking to that program's versions (issue 15): every
 * entry records the program and the version that made it. Nothing for entries without a program.
 */
export function ProgramVersionLink({ entry }: { entry: ActivityEntry }) {
  const t = useT();
  if (entry.entry !== 'ledger' || !entry.programId || typeof entry.programVersion !== 'number') return null;
  const title = programTitle(entry.explanation) ?? entry.programKind ?? entry.programId;
  return (
    <Link className="activity-list__program" to={`/programs/versions/${encodeURIComponent(entry.programId)}`}>
      {t('versions.activityProgram', { title, version: entry.programVersion })}
    </Link>
  );
}
