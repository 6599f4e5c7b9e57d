/** The public catalog: categories, a category's products, advertised products. */
import type { FastifyReply, FastifyRequest } from 'fastify';
import { listCategories } from '../repositories/catalog';
import type { Page } from '../repositories/page';
import { listAdvertised, listCategoryProducts } from '../repositories/products';
import { contractRoutes } from './contract-routes';
import { setNextLink } from './next-link';

/**
 * Answers from the public-answer cache (decision 015), keyed by the route and its parsed params
 * and query, all an answer depends on (unknown query keys are dropped by parsing, so they do not
 * make new entries). On a miss, `read` runs and its items go through the route's response
 * schema, as any answer does; a hit sends those same bytes.
 */
async function sendPublic(
  request: FastifyRequest,
  reply: FastifyReply,
  read: () => Promise<Page<unknown>>,
): Promise<FastifyReply> {
  const key = JSON.stringify([request.routeOptions.url, request.params, request.query]);
  const answer = await request.server.publicAnswers.get(key, async () => {
    const page = await read();
    return { body: reply.serialize(page.items) as string, nextCursor: page.nextCursor };
  });
  setNextLink(request, reply, answer.nextCursor);
  return reply.type('application/json; charset=utf-8').send(answer.body);
}

export default contractRoutes((route, app) => {
  route('listCategories', (request, reply) =>
    sendPublic(request, reply, async () => ({
      items: await listCategories(app.db),
      nextCursor: null,
    })),
  );

  route('categoryProducts', (request, reply) =>
    sendPublic(request, reply, () =>
      listCategoryProducts(app.db, request.params.id, request.query),
    ),
  );

  route('listAdvertised', (request, reply) =>
    sendPublic(request, reply, () => listAdvertised(app.db, request.query)),
  );
});
