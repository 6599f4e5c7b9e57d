import { AccountsPage } from '../components/accounts-page';

export function AllBuyersRoute() {
  return <AccountsPage kind="buyer" />;
}
