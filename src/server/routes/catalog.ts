/** The public catalog: categories, a category's products, advertised products. */
import { asc } from 'drizzle-orm';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { calls, errorSchema } from '../../shared/api';
import { categories } from '../db/schema';
import { listAdvertised, listCategoryProducts } from '../repositories/products';
import { setNextLink } from './next-link';

const catalog: FastifyPluginAsyncZod = async (app) => {
  /**
   * The brands are reference data that only a migration changes (decision 004), and migrations
   * run before the server listens: read them once per process, not once per request.
   */
  let brands: Promise<{ _id: string; name: string; categoryId: '01' }[]> | undefined;
  const readBrands = async () => {
    const rows = await app.db.select().from(categories).orderBy(asc(categories.categoryId));
    return rows.map((c) => ({ _id: c.id, name: c.name, categoryId: c.categoryId as '01' }));
  };

  app.get(
    calls.listCategories.path,
    { schema: { tags: ['catalog'], response: { 200: calls.listCategories.response } } },
    () => {
      brands ??= readBrands().catch((err) => {
        brands = undefined; // a failed read is tried again by the next request
        throw err;
      });
      return brands;
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
      const page = await listCategoryProducts(app.db, request.params.id, request.query);
      setNextLink(request, reply, page.nextCursor);
      return page.items;
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
      const page = await listAdvertised(app.db, request.query);
      setNextLink(request, reply, page.nextCursor);
      return page.items;
    },
  );
};

export default catalog;
