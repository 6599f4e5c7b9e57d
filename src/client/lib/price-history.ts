import { type CallInput, call } from '@client/lib/api-client';
import { queryRoots } from '@client/lib/query-keys';
import { queryOptions } from '@tanstack/react-query';

/** What a price history is asked: a phone's model, storage, condition and price (issue 33). */
export type PriceHistoryQuestion = CallInput<'priceHistory'>['query'];

/**
 * What a model sold for by week (GET /api/price-guide/history), for a phone's page and the price
 * guide alike (so in lib/, not in one feature). Keyed as the guide is, by the model as the server
 * compares it; sales change slowly, so an answer stays fresh for five minutes.
 */
export const priceHistoryQueryOptions = (question: PriceHistoryQuestion) =>
  queryOptions({
    queryKey: [
      ...queryRoots.priceGuide,
      'history',
      question.modelName.trim().replace(/\s+/g, '').toLowerCase(),
      question.storage,
      question.condition ?? null,
      question.price ?? null,
    ],
    queryFn: () => call('priceHistory', { query: question }),
    staleTime: 5 * 60 * 1000,
  });
