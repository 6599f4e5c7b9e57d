import { errorSchema } from '../../shared/api';

/** The `{ message }` answers a route may give besides its success (for its schema and the docs). */
export const errorResponses = {
  400: errorSchema,
  401: errorSchema,
  403: errorSchema,
  404: errorSchema,
  409: errorSchema,
  429: errorSchema,
};
