/** One place that shapes every error as `{ message }`: readable, never a stack, never a 500 for bad input. */
import type { FastifyError, FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import {
  hasZodFastifySchemaValidationErrors,
  isResponseSerializationError,
} from 'fastify-type-provider-zod';
import { DomainError } from '../domain/domain-error';

type Issue = {
  instancePath?: string;
  message?: string;
  params?: { issue?: { path?: PropertyKey[] } };
};

/** `body.specificatons.ram: ram must be one of ...` becomes readable and names the field. */
function describeIssue(issue: Issue, context: string | undefined): string {
  const path =
    issue.params?.issue?.path?.map(String).join('.') ??
    issue.instancePath?.replace(/^\//, '').replaceAll('/', '.');
  const field = path || context || 'request';
  const message = issue.message ?? 'is not valid';
  const leaf = field.split('.').at(-1) ?? field;
  return message.startsWith(leaf) ? message : `${field}: ${message}`;
}

export default fp(async function errors(app: FastifyInstance) {
  app.setErrorHandler((error: FastifyError, request, reply) => {
    if (hasZodFastifySchemaValidationErrors(error)) {
      const messages = error.validation.map((i) =>
        describeIssue(i as Issue, error.validationContext),
      );
      return reply.code(400).send({ message: [...new Set(messages)].join('; ') });
    }
    if (isResponseSerializationError(error)) {
      request.log.error(
        { err: error, issues: error.cause.issues },
        'response does not match its schema',
      );
      return reply.code(500).send({ message: 'Internal Server Error' });
    }
    if (error instanceof DomainError) {
      // A service we depend on is down (503): the caller may retry, and we need to know why.
      if (error.statusCode >= 500) request.log.error({ err: error.cause }, error.message);
      return reply.code(error.statusCode).send({ message: error.message });
    }
    const status = error.statusCode ?? 500;
    if (status >= 500) {
      request.log.error({ err: error }, 'request failed');
      return reply.code(500).send({ message: 'Internal Server Error' });
    }
    // Client errors raised by Fastify itself (bad JSON, body too large, wrong content type) or by routes.
    return reply.code(status).send({ message: error.message });
  });
});
