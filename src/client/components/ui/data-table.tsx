import type { ReactNode } from 'react';

/** A dashboard table: column headings, then the rows the page renders. Scrolls sideways on phones. */
export function DataTable({
  columns,
  children,
}: {
  columns: readonly string[];
  children: ReactNode;
}) {
  return (
    <div className="overflow-x-auto rounded-box ring-1 ring-base-300">
      <table className="table">
        <thead>
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

/** 'Delete', named for assistive technology by what it deletes. */
export function DeleteButton({ what, onClick }: { what: string; onClick: () => void }) {
  return (
    <button type="button" className="btn btn-error btn-sm" onClick={onClick}>
      Delete<span className="sr-only"> {what}</span>
    </button>
  );
}
