/**
 * Selling: a seller lists phones, sees and deletes their own, and advertises unsold ones.
 * The server sets who sold it, when, and its status; the body's other fields are not trusted.
 */
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { calls } from '../../shared/api';
import { products } from '../db/schema';
import { IMAGES_URL_PREFIX } from '../images/image-store';
import { assertOwner, callerOf } from '../plugins/auth';
import { toCents } from '../repositories/money';
import {
  advertiseProduct,
  deleteProduct,
  findProduct,
  listSellerProducts,
} from '../repositories/products';
import { errorResponses } from './error-responses';
import { setNextLink } from './next-link';

const OWN_IMAGE = new RegExp(`^${IMAGES_URL_PREFIX}[0-9a-f]{32}-640\\.webp$`);

const productsRoutes: FastifyPluginAsyncZod = async (app) => {
  const imgbbOrigin = app.config.IMGBB_API_KEY
    ? new URL(app.config.IMGBB_IMAGE_ORIGIN).origin
    : null;
  /** Our own image host's default variant, or the configured imgbb host's photos. */
  const issuedByOurHosts = (url: string) => {
    if (OWN_IMAGE.test(url)) return true;
    if (!imgbbOrigin) return false;
    try {
      return new URL(url).origin === imgbbOrigin;
    } catch {
      return false;
    }
  };

  app.post(
    calls.addProduct.path,
    {
      preHandler: [app.authenticate, app.requireSeller],
      schema: {
        tags: ['products'],
        security: [{ bearer: [] }],
        body: calls.addProduct.body,
        response: { 200: calls.addProduct.response, ...errorResponses },
      },
    },
    async (request, reply) => {
      const seller = callerOf(request);
      const p = request.body;
      if (!issuedByOurHosts(p.image)) {
        return reply
          .code(400)
          .send({ message: 'image: upload the photo with the image host first' });
      }
      const [row] = await app.db
        .insert(products)
        .values({
          categoryId: p.categoryId,
          modelName: p.modelName,
          image: p.image,
          originalPriceCents: toCents(p.originalPrice),
          resellPriceCents: toCents(p.resellPrice),
          location: p.location,
          description: p.description,
          timeUsed: p.timeUsed,
          condition: p.condition,
          ram: p.specificatons.ram,
          storage: p.specificatons.storage,
          color: p.specificatons.color,
          battery: p.specificatons.battery,
          sellerName: seller.name,
          sellerNumber: p.sellerNumber,
          sellerEmail: seller.email,
        })
        .returning({ id: products.id });
      if (!row) throw app.httpErrors.internalServerError();
      return { acknowledged: true, insertedId: row.id };
    },
  );

  app.get(
    calls.myProducts.path,
    {
      preHandler: [app.authenticate],
      schema: {
        tags: ['products'],
        security: [{ bearer: [] }],
        querystring: calls.myProducts.query,
        response: { 200: calls.myProducts.response, ...errorResponses },
      },
    },
    async (request, reply) => {
      assertOwner(request, request.query.email);
      const page = await listSellerProducts(app.db, request.query.email, request.query);
      setNextLink(request, reply, page.nextCursor);
      return page.items;
    },
  );

  app.delete(
    calls.deleteProduct.path,
    {
      preHandler: [app.authenticate],
      schema: {
        tags: ['products'],
        security: [{ bearer: [] }],
        querystring: calls.deleteProduct.query,
        response: { 200: calls.deleteProduct.response, ...errorResponses },
      },
    },
    async (request) => {
      const product = await findProduct(app.db, request.query.id);
      if (!product) throw app.httpErrors.notFound('No such product');
      const caller = callerOf(request);
      if (product.sellerEmail !== caller.email && !caller.isAdmin) {
        throw app.httpErrors.forbidden('You may only delete your own products');
      }
      return { deletedCount: await deleteProduct(app.db, product.id) };
    },
  );

  app.post(
    calls.advertise.path,
    {
      preHandler: [app.authenticate, app.requireSeller],
      schema: {
        tags: ['products'],
        security: [{ bearer: [] }],
        querystring: calls.advertise.query,
        response: { 200: calls.advertise.response, ...errorResponses },
      },
    },
    async (request) => {
      const product = await findProduct(app.db, request.query.id);
      if (!product) throw app.httpErrors.notFound('No such product');
      if (product.sellerEmail !== callerOf(request).email) {
        throw app.httpErrors.forbidden('You may only advertise your own products');
      }
      if (product.status === 'sold')
        throw app.httpErrors.conflict('A sold product cannot be advertised');
      const advertised = await advertiseProduct(app.db, product.id);
      return advertised
        ? { acknowledged: true }
        : { acknowledged: false, message: 'Product is already advertised' };
    },
  );
};

export default productsRoutes;
