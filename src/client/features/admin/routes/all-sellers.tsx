import { AccountsPage } from '../components/accounts-page';

export function AllSellersRoute() {
  return <AccountsPage kind="seller" />;
}
