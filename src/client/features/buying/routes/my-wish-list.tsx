import { DashboardPage } from '@client/components/layout/dashboard-page';
import { ConfirmDialog } from '@client/components/ui/confirm-dialog';
import { cell, DataTable, DeleteButton } from '@client/components/ui/data-table';
import { session } from '@client/lib/auth/session';
import { useAuth } from '@client/lib/auth/use-auth';
import { ensureCurrent } from '@client/lib/ensure-current';
import { deleteFeedback } from '@client/lib/feedback';
import { formatDollars } from '@client/lib/format';
import { useConfirmedAction } from '@client/lib/use-confirmed-action';
import { srcSetOf } from '@shared/images';
import { TEXT } from '@shared/texts';
import { type QueryClient, useSuspenseQuery } from '@tanstack/react-query';
import { Link } from 'react-router';
import { useRemoveFromWishList, wishListQueryOptions } from '../api/wish-list';

const COLUMN = {
  image: 'Image',
  name: 'Product Name',
  price: 'Price',
  book: TEXT.product.bookNow,
  delete: 'Delete',
} as const;
const WISH_LIST_COLUMNS = Object.values(COLUMN);

export const myWishListLoader = (queryClient: QueryClient) => async () => {
  const user = await session.currentUser();
  // Signed out: the dashboard's own loader sends the visitor to sign in.
  if (user) await ensureCurrent(queryClient, wishListQueryOptions(user.email));
  return null;
};

/** My WishList (titled 'My WishLisht'): image, product name, price, Book Now, delete. */
export function MyWishListRoute() {
  const { user } = useAuth();
  const email = user?.email ?? '';
  const { data: items } = useSuspenseQuery(wishListQueryOptions(email));
  const deletion = useConfirmedAction(
    useRemoveFromWishList(email, deleteFeedback(TEXT.toast.wishListDeleted)),
    TEXT.confirm.delete,
  );

  return (
    <DashboardPage title={TEXT.dashboard.myWishListTitle}>
      {items.length === 0 ? (
        <p>
          Your wish list is empty.{' '}
          <Link to="/" className="link link-primary">
            Browse phones
          </Link>{' '}
          and choose Add to Wish List on one you like.
        </p>
      ) : (
        <DataTable columns={WISH_LIST_COLUMNS}>
          {items.map((item) => (
            <tr key={item._id}>
              <td {...cell(COLUMN.image)}>
                <img
                  src={item.image}
                  srcSet={srcSetOf(item.image)}
                  sizes="64px"
                  alt={item.productName}
                  width={64}
                  height={48}
                  className="rounded"
                />
              </td>
              <td {...cell(COLUMN.name, 'title')}>
                <Link to={`/product/${item.productId}`} className="link link-hover">
                  {item.productName}
                </Link>
              </td>
              <td {...cell(COLUMN.price)}>{formatDollars(item.price)}</td>
              <td {...cell(COLUMN.book, 'action')}>
                <Link to={`/category/${item.categoryId}`} className="btn btn-primary btn-sm">
                  {TEXT.product.bookNow}
                  <span className="sr-only"> {item.productName}</span>
                </Link>
              </td>
              <td {...cell(COLUMN.delete, 'action')}>
                <DeleteButton what={item.productName} onClick={() => deletion.ask(item._id)} />
              </td>
            </tr>
          ))}
        </DataTable>
      )}
      <ConfirmDialog {...deletion.dialog} />
    </DashboardPage>
  );
}
