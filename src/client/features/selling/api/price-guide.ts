import { type CallInput, call } from '@client/lib/api-client';
import { queryRoots } from '@client/lib/query-keys';
import { queryOptions } from '@tanstack/react-query';

/** What the price guide is asked: a phone's model, storage and (optionally) condition. */
export type PriceGuideQuestion = CallInput<'priceGuide'>['query'];

/**
 * What phones like this one sold for (GET /api/price-guide). Keyed by the model as the server
 * compares it (lower case, spaces collapsed), so "iPhone 13" and "iphone  13" share an answer.
 * Sales change slowly: an answer stays fresh for five minutes.
 */
export const priceGuideQueryOptions = (question: PriceGuideQuestion) =>
  queryOptions({
    queryKey: [
      ...queryRoots.priceGuide,
      question.modelName.trim().replace(/\s+/g, ' ').toLowerCase(),
      question.storage,
      question.condition ?? null,
    ],
    queryFn: () => call('priceGuide', { query: question }),
    staleTime: 5 * 60 * 1000,
  });
