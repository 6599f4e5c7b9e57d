/**
 * One place that shapes every error as `{ message }`: readable, never a stack, never a 500 for
 * bad input. A 400 of a request that does not validate adds `fields`, each problem by the path
 * it is about (issue 19), so a form can show it beside its field.
 */
import type { FastifyError, FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import {
  hasZodFastifySchemaValidationErrors,
  isResponseSerializationError,
} from 'fastify-type-provider-zod';
import { fieldOfMessage } from '../../shared/listing-input';
import {
  DATABASE_RETRY_AFTER_SECONDS,
  DATABASE_UNAVAILABLE,
  isDatabaseUnavailable,
  levelOfFailure,
} from '../db/unavailable';
import { DomainError } from '../domain/domain-error';

type Issue = {
  instancePath?: string;
  message?: string;
  params?: { issue?: { path?: PropertyKey[] } };
};

/**
 * `body.specificatons.ram: ram must be one of ...` becomes readable and names the field; a
 * message that names it by its label already stays as it is. Answers the path too.
 */
function describeIssue(
  issue: Issue,
  context: string | undefined,
): { path: string; message: string } {
  const path =
    issue.params?.issue?.path?.map(String).join('.') ??
    issue.instancePath?.replace(/^\//, '').replaceAll('/', '.') ??
    '';
  const field = path || context || 'request';
  const message = issue.message ?? 'is not valid';
  const leaf = field.split('.').at(-1) ?? field;
  // A listing's message names its field as the form labels it (`Resale price ($): …`).
  const named = message.startsWith(leaf) || fieldOfMessage(message) !== undefined;
  return { path, message: named ? message : `${field}: ${message}` };
}

/** Each problem by its path (the first one of a path), for a form to show beside its field. */
function fieldsOf(described: { path: string; message: string }[]): Record<string, string> {
  const fields: Record<string, string> = {};
  for (const { path, message } of described) if (path && !(path in fields)) fields[path] = message;
  return fields;
}

export default fp(async function errors(app: FastifyInstance) {
  app.setErrorHandler((error: FastifyError, request, reply) => {
    if (hasZodFastifySchemaValidationErrors(error)) {
      const described = error.validation.map((i) =>
        describeIssue(i as Issue, error.validationContext),
      );
      const messages = described.map((d) => d.message);
      return reply
        .code(400)
        .send({ message: [...new Set(messages)].join('; '), fields: fieldsOf(described) });
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
      // (a database failing over beneath it is expected: a warning)
      if (error.statusCode >= 500)
        request.log[levelOfFailure(error.cause)]({ err: error.cause }, error.message);
      // A refusal about one field of a listing (`IMEI: This phone is already listed`) says which.
      const field = fieldOfMessage(error.message);
      if (error.retryAfterSeconds !== undefined)
        reply.header('retry-after', String(Math.max(1, Math.ceil(error.retryAfterSeconds))));
      return reply
        .code(error.statusCode)
        .send(
          field
            ? { message: error.message, fields: { [field]: error.message } }
            : { message: error.message },
        );
    }
    if (isDatabaseUnavailable(error)) {
      // A failover or restart of PostgreSQL, not a fault of ours: the caller asks again shortly.
      request.log.warn({ err: error }, 'database unavailable');
      reply.header('retry-after', String(DATABASE_RETRY_AFTER_SECONDS));
      return reply.code(503).send({ message: DATABASE_UNAVAILABLE });
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
