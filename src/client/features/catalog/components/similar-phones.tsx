import type { Product } from '@shared/entities';
import { CATALOG_TEXT } from '../texts';
import type { PhoneActions } from '../use-phone-actions';
import { PhoneGrid } from './phone-grid';

/**
 * Phones for sale like the one on the page (issue 33), with the buyer's actions of the page.
 * `instead`: the phone is no longer for sale, so these come first, in its column, and the
 * heading says why. Nothing when there are none.
 */
export function SimilarPhones({
  products,
  actions,
  instead = false,
}: {
  products: readonly Product[];
  actions: PhoneActions;
  instead?: boolean;
}) {
  if (products.length === 0) return null;
  return (
    <section aria-labelledby="similar-heading" className="space-y-4">
      <h2 id="similar-heading" className="text-2xl font-bold">
        {instead ? CATALOG_TEXT.similarInstead : CATALOG_TEXT.similarPhones}
      </h2>
      <PhoneGrid
        products={products}
        actions={actions}
        columns={instead ? 1 : 2}
        eagerFirst={false}
      />
    </section>
  );
}
