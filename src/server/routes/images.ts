/** The embedded image host: POST /api/images (multipart field `image`) from a signed-in seller. */
import multipart from '@fastify/multipart';
import { DomainError } from '../domain/domain-error';
import { InvalidImageError, MAX_IMAGE_BYTES } from '../images/image-store';
import type { LoosePhotos } from '../images/loose-photos';
import { recordPhotoHashes } from '../risk/photo-match';
import { contractRoutes } from './contract-routes';

export default contractRoutes<{ loosePhotos: LoosePhotos }>(async (route, app, { loosePhotos }) => {
  const { store } = loosePhotos;
  await app.register(multipart, {
    limits: { fileSize: MAX_IMAGE_BYTES, files: 1, fields: 5, parts: 6, fieldSize: 1024 },
  });

  route(
    'uploadImage',
    { limit: { perMinute: 30 }, consumes: ['multipart/form-data'] },
    async (request) => {
      if (!request.isMultipart())
        throw DomainError.badRequest('Send the photo as multipart/form-data.');
      let bytes: Buffer | undefined;
      try {
        for await (const part of request.parts()) {
          if (part.type === 'file' && part.fieldname === 'image') bytes = await part.toBuffer();
          else if (part.type === 'file') await part.toBuffer();
        }
      } catch (err) {
        const code = (err as { code?: string }).code;
        if (code === 'FST_REQ_FILE_TOO_LARGE')
          throw DomainError.badRequest('The photo is larger than 10 MB.');
        if (code?.startsWith('FST_'))
          throw DomainError.badRequest(`image: ${(err as Error).message}`);
        // Anything else the form parser stumbles on is a malformed or cut-off form.
        request.log.info({ err }, 'unreadable upload form');
        throw DomainError.badRequest('The photo could not be read. Send it again.');
      }
      if (!bytes) throw DomainError.badRequest('image: a photo in the field "image" is required');
      // Noted before it is stored: a photo no phone takes within a day is removed again.
      await loosePhotos.note(app.db, [store.urlOf(bytes)]);
      try {
        const { url, smallest } = await store.save(bytes);
        // Hashed as it is stored, so a copy of it uploaded later by someone else is found: from
        // its 320 px variant just encoded (a few ms), not the upload (50-150 ms for 12 MP).
        await recordPhotoHashes(app.db, url, smallest ?? bytes);
        return { success: true, data: { url } };
      } catch (err) {
        if (err instanceof InvalidImageError) throw DomainError.badRequest(`image: ${err.message}`);
        throw err;
      }
    },
  );
});
