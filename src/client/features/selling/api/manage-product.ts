/** Managing a listed phone (issue 19): edit it, withdraw and relist it, stop advertising it. */
import { type Answer, call } from '@client/lib/api-client';
import type { MutationConfig } from '@client/lib/query-client';
import { queryRoots } from '@client/lib/query-keys';
import { useRefreshingMutation } from '@client/lib/use-refreshing-mutation';
import type { ProductEdit } from '@shared/api';

type Edit = { id: string; edit: ProductEdit };

export const updateProduct = ({ id, edit }: Edit) =>
  call('updateProduct', { params: { id }, body: edit });

/** An edit shows on the phone's card, its page and every list: they refresh. */
export const useUpdateProduct = (config?: MutationConfig<Answer<'updateProduct'>, Edit>) =>
  useRefreshingMutation(updateProduct, () => [queryRoots.products], config);

export const withdrawProduct = (id: string) => call('withdrawProduct', { params: { id } });
export const relistProduct = (id: string) => call('relistProduct', { params: { id } });
export const stopAdvertising = (id: string) => call('stopAdvertising', { query: { id } });

/** A withdrawn or relisted phone leaves or comes back to every public list: they refresh. */
export const useWithdrawProduct = (config?: MutationConfig<Answer<'withdrawProduct'>, string>) =>
  useRefreshingMutation(withdrawProduct, () => [queryRoots.products], config);
export const useRelistProduct = (config?: MutationConfig<Answer<'relistProduct'>, string>) =>
  useRefreshingMutation(relistProduct, () => [queryRoots.products], config);
/** The advertised list on the home page and My Products' "Advertised" refresh. */
export const useStopAdvertising = (config?: MutationConfig<Answer<'stopAdvertising'>, string>) =>
  useRefreshingMutation(stopAdvertising, () => [queryRoots.products], config);
