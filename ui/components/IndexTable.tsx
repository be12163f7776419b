import { useLayoutEffect, useRef, type ReactNode } from 'react';

export interface IndexTableProps {
  /** Accessible name of the table. */
  label: string;
  headings: { title: string; hidden?: boolean; align?: 'end' }[];
  children: ReactNode;
}

/**
 * A list of resources as a table; rows come from `IndexTableRow`. On a phone (≤ 40rem, table.css)
 * the rows reflow into stacked cards, each cell introduced by its column's heading: every body cell
 * gets its heading as `data-label` after each render (the headings hidden by `hidden` give none),
 * and the table's roles are written out so a table drawn as blocks stays a table to screen readers.
 */
export function IndexTable({ label, headings, children }: IndexTableProps) {
  const table = useRef<HTMLTableElement>(null);
  useLayoutEffect(() => {
    for (const row of table.current?.tBodies[0]?.rows ?? []) {
      row.setAttribute('role', 'row');
      for (const [index, cell] of [...row.cells].entries()) {
        cell.setAttribute('role', 'cell');
        const heading = headings[index];
        if (heading && !heading.hidden && cell.colSpan === 1) cell.dataset.label = heading.title;
        else delete cell.dataset.label;
      }
    }
  });
  return (
    <div className="index-table__scroll">
      <table ref={table} className="index-table" aria-label={label} role="table">
        <thead role="rowgroup">
          <tr role="row">
            {headings.map((heading) => (
              <th
                key={heading.title}
                scope="col"
                role="columnheader"
                className={heading.align === 'end' ? 'index-table__cell--end' : undefined}
              >
                {heading.hidden ? <span className="visually-hidden">{heading.title}</span> : heading.title}
              </th>
            ))}
          </tr>
        </thead>
        <tbody role="rowgroup">{children}</tbody>
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
