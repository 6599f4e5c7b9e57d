import { afterNextPaint } from '@client/lib/after-paint';
import { useEffect, useLayoutEffect, useMemo, useRef, useState } from 'react';
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
  const pendingNavigation = useRef<{ cancel: () => void; replace: boolean } | null>(null);
  // Leaving the list calls off a change still waiting for its frame.
  useEffect(() => () => pendingNavigation.current?.cancel(), []);

  const made = useMemo(() => {
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
      // The form shows the change in this frame; the navigation starts after it has painted.
      // A change made before then takes the waiting one's place, a step back can undo unless
      // both were a field's typing.
      const waiting = pendingNavigation.current;
      waiting?.cancel();
      const replace = (how.replace ?? false) && (waiting?.replace ?? true);
      const cancel = afterNextPaint(() => {
        pendingNavigation.current = null;
        void navigate(url, { replace, preventScrollReset: true });
      });
      pendingNavigation.current = { cancel, replace };
    };
    return { filters, ignored, apply, urlOf };
  }, [brand, includeSold, pathname, search, key, navigate]);

  // `apply` is the same function on every render, calling the latest one: a form that did not
  // re-render (a hidden copy, memoized) still applies to the current URL (issue 36).
  const latest = useRef(made.apply);
  useLayoutEffect(() => {
    latest.current = made.apply;
  });
  const [apply] = useState(() => {
    const stable: ApplyFilters = (next, how) => latest.current(next, how);
    return stable;
  });
  return { ...made, apply };
}
