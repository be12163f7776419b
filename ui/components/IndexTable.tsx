import type { ReactNode } from 'react';

export interface IndexTableProps {
  /** Accessible name of the table. */
  label: string;
  headings: { title: string; hidden?: boolean; align?: 'end' }[];
  children: ReactNode;
}

/** A list of resources as a table; rows come from `IndexTableRow`. */
export function IndexTable({ label, headings, children }: IndexTableProps) {
  return (
    <div className="index-table__scroll">
      <table className="index-table" aria-label={label}>
        <thead>
          <tr>
            {headings.map((heading) => (
              <th
                key={heading.title}
                scope="col"
                className={heading.align === 'end' ? 'index-table__cell--end' : undefined}
              >
                {heading.hidden ? <span className="visually-hidden">{heading.title}</span> : heading.title}
              </th>
            ))}
          </tr>
        </thead>
        <tbody>{children}</tbody>
      </table>
    </div>
  );
}

/**
 * A row that opens its resource on click. Clicking is a mouse shortcut only: keyboard users reach the
 * same place through the link in the row, so the row itself is not a tab stop.
 */
export function IndexTableRow({ onOpen, children }: { onOpen?: () => void; children: ReactNode }) {
  return (
    <tr
      className={onOpen ? 'index-table__row index-table__row--link' : 'index-table__row'}
      onClick={(event) => {
        const target = event.target as HTMLElement;
        if (target.closest('a, button, input, select, textarea, label')) return;
        onOpen?.();
      }}
    >
      {children}
    </tr>
  );
}
