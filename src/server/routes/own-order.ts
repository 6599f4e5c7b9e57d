import { eq } from 'drizzle-orm';
import type { FastifyRequest } from 'fastify';
import { orders } from '../db/schema';
import { assertOwner } from '../plugins/auth';

/** The order with this id if the caller placed it: 404 when there is none, 403 when it is another's. */
export async function ownOrder(request: FastifyRequest, id: string) {
  const [order] = await request.server.db.select().from(orders).where(eq(orders.id, id)).limit(1);
  if (!order) throw request.server.httpErrors.notFound('No such order');
  assertOwner(request, order.email);
  return order;
}
