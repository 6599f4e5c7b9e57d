/**
 * The public catalog: categories, a category's products, advertised products, the search, a
 * phone's page with phones like it, and a seller's page with their phones for sale.
 */
import type { FastifyReply, FastifyRequest } from 'fastify';
import { errorSchema } from '../../shared/api';
import type { Db } from '../db/client';
import { DomainError } from '../domain/domain-error';
import { positionOf, readerFor } from '../plugins/read-routing';
import { listCategories } from '../repositories/catalog';
import { listAdvertised, listCategoryProducts } from '../repositories/products';
import { searchProducts } from '../repositories/search';
import { findProductPage, findSellerProfile, listSellerListings } from '../repositories/sellers';
import { findSimilarPhones } from '../repositories/similar';
import { countDataView } from '../views/count-view';
import { contractRoutes } from './contract-routes';
import { setNextLink } from './next-link';

/**
 * What a public read answers: a page of a list, or one thing (`nextCursor` null), read from `db`
 * (the read replica when there is one and it is far enough along, decision 048).
 */
type PublicRead = (db: Db) => Promise<{ items: unknown; nextCursor: string | null }>;

/**
 * Answers from the public-answer cache (decision 015), keyed by the route and its parsed params
 * and query, all an answer depends on (unknown query keys are dropped by parsing, so they do not
 * make new entries). On a miss, `read` runs and its items go through the route's response
 * schema, as any answer does; a hit sends those same bytes. A read that throws (a 404) is not
 * kept, so a phone listed a moment later shows at once. A person who has just written reuses
 * only an answer read at or past their write (plugins/read-routing.ts).
 */
export async function sendPublic(
  request: FastifyRequest,
  reply: FastifyReply,
  read: PublicRead,
): Promise<FastifyReply> {
  const key = JSON.stringify([request.routeOptions.url, request.params, request.query]);
  const answer = await request.server.publicAnswers.getSeeing(key, positionOf(request), () =>
    readerFor(request, async (reader) => {
      const page = await read(reader.db);
      return {
        value: { body: reply.serialize(page.items) as string, nextCursor: page.nextCursor },
        seen: reader.seen,
      };
    }),
  );
  setNextLink(request, reply, answer.nextCursor);
  return reply.type('application/json; charset=utf-8').send(answer.body);
}

export default contractRoutes((route, app) => {
  route('listCategories', (request, reply) =>
    sendPublic(request, reply, async (db) => ({
      items: await listCategories(db),
      nextCursor: null,
    })),
  );

  route('categoryProducts', (request, reply) =>
    sendPublic(request, reply, (db) => listCategoryProducts(db, request.params.id, request.query)),
  );

  route('listAdvertised', (request, reply) =>
    sendPublic(request, reply, (db) => listAdvertised(db, request.query)),
  );

  // A search costs more than a list page: SEARCH_RATE_LIMIT a minute per client address.
  route(
    'searchProducts',
    { limit: { perMinute: app.config.SEARCH_RATE_LIMIT } },
    (request, reply) =>
      sendPublic(request, reply, async (db) => {
        const { nextCursor, ...answer } = await searchProducts(db, request.query, app.searchCounts);
        return { items: answer, nextCursor };
      }),
  );

  // A deleted phone is gone (404); a sold one keeps its page, marked sold. The phone page's own
  // call counts a view (decision 055's addendum) before the kept answer is looked for, so one
  // served from the kept answers counts too; it costs a token's signature check at most.
  route('product', { responses: { 404: errorSchema } }, async (request, reply) => {
    await countDataView(request, request.params.id);
    return sendPublic(request, reply, async (db) => {
      const page = await findProductPage(db, request.params.id);
      if (!page) throw DomainError.notFound('No such phone');
      return { items: page, nextCursor: null };
    });
  });

  // Phones like one (issue 33): a 404 for no such phone, as its page.
  route('similarProducts', { responses: { 404: errorSchema } }, (request, reply) =>
    sendPublic(request, reply, async (db) => {
      const similar = await findSimilarPhones(db, request.params.id);
      if (!similar) throw DomainError.notFound('No such phone');
      return { items: similar, nextCursor: null };
    }),
  );

  route('seller', { responses: { 404: errorSchema } }, (request, reply) =>
    sendPublic(request, reply, async (db) => {
      const profile = await findSellerProfile(db, request.params.id);
      if (!profile) throw DomainError.notFound('No such seller');
      return { items: profile, nextCursor: null };
    }),
  );

  route('sellerListings', { responses: { 404: errorSchema } }, (request, reply) =>
    sendPublic(request, reply, async (db) => {
      const page = await listSellerListings(db, request.params.id, request.query);
      if (!page) throw DomainError.notFound('No such seller');
      return page;
    }),
  );
});
