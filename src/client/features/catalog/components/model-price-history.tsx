import { PriceHistory } from '@client/components/ui/price-history';
import { priceHistoryQueryOptions } from '@client/lib/price-history';
import type { Product } from '@shared/entities';
import { useQuery } from '@tanstack/react-query';
import { CATALOG_TEXT } from '../texts';

/**
 * What a phone's page asks of the price history (issue 33): its model, storage and condition,
 * and its price while it is for sale (a sold phone's price is judged by no note either).
 */
export const priceHistoryQuestionOf = (product: Product) => ({
  modelName: product.modelName,
  storage: product.specificatons.storage,
  condition: product.condition,
  ...(product.status === 'available' ? { price: product.resellPrice } : {}),
});

/**
 * The model's price history on a phone's page, from the answer the loader put in the cache (so
 * the server renders it); nothing while there are too few sales or if it could not be read.
 */
export function ModelPriceHistory({ product }: { product: Product }) {
  const question = priceHistoryQuestionOf(product);
  const { data } = useQuery(priceHistoryQueryOptions(question));
  if (!data || (data.count === 0 && !data.typical)) return null;
  return (
    <div className="card bg-base-100 shadow-sm ring-1 ring-base-300">
      <div className="card-body gap-2 p-4">
        <PriceHistory history={data} price={question.price} priceLabel={CATALOG_TEXT.thisPhone} />
      </div>
    </div>
  );
}
