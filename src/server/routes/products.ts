/**
 * Selling: a seller lists phones, sees and deletes their own, advertises unsold ones (and stops)
 * and sets their photos; edits, withdraws and relists them (issue 19).
 * The server sets who sold it, when, and its status; the body's other fields are not trusted.
 */
import { DomainError } from '../domain/domain-error';
import {
  advertise,
  deleteListing,
  editListing,
  listPhone,
  relistListing,
  setPhotos,
  stopAdvertising,
  withdrawListing,
} from '../domain/order-process';
import { IMAGES_URL_PREFIX } from '../images/image-store';
import { assertOwner, callerOf } from '../plugins/auth';
import { readFor } from '../plugins/read-routing';
import { listOwnProducts } from '../repositories/products';
import { noteSeen } from '../repositories/trust';
import { seenFrom } from '../trust/devices';
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

  /** Every photo of a phone must be one our hosts issued: never a link to anywhere else. */
  const assertPhotosIssued = (field: 'image' | 'photos', urls: string[]) => {
    if (!urls.every(issuedByOurHosts))
      throw DomainError.badRequest(
        field === 'image'
          ? 'Photos: upload the photo with the image host first'
          : 'Photos: upload each photo with the image host first',
      );
  };

  route('addProduct', async (request, reply) => {
    assertPhotosIssued('image', [request.body.image]);
    assertPhotosIssued('photos', request.body.photos ?? []);
    const caller = callerOf(request);
    const insertedId = await listPhone(
      app.db,
      { vault: app.imeiVault, photos: app.loosePhotos },
      caller,
      request.body,
    );
    // Where and on what the seller listed: a sale to oneself (decision 038), a banned person (052).
    await noteSeen(app.db, caller.id, seenFrom(request, reply));
    return { acknowledged: true, insertedId };
  });

  route('myProducts', async (request, reply) => {
    assertOwner(request, request.query.email);
    return pageAnswer(
      request,
      reply,
      // A person's own lists read the replica once it has their writes (decision 048).
      await readFor(request, (db) =>
        listOwnProducts(db, app.imeiVault, request.query.email, request.query),
      ),
    );
  });

  route('deleteProduct', async (request) => ({
    deletedCount: await deleteListing(app.db, app.loosePhotos, callerOf(request), request.query.id),
  }));

  route('setProductPhotos', async (request) => {
    assertPhotosIssued('photos', request.body.photos);
    await setPhotos(
      app.db,
      app.loosePhotos,
      callerOf(request),
      request.params.id,
      request.body.photos,
    );
    return { acknowledged: true };
  });

  route('advertise', async (request) =>
    (await advertise(app.db, callerOf(request), request.query.id))
      ? { acknowledged: true }
      : { acknowledged: false, message: 'Product is already advertised' },
  );

  route('stopAdvertising', async (request) => ({
    deletedCount: await stopAdvertising(app.db, callerOf(request), request.query.id),
  }));

  route('updateProduct', async (request) => {
    await editListing(app.db, callerOf(request), request.params.id, request.body);
    return { acknowledged: true };
  });

  route('withdrawProduct', async (request) => {
    await withdrawListing(app.db, callerOf(request), request.params.id);
    return { acknowledged: true };
  });

  route('relistProduct', async (request) => {
    await relistListing(app.db, callerOf(request), request.params.id);
    return { acknowledged: true };
  });
});
