import { cell, DataTable } from '@client/components/ui/data-table';
import { ShowMore } from '@client/components/ui/show-more';
import { formatDateTime } from '@client/lib/format';
import { useSuspenseInfiniteQuery } from '@tanstack/react-query';
import { reviewRecordsQueryOptions } from '../api/review';
import { REVIEW_TEXT } from '../texts';

const T = REVIEW_TEXT;
const COLUMN = T.column;

/** Every decision of the review queue, newest first: when, who, what, on what, and the note. */
export function ReviewDecisions() {
  const query = useSuspenseInfiniteQuery(reviewRecordsQueryOptions());
  const records = query.data.pages.flatMap((p) => p.data);
  if (records.length === 0) return <p>{T.noRecords}</p>;
  return (
    <>
      <DataTable columns={[COLUMN.on, COLUMN.what, COLUMN.who, COLUMN.when, COLUMN.note]}>
        {records.map((r) => (
          <tr key={r._id}>
            <th scope="row" {...cell(COLUMN.on, 'title')}>
              {T.recordTarget[r.target]}: {r.subject}
            </th>
            <td {...cell(COLUMN.what)}>{T.recordAction[r.action]}</td>
            <td {...cell(COLUMN.who)}>{r.adminName}</td>
            <td {...cell(COLUMN.when)}>
              <time dateTime={r.at}>{formatDateTime(r.at)}</time>
            </td>
            <td {...cell(COLUMN.note)} className="break-words whitespace-pre-wrap">
              {r.note}
            </td>
          </tr>
        ))}
      </DataTable>
      <ShowMore query={query} />
    </>
  );
}
