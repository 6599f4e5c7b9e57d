import { useMemo, useState } from 'react';
import { useLocation, useNavigate, useNavigation } from 'react-router';
import { type FilterScope, type PhoneFilters, readFilters, writeFilters } from './phone-filters';

export type ApplyFilters = (next: PhoneFilters, how?: { replace?: boolean }) => void;

/**
 * The list's filters, read from the URL, and `apply`, which writes them there. The router
 * commits a change once its list has loaded, in a transition, so until then the filters are the
 * change's (a box ticked stays ticked); back and forward bring the form the URL's filters.
 */
export function usePhoneFilters(scope: FilterScope) {
  const location = useLocation();
  const navigation = useNavigation();
  const navigate = useNavigate();
  /** The query of the change applied from here, until the router commits a location. */
  const [applied, setApplied] = useState<{ from: string; search: string } | null>(null);
  if (applied && applied.from !== location.key) setApplied(null);
  const pending = navigation.location?.pathname === location.pathname ? navigation.location : null;
  const { pathname } = location;
  const search = applied?.search ?? (pending ?? location).search;
  const { brand, includeSold } = scope;
  const { key } = location;

  return useMemo(() => {
    const here: FilterScope = { brand, includeSold };
    const { filters, ignored } = readFilters(new URLSearchParams(search), here);
    /** The URL of the same page with `next` filters, other parameters kept. */
    const urlOf = (next: PhoneFilters) => {
      const params = writeFilters(next, here, new URLSearchParams(search));
      return { pathname, search: params.size > 0 ? `?${params}` : '' };
    };
    /**
     * Each change is a step back can undo (a push); a field's text as it is being typed
     * replaces its own last step instead, so back does not replay it a keystroke at a time. The
     * page keeps its scroll: the form may be far down the page.
     */
    const apply: ApplyFilters = (next, how = {}) => {
      const url = urlOf(next);
      setApplied({ from: key, search: url.search });
      void navigate(url, { replace: how.replace ?? false, preventScrollReset: true });
    };
    return { filters, ignored, apply, urlOf };
  }, [brand, includeSold, pathname, search, key, navigate]);
}
