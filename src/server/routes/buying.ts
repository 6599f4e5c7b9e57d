/**
 * Buying: a buyer's wish list and bookings (orders). The server fills every field it knows
 * (the buyer's name and e-mail, the phone's name, photo and resale price) from its records.
 */
import { and, eq } from 'drizzle-orm';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { calls } from '../../shared/api';
import { TEXT } from '../../shared/texts';
import { orders, wishListItems } from '../db/schema';
import { assertOwner, callerOf } from '../plugins/auth';
import { listOrders, listWishList, toOrder } from '../repositories/buying';
import { findProduct } from '../repositories/products';
import { errorResponses } from './error-responses';
import { setNextLink } from './next-link';
import { ownOrder } from './own-order';

const security = [{ bearer: [] }];

const buying: FastifyPluginAsyncZod = async (app) => {
  const buyer = [app.authenticate, app.requireBuyer];

  app.get(
    calls.wishList.path,
    {
      preHandler: [app.authenticate],
      schema: {
        tags: ['buying'],
        security,
        querystring: calls.wishList.query,
        response: { 200: calls.wishList.response, ...errorResponses },
      },
    },
    async (request) => {
      assertOwner(request, request.query.email);
      return listWishList(app.db, request.query.email);
    },
  );

  app.post(
    calls.addToWishList.path,
    {
      preHandler: buyer,
      schema: {
        tags: ['buying'],
        security,
        body: calls.addToWishList.body,
        response: { 200: calls.addToWishList.response, ...errorResponses },
      },
    },
    async (request) => {
      const product = await findProduct(app.db, request.body.productId);
      if (!product) throw app.httpErrors.notFound('No such product');
      const inserted = await app.db
        .insert(wishListItems)
        .values({ email: callerOf(request).email, productId: product.id })
        .onConflictDoNothing()
        .returning({ id: wishListItems.id });
      return inserted.length > 0
        ? { acknowledged: true }
        : { acknowledged: false, message: 'Already Added' };
    },
  );

  app.delete(
    calls.removeFromWishList.path,
    {
      preHandler: [app.authenticate],
      schema: {
        tags: ['buying'],
        security,
        params: calls.removeFromWishList.params,
        response: { 200: calls.removeFromWishList.response, ...errorResponses },
      },
    },
    async (request) => {
      const [item] = await app.db
        .select({ email: wishListItems.email })
        .from(wishListItems)
        .where(eq(wishListItems.id, request.params.id))
        .limit(1);
      if (!item) throw app.httpErrors.notFound('No such item in your wish list');
      assertOwner(request, item.email);
      const deleted = await app.db
        .delete(wishListItems)
        .where(eq(wishListItems.id, request.params.id))
        .returning({ id: wishListItems.id });
      return { deletedCount: deleted.length };
    },
  );

  app.get(
    calls.myOrders.path,
    {
      preHandler: [app.authenticate],
      schema: {
        tags: ['buying'],
        security,
        querystring: calls.myOrders.query,
        response: { 200: calls.myOrders.response, ...errorResponses },
      },
    },
    async (request, reply) => {
      const caller = assertOwner(request, request.query.email);
      const page = await listOrders(app.db, caller.id, request.query);
      setNextLink(request, reply, page.nextCursor);
      return page.items;
    },
  );

  app.post(
    calls.book.path,
    {
      preHandler: buyer,
      schema: {
        tags: ['buying'],
        security,
        body: calls.book.body,
        response: { 200: calls.book.response, ...errorResponses },
      },
    },
    async (request) => {
      const caller = callerOf(request);
      const product = await findProduct(app.db, request.body.productId);
      if (!product) throw app.httpErrors.notFound('No such product');
      if (product.sellerEmail === caller.email)
        throw app.httpErrors.forbidden('You cannot book your own phone');
      if (product.status === 'sold') throw app.httpErrors.conflict('This phone is already sold');
      const inserted = await app.db
        .insert(orders)
        .values({
          buyerId: caller.id,
          email: caller.email,
          userName: caller.name,
          productId: product.id,
          productName: product.modelName,
          image: product.image,
          priceCents: product.resellPriceCents,
          location: request.body.location,
          number: request.body.number,
        })
        .onConflictDoNothing({ target: [orders.buyerId, orders.productId] })
        .returning({ id: orders.id });
      if (inserted.length === 0) throw app.httpErrors.conflict(TEXT.toast.alreadyBooked);
      return { acknowledged: true };
    },
  );

  app.delete(
    calls.deleteOrder.path,
    {
      preHandler: [app.authenticate],
      schema: {
        tags: ['buying'],
        security,
        querystring: calls.deleteOrder.query,
        response: { 200: calls.deleteOrder.response, ...errorResponses },
      },
    },
    async (request) => {
      const order = await ownOrder(request, request.query.id);
      if (order.status === 'paid') throw app.httpErrors.conflict('A paid order cannot be deleted');
      const deleted = await app.db
        .delete(orders)
        .where(and(eq(orders.id, order.id), eq(orders.status, 'unpaid')))
        .returning({ id: orders.id });
      return { deletedCount: deleted.length };
    },
  );

  app.get(
    calls.paymentOrder.path,
    {
      preHandler: [app.authenticate],
      schema: {
        tags: ['buying'],
        security,
        params: calls.paymentOrder.params,
        response: { 200: calls.paymentOrder.response, ...errorResponses },
      },
    },
    async (request) => {
      return toOrder(await ownOrder(request, request.params.id));
    },
  );
};

export default buying;
