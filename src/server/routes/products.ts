/**
 * Selling: a seller lists phones, sees and deletes their own, and advertises unsold ones.
 * The server sets who sold it, when, and its status; the body's other fields are not trusted.
 */
import { DomainError } from '../domain/domain-error';
import { advertise, withdraw } from '../domain/order-process';
import { IMAGES_URL_PREFIX } from '../images/image-store';
import { assertOwner, callerOf } from '../plugins/auth';
import { insertProduct, listSellerProducts } from '../repositories/products';
import { contractRoutes, pageAnswer } from './contract-routes';

const OWN_IMAGE = new RegExp(`^${IMAGES_URL_PREFIX}[0-9a-f]{32}-640\\.webp$`);

export default contractRoutes((route, app) => {
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

  route('addProduct', async (request) => {
    if (!issuedByOurHosts(request.body.image))
      throw DomainError.badRequest('image: upload the photo with the image host first');
    const insertedId = await insertProduct(app.db, request.body, callerOf(request));
    return { acknowledged: true, insertedId };
  });

  route('myProducts', async (request, reply) => {
    assertOwner(request, request.query.email);
    return pageAnswer(
      request,
      reply,
      await listSellerProducts(app.db, request.query.email, request.query),
    );
  });

  route('deleteProduct', async (request) => ({
    deletedCount: await withdraw(app.db, callerOf(request), request.query.id),
  }));

  route('advertise', async (request) =>
    (await advertise(app.db, callerOf(request), request.query.id))
      ? { acknowledged: true }
      : { acknowledged: false, message: 'Product is already advertised' },
  );
});
