import type { ReactNode } from 'react';

/**
 * A dashboard table: column headings, then the rows the page renders. On a phone each row
 * restyles into a card (styles.css, `.stacked-table`): one DOM, still a table to assistive
 * technology and to role-based locators, with no button rendered twice. Each cell says its
 * column in `data-label` (see `cell`), the row's name is `data-cell="title"` and its buttons
 * `data-cell="action"`, which the card shows first, in their order.
 */
export function DataTable({
  columns,
  children,
  label,
}: {
  columns: readonly string[];
  children: ReactNode;
  /** The table's name, where a page holds more than one (My Products and its What sells). */
  label?: string;
}) {
  return (
    <div className="md:overflow-x-auto md:rounded-box md:ring-1 md:ring-base-300">
      <table className="stacked-table table" aria-label={label}>
        <thead className="text-base-content/80">
          <tr>
            {columns.map((c) => (
              <th key={c} scope="col">
                {c}
              </th>
            ))}
          </tr>
        </thead>
        <tbody>{children}</tbody>
      </table>
    </div>
  );
}

/** The attributes a cell of `column` carries; `kind` marks the row's name or its buttons. */
export const cell = (column: string, kind?: 'title' | 'action') => ({
  'data-label': column,
  ...(kind ? { 'data-cell': kind } : {}),
});

/** 'Delete', named for assistive technology by what it deletes. */
export function DeleteButton({ what, onClick }: { what: string; onClick: () => void }) {
  return (
    <button type="button" className="btn btn-error btn-sm" onClick={onClick}>
      Delete<span className="sr-only"> {what}</span>
    </button>
  );
}
