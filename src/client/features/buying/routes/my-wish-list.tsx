import { DashboardPage } from '@client/components/layout/dashboard-page';
import { ConfirmDialog } from '@client/components/ui/confirm-dialog';
import { useAuth } from '@client/lib/auth/use-auth';
import { formatDollars } from '@client/lib/format';
import { srcSetOf } from '@shared/images';
import { TEXT } from '@shared/texts';
import { useQuery } from '@tanstack/react-query';
import { Link } from 'react-router';
import { removeFromWishList, wishListQueryOptions } from '../api/wish-list';
import { useConfirmedDelete } from '../use-confirmed-delete';

/** My WishList (titled 'My WishLisht'): image, product name, price, Book Now, delete. */
export function MyWishListRoute() {
  const { user } = useAuth();
  const email = user?.email ?? '';
  const { data: items, isPending } = useQuery(wishListQueryOptions(email));
  const deletion = useConfirmedDelete(
    removeFromWishList,
    ['wishlist', email],
    TEXT.toast.wishListDeleted,
  );

  return (
    <DashboardPage title={TEXT.dashboard.myWishListTitle}>
      {isPending ? (
        <span
          className="loading loading-spinner"
          role="status"
          aria-label="Loading your wish list"
        />
      ) : !items?.length ? (
        <p>Your wish list is empty.</p>
      ) : (
        <div className="overflow-x-auto rounded-box ring-1 ring-base-300">
          <table className="table">
            <thead>
              <tr>
                <th scope="col">Image</th>
                <th scope="col">Product Name</th>
                <th scope="col">Price</th>
                <th scope="col">{TEXT.product.bookNow}</th>
                <th scope="col">Delete</th>
              </tr>
            </thead>
            <tbody>
              {items.map((item) => (
                <tr key={item._id}>
                  <td>
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
                  <td>{item.productName}</td>
                  <td>{formatDollars(item.price)}</td>
                  <td>
                    <Link to={`/category/${item.categoryId}`} className="btn btn-primary btn-sm">
                      {TEXT.product.bookNow}
                      <span className="sr-only"> {item.productName}</span>
                    </Link>
                  </td>
                  <td>
                    <button
                      type="button"
                      className="btn btn-error btn-sm"
                      onClick={() => deletion.ask(item._id)}
                    >
                      Delete<span className="sr-only"> {item.productName}</span>
                    </button>
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
      <ConfirmDialog
        open={deletion.pendingId !== null}
        message={TEXT.confirm.delete}
        busy={deletion.busy}
        onCancel={deletion.cancel}
        onConfirm={deletion.confirm}
      />
    </DashboardPage>
  );
}
