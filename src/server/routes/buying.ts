/**
 * Buying: a buyer's wish list and bookings (orders). The server fills every field it knows
 * (the buyer's name and e-mail, the phone's name, photo and resale price) from its records.
 */
import { and, eq } from 'drizzle-orm';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { calls, errorSchema } from '../../shared/api';
import { TEXT } from '../../shared/texts';
import { orders, wishListItems } from '../db/schema';
import { assertOwner, callerOf } from '../plugins/auth';
import { listOrders, listWishList, toOrder } from '../repositories/buying';
import { findProduct } from '../repositories/products';
import { setNextLink } from './next-link';

const errors = {
  400: errorSchema,
  401: errorSchema,
  403: errorSchema,
  404: errorSchema,
  409: errorSchema,
};
const security = [{ bearer: [] }];

const buying: FastifyPluginAsyncZod = async (app) => {
  /** Buyers (user accounts) only: sellers sell. */
  const requireBuyer = async (request: Parameters<typeof callerOf>[0]) => {
    if (callerOf(request).type !== 'user')
      throw app.httpErrors.forbidden('Only a buyer may do this');
  };
  const buyer = [app.authenticate, requireBuyer];

  app.get(
    calls.wishList.path,
    {
      preHandler: [app.authenticate],
      schema: {
        tags: ['buying'],
        security,
        querystring: calls.wishList.query,
        response: { 200: calls.wishList.response, ...errors },
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
        response: { 200: calls.addToWishList.response, ...errors },
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
        response: { 200: calls.removeFromWishList.response, ...errors },
      },
    },
    async (request) => {
      const deleted = await app.db
        .delete(wishListItems)
        .where(
          and(
            eq(wishListItems.id, request.params.id),
            eq(wishListItems.email, callerOf(request).email),
          ),
        )
        .returning({ id: wishListItems.id });
      if (deleted.length === 0) throw app.httpErrors.notFound('No such item in your wish list');
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
        response: { 200: calls.myOrders.response, ...errors },
      },
    },
    async (request, reply) => {
      assertOwner(request, request.query.email);
      const page = await listOrders(app.db, request.query.email, request.query);
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
        response: { 200: calls.book.response, ...errors },
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
          email: caller.email,
          userName: caller.name,
          productId: product.id,
          productName: product.modelName,
          image: product.image,
          priceCents: product.resellPriceCents,
          location: request.body.location,
          number: request.body.number,
        })
        .onConflictDoNothing({ target: [orders.email, orders.productId] })
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
        response: { 200: calls.deleteOrder.response, ...errors },
      },
    },
    async (request) => {
      const [order] = await app.db
        .select()
        .from(orders)
        .where(eq(orders.id, request.query.id))
        .limit(1);
      if (!order) throw app.httpErrors.notFound('No such order');
      assertOwner(request, order.email);
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
        response: { 200: calls.paymentOrder.response, ...errors },
      },
    },
    async (request) => {
      const [order] = await app.db
        .select()
        .from(orders)
        .where(eq(orders.id, request.params.id))
        .limit(1);
      if (!order) throw app.httpErrors.notFound('No such order');
      assertOwner(request, order.email);
      return toOrder(order);
    },
  );
};

export default buying;
