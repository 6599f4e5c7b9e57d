import { DashboardPage } from '@client/components/layout/dashboard-page';
import { session } from '@client/lib/auth/session';
import { useAuth } from '@client/lib/auth/use-auth';
import { clientConfigQueryOptions } from '@client/lib/client-config';
import { ensureCurrent } from '@client/lib/ensure-current';
import { toast } from '@client/lib/toast';
import type { OwnProduct } from '@shared/entities';
import { can } from '@shared/order-process';
import { type QueryClient, useSuspenseQuery } from '@tanstack/react-query';
import { data, Link, type LoaderFunctionArgs, useNavigate, useParams } from 'react-router';
import { useUpdateProduct } from '../api/manage-product';
import { myProductQueryOptions } from '../api/product-photos';
import { FeeNote } from '../components/fee-note';
import { ListingPriceGuide } from '../components/listing-price-guide';
import {
  listingFields,
  ProductFields,
  type ProductFormValues,
  tellSaveError,
  useProductForm,
} from '../components/product-form';
import { WaitingBuyers } from '../components/waiting-buyers';
import { SELLING_TEXT } from '../texts';

const MY_PRODUCTS = '/dashboard/myproducts';

/** The phone loads before the page shows; one that is not the seller's is the 404 page. */
export const editProductLoader =
  (queryClient: QueryClient) =>
  async ({ params }: LoaderFunctionArgs) => {
    const user = await session.currentUser();
    // Signed out: the dashboard's own loader sends the visitor to sign in.
    if (!user) return null;
    const [product] = await Promise.all([
      ensureCurrent(queryClient, {
        ...myProductQueryOptions(user.email, params.id ?? ''),
        revalidateIfStale: true,
      }),
      // The fee rule, for what the seller receives of the price (issue 30).
      ensureCurrent(queryClient, clientConfigQueryOptions()),
    ]);
    if (!product) throw data(null, { status: 404 });
    return null;
  };

/** Edit a listed phone (issue 19): the Add A Product form, filled with what is stored. */
export function EditProductRoute() {
  const { user } = useAuth();
  const { id = '' } = useParams();
  const { data: product } = useSuspenseQuery(myProductQueryOptions(user?.email ?? '', id));
  if (!product) return null;
  return (
    <DashboardPage title={SELLING_TEXT.editTitle(product.modelName)}>
      {can('product', product.status, 'edit') ? (
        <EditForm product={product} />
      ) : (
        <div className="space-y-4">
          <p>
            {product.status === 'sold'
              ? SELLING_TEXT.soldCannotEdit
              : SELLING_TEXT.withdrawnCannotEdit}
          </p>
          <Link to={MY_PRODUCTS} className="btn">
            {SELLING_TEXT.back}
          </Link>
        </div>
      )}
    </DashboardPage>
  );
}

/** The form's values of a stored phone, as the seller sees them (normalised). */
const valuesOf = (p: OwnProduct): ProductFormValues => ({
  categoryId: p.categoryId,
  modelName: p.modelName,
  ram: p.specificatons.ram,
  storage: p.specificatons.storage,
  color: p.specificatons.color,
  battery: String(p.specificatons.battery),
  batteryHealth: p.batteryHealth === null ? '' : String(p.batteryHealth),
  resellPrice: String(p.resellPrice),
  originalPrice: String(p.originalPrice),
  timeUsed: String(p.timeUsed),
  condition: p.condition,
  name: p.sellerName,
  number: p.sellerNumber,
  location: p.location,
  imei: '',
  photos: { items: [], refused: false },
  description: p.description,
});

function EditForm({ product }: { product: OwnProduct }) {
  const navigate = useNavigate();
  const form = useProductForm(valuesOf(product));
  const update = useUpdateProduct();
  const {
    handleSubmit,
    setError,
    formState: { isSubmitting },
  } = form;

  const onSubmit = async (v: ProductFormValues) => {
    try {
      await update.mutateAsync({ id: product._id, edit: listingFields(v) });
      toast.success(SELLING_TEXT.changesSaved);
      navigate(MY_PRODUCTS);
    } catch (error) {
      tellSaveError(error, setError, (name) => name !== 'imei', 'The changes could not be saved.');
    }
  };

  return (
    <form
      onSubmit={handleSubmit(onSubmit)}
      noValidate
      className="grid grid-cols-1 gap-x-6 md:grid-cols-2"
    >
      <ProductFields
        form={form}
        imei={{ ask: false, last4: product.imei ? product.imei.slice(-4) : null }}
        submitLabel={SELLING_TEXT.saveChanges}
        busy={isSubmitting}
        priceGuide={<ListingPriceGuide form={form} />}
        priceNote={
          <>
            <FeeNote form={form} />
            <WaitingBuyers form={form} productId={product._id} />
          </>
        }
        photos={
          <div className="fieldset">
            <span className="fieldset-legend">{SELLING_TEXT.photosLabel}</span>
            <Link to={`${MY_PRODUCTS}/${product._id}/photos`} className="link">
              {SELLING_TEXT.editPhotos}
            </Link>
          </div>
        }
      />
      <div className="mt-2 md:col-span-2">
        <Link to={MY_PRODUCTS} className="link">
          {SELLING_TEXT.back}
        </Link>
      </div>
    </form>
  );
}
