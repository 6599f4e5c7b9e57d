import { cell, DataTable } from '@client/components/ui/data-table';
import { storageLabel } from '@client/lib/format';
import type { WhatSells } from '@shared/entities';
import { WHAT_SELLS_TEXT as T } from '../what-sells-texts';
import { ViewsAndSalesChart } from './views-and-sales-chart';

type Listing = WhatSells['listings'][number];

/**
 * A listing's figures on My Products (issue 35): views, wish lists, questions, bookings and days
 * listed, as one line of words under its name, so they read the same in the table and in the
 * cards a phone's screen shows, and the spec's columns stay as they are.
 */
export function ListingFigures({ figures }: { figures: Listing | undefined }) {
  if (!figures) return null;
  return (
    <ul
      aria-label={T.figures}
      className="mt-1 flex flex-wrap gap-x-3 gap-y-0.5 text-sm font-normal text-base-content/80"
    >
      <li>{T.viewsOf(figures.views)}</li>
      <li>{T.wishListsOf(figures.wishLists)}</li>
      <li>{T.questionsOf(figures.questions)}</li>
      <li>{T.bookingsOf(figures.bookings)}</li>
      <li>{T.daysListedOf(figures.daysListed)}</li>
    </ul>
  );
}

/**
 * What sells, under My Products' table (issue 35): per model the seller lists, the market's
 * median days to sell and the median price of those sold within a week ("not enough sales yet"
 * below the price guide's minimums); then the seller's views and sales by week.
 */
export function WhatSellsSection({ data }: { data: WhatSells }) {
  const columns = T.modelColumns(data.quickDays);
  return (
    <section aria-labelledby="what-sells-heading" className="mt-10 space-y-6">
      <div className="space-y-1">
        <h2 id="what-sells-heading" className="text-2xl font-bold">
          {T.heading}
        </h2>
        <p className="text-base-content/80">{T.intro(data.days)}</p>
      </div>
      {data.models.length > 0 && (
        <section aria-labelledby="what-sells-models" className="space-y-2">
          <h3 id="what-sells-models" className="text-lg font-semibold">
            {T.modelsHeading}
          </h3>
          <DataTable columns={columns}>
            {data.models.map((m) => (
              <tr key={`${m.modelName}|${m.storage}`}>
                <th scope="row" {...cell(columns[0], 'title')}>
                  {m.modelName}
                </th>
                <td {...cell(columns[1])}>{storageLabel(m.storage)}</td>
                <td {...cell(columns[2])}>
                  {m.medianDaysToSell === null ? T.notEnough : T.days(m.medianDaysToSell)}
                </td>
                <td {...cell(columns[3])}>
                  {m.quickSalePrice === null ? T.notEnough : T.price(m.quickSalePrice)}
                </td>
              </tr>
            ))}
          </DataTable>
        </section>
      )}
      <section aria-labelledby="what-sells-weeks" className="space-y-2">
        <h3 id="what-sells-weeks" className="text-lg font-semibold">
          {T.weeksHeading}
        </h3>
        <ViewsAndSalesChart weeks={data.weeks} />
      </section>
    </section>
  );
}
