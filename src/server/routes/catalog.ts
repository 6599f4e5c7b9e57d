/** The public catalog: categories, a category's products, advertised products. */
import { asc } from 'drizzle-orm';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { calls, errorSchema } from '../../shared/api';
import { categories } from '../db/schema';
import type { Page } from '../repositories/page';
import { listAdvertised, listCategoryProducts } from '../repositories/products';
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
): Promise<void> {
  const key = JSON.stringify([request.routeOptions.url, request.params, request.query]);
  const answer = await request.server.publicAnswers.get(key, async () => {
    const page = await read();
    return { body: reply.serialize(page.items) as string, nextCursor: page.nextCursor };
  });
  setNextLink(request, reply, answer.nextCursor);
  reply.type('application/json; charset=utf-8').send(answer.body);
}

const catalog: FastifyPluginAsyncZod = async (app) => {
  app.get(
    calls.listCategories.path,
    { schema: { tags: ['catalog'], response: { 200: calls.listCategories.response } } },
    async (request, reply) => {
      await sendPublic(request, reply, async () => {
        const rows = await app.db.select().from(categories).orderBy(asc(categories.categoryId));
        const items = rows.map((c) => ({ _id: c.id, name: c.name, categoryId: c.categoryId }));
        return { items, nextCursor: null };
      });
      return reply;
    },
  );

  app.get(
    calls.categoryProducts.path,
    {
      schema: {
        tags: ['catalog'],
        params: calls.categoryProducts.params,
        querystring: calls.categoryProducts.query,
        response: { 200: calls.categoryProducts.response, 400: errorSchema },
      },
    },
    async (request, reply) => {
      await sendPublic(request, reply, () =>
        listCategoryProducts(app.db, request.params.id, request.query),
      );
      return reply;
    },
  );

  app.get(
    calls.listAdvertised.path,
    {
      schema: {
        tags: ['catalog'],
        querystring: calls.listAdvertised.query,
        response: { 200: calls.listAdvertised.response, 400: errorSchema },
      },
    },
    async (request, reply) => {
      await sendPublic(request, reply, () => listAdvertised(app.db, request.query));
      return reply;
    },
  );
};

export default catalog;
