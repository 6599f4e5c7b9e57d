/** The embedded image host: POST /api/images (multipart field `image`) from a signed-in seller. */
import multipart from '@fastify/multipart';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { calls, errorSchema } from '../../shared/api';
import { type ImageStore, InvalidImageError, MAX_IMAGE_BYTES } from '../images/image-store';

const images: FastifyPluginAsyncZod<{ store: ImageStore }> = async (app, opts) => {
  await app.register(multipart, {
    limits: { fileSize: MAX_IMAGE_BYTES, files: 1, fields: 5, parts: 6, fieldSize: 1024 },
  });

  app.post(
    calls.uploadImage.path,
    {
      preHandler: [app.authenticate, app.requireSeller],
      config: {
        rateLimit: {
          max: 30,
          timeWindow: '1 minute',
          // After parsing and authentication, so the key can use the body or the caller.
          hook: 'preHandler',
          keyGenerator: (request) => `upload:${request.caller?.email ?? request.ip}`,
        },
      },
      schema: {
        tags: ['images'],
        security: [{ bearer: [] }],
        consumes: ['multipart/form-data'],
        response: {
          200: calls.uploadImage.response,
          400: errorSchema,
          401: errorSchema,
          403: errorSchema,
        },
      },
    },
    async (request, reply) => {
      if (!request.isMultipart())
        return reply.code(400).send({ message: 'image: send the photo as multipart/form-data' });
      let bytes: Buffer | undefined;
      try {
        for await (const part of request.parts()) {
          if (part.type === 'file' && part.fieldname === 'image') bytes = await part.toBuffer();
          else if (part.type === 'file') await part.toBuffer();
        }
      } catch (err) {
        const code = (err as { code?: string }).code;
        if (code === 'FST_REQ_FILE_TOO_LARGE')
          return reply.code(400).send({ message: 'image: the photo is larger than 10 MB' });
        if (code?.startsWith('FST_'))
          return reply.code(400).send({ message: `image: ${(err as Error).message}` });
        // Anything else the form parser stumbles on is a malformed or cut-off form.
        request.log.info({ err }, 'unreadable upload form');
        return reply
          .code(400)
          .send({ message: 'image: the form could not be read; send the photo again' });
      }
      if (!bytes)
        return reply.code(400).send({ message: 'image: a photo in the field "image" is required' });
      try {
        const { url } = await opts.store.save(bytes);
        return { success: true, data: { url } };
      } catch (err) {
        if (err instanceof InvalidImageError)
          return reply.code(400).send({ message: `image: ${err.message}` });
        throw err;
      }
    },
  );
};

export default images;
