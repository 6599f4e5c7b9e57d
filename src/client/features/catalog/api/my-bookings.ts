import { call } from '@client/lib/api-client';
import { queryRoots } from '@client/lib/query-keys';
import { queryOptions } from '@tanstack/react-query';

/**
 * The signed-in buyer's live orders (booked or paid), so the catalog marks their phones "Booked
 * by you". Under the orders root: booking, paying and deleting an order refresh it.
 */
export const myBookingsQueryOptions = (email: string) =>
  queryOptions({
    queryKey: [...queryRoots.orders, 'bookings', email],
    queryFn: () => call('myBookings'),
  });
