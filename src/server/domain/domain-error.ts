/**
 * What the domain says when it refuses, with the answer's status: the one error handler
 * (plugins/errors.ts) sends it as `{ message }`. Rules throw these instead of HTTP helpers, so
 * the order process, the payment recorder and the repositories need no request to say no.
 */
export class DomainError extends Error {
  constructor(
    readonly statusCode: 400 | 401 | 403 | 404 | 406 | 409 | 429 | 503,
    message: string,
    options?: ErrorOptions,
  ) {
    super(message, options);
    this.name = new.target.name;
  }

  /** For a 429 or a 503: when the caller may try again, sent as `Retry-After`. */
  retryAfterSeconds?: number;

  /** A refusal to come back later: 429 with `Retry-After`. */
  static tooMany = (message: string, retryAfterSeconds: number) =>
    Object.assign(new DomainError(429, message), { retryAfterSeconds });

  static badRequest = (message: string) => new DomainError(400, message);
  static forbidden = (message: string) => new DomainError(403, message);
  static notFound = (message: string) => new DomainError(404, message);
  static conflict = (message: string) => new DomainError(409, message);
}

/** A service we depend on (the card service) is down: the caller may retry; the message says so. */
export class ServiceUnavailableError extends DomainError {
  constructor(message: string, options?: ErrorOptions) {
    super(503, message, options);
  }
}
