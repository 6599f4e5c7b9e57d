import { readDollars } from '@shared/listing-input';
import type { UseFormReturn } from 'react-hook-form';
import { PriceGuide } from './price-guide';
import type { ProductFormValues } from './product-form';

/**
 * The fair-price guide (helper C's `PriceGuide`) beside the listing form's prices: the model,
 * storage and condition the seller chose, and their resale price once it can be read.
 */
export function ListingPriceGuide({ form }: { form: UseFormReturn<ProductFormValues> }) {
  const [modelName, storage, condition, resellPrice] = form.watch([
    'modelName',
    'storage',
    'condition',
    'resellPrice',
  ]);
  const price = readDollars('resellPrice', resellPrice ?? '');
  return (
    <PriceGuide
      modelName={modelName ?? ''}
      storage={storage ?? ''}
      {...(condition ? { condition } : {})}
      {...(price.ok ? { price: price.value } : {})}
    />
  );
}
