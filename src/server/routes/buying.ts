/**
 * Buying: a buyer's wish list and bookings (orders). The server fills every field it knows
 * (the buyer's name and e-mail, the phone's name, photo and resale price) from its records.
 */
import { DomainError } from '../domain/domain-error';
import { book, cancelOrder, ownOrder } from '../domain/order-process';
import { assertOwner, callerOf } from '../plugins/auth';
import { readFor } from '../plugins/read-routing';
import {
  addWishListItem,
  findWishListItem,
  listOrders,
  listWishList,
  removeWishListItem,
  toOrder,
} from '../repositories/buying';
import { findProduct } from '../repositories/products';
import { noteSeen } from '../repositories/trust';
import { seenFrom } from '../trust/devices';
import { contractRoutes, pageAnswer } from './contract-routes';

/**
 * Bookings and their deletes a buyer makes in a minute (decision 037): each tells the seller, so
 * a loop of them is a flood; a shopper books a few phones at most in a minute.
 */
const BOOKINGS = { limit: { perMinute: 10 } };

export default contractRoutes((route, app) => {
  route('wishList', async (request) => {
    assertOwner(request, request.query.email);
    // A person's own lists read the replica once it has their writes (decision 048).
    return readFor(request, (db) => listWishList(db, request.query.email));
  });

  route('addToWishList', async (request) => {
    const product = await findProduct(app.db, request.body.productId);
    // A phone held for review (issue 34) is no phone to a buyer.
    if (!product || product.status === 'held') throw DomainError.notFound('No such product');
    return (await addWishListItem(app.db, callerOf(request).email, product.id))
      ? { acknowledged: true }
      : { acknowledged: false, message: 'Already Added' };
  });

  route('removeFromWishList', async (request) => {
    const item = await findWishListItem(app.db, request.params.id);
    if (!item) throw DomainError.notFound('No such item in your wish list');
    assertOwner(request, item.email);
    return { deletedCount: await removeWishListItem(app.db, item.id) };
  });

  route('myOrders', async (request, reply) => {
    const caller = assertOwner(request, request.query.email);
    return pageAnswer(
      request,
      reply,
      await readFor(request, (db) => listOrders(db, caller.id, request.query)),
    );
  });

  route('book', BOOKINGS, async (request, reply) => {
    const caller = callerOf(request);
    const insertedId = await book(app.db, caller, request.body);
    // Where and on what the buyer booked: a sale to oneself (decision 038), a banned person (052).
    await noteSeen(app.db, caller.id, seenFrom(request, reply));
    return { acknowledged: true, insertedId };
  });

  route('deleteOrder', BOOKINGS, async (request) => ({
    deletedCount: await cancelOrder(app.db, callerOf(request), request.query.id),
  }));

  route('paymentOrder', async (request) => {
    const order = await ownOrder(app.db, callerOf(request), request.params.id);
    return toOrder(order, (await findProduct(app.db, order.productId))?.status);
  });
});
