import { type Answer, type CallInput, call, callPage } from '@client/lib/api-client';
import type { MutationConfig } from '@client/lib/query-client';
import { queryRoots } from '@client/lib/query-keys';
import { useRefreshingMutation } from '@client/lib/use-refreshing-mutation';
import { infiniteQueryOptions, queryOptions } from '@tanstack/react-query';

/**
 * One sale as the signed-in viewer sees it (keyed by the viewer: their side decides what shows).
 * While it waits for the handover it is asked again now and then, so the buyer at the meeting
 * sees it complete when the seller enters the code.
 */
export const saleQueryOptions = (viewer: string, id: string) =>
  queryOptions({
    queryKey: [...queryRoots.sales, viewer, 'one', id],
    queryFn: () => call('sale', { params: { id } }),
    refetchInterval: (query) => (query.state.data?.stage === 'paid' ? 15_000 : false),
  });

/** Every booking and sale of the seller's phones, newest first, a page at a time. */
export const mySalesQueryOptions = (viewer: string) =>
  infiniteQueryOptions({
    queryKey: [...queryRoots.sales, viewer, 'mine'],
    queryFn: ({ pageParam }) => callPage('mySales', {}, pageParam),
    initialPageParam: null as string | null,
    getNextPageParam: (last) => last.next,
  });

/** Reported problems, newest report first, a page at a time (admin). */
export const disputesQueryOptions = (viewer: string) =>
  infiniteQueryOptions({
    queryKey: [...queryRoots.sales, viewer, 'disputes'],
    queryFn: ({ pageParam }) => callPage('listDisputes', {}, pageParam),
    initialPageParam: null as string | null,
    getNextPageParam: (last) => last.next,
  });

/**
 * What any change of a sale refreshes: the sale's views, the buyer's orders, and the seller's
 * money (a handover makes it pending, a decision frees or refunds it).
 */
const SALE_VIEWS = [queryRoots.sales, queryRoots.orders, queryRoots.payouts];

type Config<K extends Parameters<typeof call>[0], V> = MutationConfig<Answer<K>, V>;

export const cancelSale = (id: string) => call('cancelSale', { params: { id } });

/** A cancelled sale's phone is for sale again: the phone lists refresh too. */
export const useCancelSale = (config?: Config<'cancelSale', string>) =>
  useRefreshingMutation(cancelSale, () => [...SALE_VIEWS, queryRoots.products], config);

/**
 * The buyer deletes a booked, unpaid order (the spec's delete of My Orders). Its page is left
 * for My Orders, so only the orders refresh: the sale itself is gone.
 */
export const deleteBooking = (id: string) => call('deleteOrder', { query: { id } });

export const useDeleteBooking = (config?: Config<'deleteOrder', string>) =>
  useRefreshingMutation(deleteBooking, () => [queryRoots.orders], config);

type HandOver = { id: string } & CallInput<'handOver'>['body'];

export const handOver = ({ id, code }: HandOver) =>
  call('handOver', { params: { id }, body: { code } });

export const useHandOver = (config?: Config<'handOver', HandOver>) =>
  useRefreshingMutation(handOver, () => SALE_VIEWS, config);

type Report = { id: string } & CallInput<'reportProblem'>['body'];

export const reportProblem = ({ id, reason }: Report) =>
  call('reportProblem', { params: { id }, body: { reason } });

export const useReportProblem = (config?: Config<'reportProblem', Report>) =>
  useRefreshingMutation(reportProblem, () => SALE_VIEWS, config);

export type Rating = { id: string; stars: number; comment: string };

export const rateSale = ({ id, stars, comment }: Rating) =>
  call('rateSale', { params: { id }, body: { stars, comment } });

/** A rating changes the other side's standing, which phone cards show: they refresh too. */
export const useRateSale = (config?: Config<'rateSale', Rating>) =>
  useRefreshingMutation(rateSale, () => [...SALE_VIEWS, queryRoots.products], config);

export type Decision = { id: string; decision: CallInput<'resolveDispute'>['body']['decision'] };

export const resolveDispute = ({ id, decision }: Decision) =>
  call('resolveDispute', { params: { id }, body: { decision } });

export const useResolveDispute = (config?: Config<'resolveDispute', Decision>) =>
  useRefreshingMutation(resolveDispute, () => SALE_VIEWS, config);
