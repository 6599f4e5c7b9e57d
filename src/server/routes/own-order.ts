import { eq } from 'drizzle-orm';
import type { FastifyRequest } from 'fastify';
import { orders } from '../db/schema';
import { callerOf } from '../plugins/auth';

/**
 * The order with this id if the caller's account placed it: 404 when there is none, 403 when it
 * is another's (an earlier account of the same address included).
 */
export async function ownOrder(request: FastifyRequest, id: string) {
  const [order] = await request.server.db.select().from(orders).where(eq(orders.id, id)).limit(1);
  if (!order) throw request.server.httpErrors.notFound('No such order');
  if (order.buyerId !== callerOf(request).id)
    throw request.server.httpErrors.forbidden('You may only act on your own account');
  return order;
}
