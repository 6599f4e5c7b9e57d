import { MODAL_SHEET, useBodyMade, useModalDialog, useOpenSoon } from '@client/components/ui/modal';
import { ShowMore } from '@client/components/ui/show-more';
import { Spinner } from '@client/components/ui/spinner';
import { useWide } from '@client/lib/use-wide';
import { useValue, type ValueStore, valueStore } from '@client/lib/value-store';
import { SEARCH_SORTS, type SearchSort } from '@shared/constants';
import type { Product } from '@shared/entities';
import {
  type ReactNode,
  type RefObject,
  useDeferredValue,
  useEffect,
  useId,
  useRef,
  useState,
} from 'react';
import { Link, useLocation, useNavigation } from 'react-router';
import { activeFilterCount, clearFilters, type FilterScope } from '../phone-filters';
import { SEARCH_TEXT } from '../texts';
import { usePhoneActions } from '../use-phone-actions';
import { usePhoneFilters } from '../use-phone-filters';
import { PhoneFiltersForm } from './phone-filters-form';
import { PhoneGrid } from './phone-grid';
import { SaveSearchButton } from './save-search-button';

export type MoreQuery = {
  hasNextPage: boolean;
  isFetchingNextPage: boolean;
  fetchNextPage: () => unknown;
};

/** A list of phones a page at a time, counted when the search counted them. */
export type PhoneList = {
  products: Product[];
  /** Null on a brand's plain list, which the spec's call does not count. */
  total: { count: number; capped: boolean } | null;
  /** The words matched no phone as typed: these phones are close matches. */
  closeMatches?: boolean;
  more: MoreQuery;
};

/** What the page shows: its phones, why the server refused the query, or (null) a wait. */
export type PhoneListState = PhoneList | { refused: string } | null;

type PhoneBrowserProps = {
  scope: FilterScope;
  /** The page's heading (its h1), whose id names the list. */
  heading: ReactNode;
  headingId: string;
  list: PhoneListState;
};

const isSort = (value: string): value is SearchSort =>
  (SEARCH_SORTS as readonly string[]).includes(value);

/**
 * The filters on a phone: a modal drawer on the native <dialog> (`useModalDialog`: the page
 * behind is hidden and out of reach, Escape and the dimmed page beside it close it, focus goes
 * back to its button). Its form is made just after it first opens and then kept, so what is
 * typed still applies after it closes. It lies over the list
 * instead of pushing it down, so the list keeps its place, and back returns to the same phone.
 */
function FiltersDrawer({
  id,
  state,
  onClose,
  total,
  children,
}: {
  id: string;
  state: ValueStore<boolean>;
  onClose: () => void;
  total: string;
  children: ReactNode;
}) {
  const open = useValue(state, false);
  const ref = useModalDialog(open);
  // Made just after the tap's frame (decision 063), and then kept.
  const soon = useOpenSoon(open);
  const [shown, setShown] = useState(false);
  if (soon && !shown) setShown(true);
  const made = useBodyMade(soon);
  const titleId = `${id}-title`;
  // Open, it closes when the screen grows wide (the sidebar shows the same filters).
  const wide = useWide();
  useEffect(() => {
    if (open && wide) onClose();
  }, [open, wide, onClose]);
  return (
    // biome-ignore lint/a11y/useKeyWithClickEvents: its keys (Escape, Tab) are useModalDialog's
    <dialog
      ref={ref}
      id={id}
      aria-labelledby={titleId}
      className={MODAL_SHEET}
      onClose={onClose}
      // A click beside the drawer lands on the <dialog> itself.
      onClick={(event) => event.target === event.currentTarget && onClose()}
    >
      {shown && (
        <div className="ml-auto flex h-full w-80 max-w-[90vw] flex-col overflow-y-auto overscroll-contain bg-base-100 px-4 text-base-content">
          <div className="sticky top-0 z-10 flex items-center justify-between bg-base-100 py-2">
            <h2 id={titleId} className="text-lg font-bold">
              {SEARCH_TEXT.filters}
            </h2>
            <button
              type="button"
              className="btn btn-square btn-ghost"
              aria-label={SEARCH_TEXT.closeFilters}
              onClick={onClose}
            >
              <svg
                aria-hidden="true"
                viewBox="0 0 24 24"
                className="h-6 w-6 stroke-current"
                fill="none"
                strokeWidth="2"
              >
                <path d="M6 6l12 12M18 6L6 18" />
              </svg>
            </button>
          </div>
          {/* The page's count is hidden behind the drawer: the drawer says it too. */}
          <p role="status" className="text-sm font-semibold">
            {total}
          </p>
          {made && children}
        </div>
      )}
    </dialog>
  );
}

/** "Filters (n)": opens the drawer. */
function FiltersToggle({
  ref,
  state,
  drawerId,
  active,
}: {
  ref: RefObject<HTMLButtonElement | null>;
  state: ValueStore<boolean>;
  drawerId: string;
  active: number;
}) {
  const open = useValue(state, false);
  return (
    <button
      ref={ref}
      type="button"
      className="btn btn-outline btn-sm lg:hidden"
      aria-haspopup="dialog"
      aria-expanded={open}
      aria-controls={drawerId}
      onClick={() => state.set(true)}
    >
      <svg
        aria-hidden="true"
        viewBox="0 0 24 24"
        className="h-4 w-4 stroke-current"
        fill="none"
        strokeWidth="2"
      >
        <path d="M4 6h16M7 12h10M10 18h4" />
      </svg>
      {SEARCH_TEXT.filtersButton(active)}
    </button>
  );
}

/**
 * A list of phones with its filters and sort: the search's, and a brand page's. On a phone the
 * results come first and the filters open in a drawer from a "Filters (n)" button above them;
 * on a laptop they are a sidebar. The count is announced as it changes.
 */
export function PhoneBrowser({ scope, heading, headingId, list }: PhoneBrowserProps) {
  const { filters, ignored, apply, urlOf } = usePhoneFilters(scope);
  const phones = list && 'products' in list ? list : null;
  const products = phones?.products ?? [];
  const actions = usePhoneActions(products);
  // Whether the drawer is open, outside the page's state: opening it renders the drawer and its
  // button alone, not the list and the sidebar's filters (issue 36).
  const [open] = useState(() => valueStore(false));
  const toggle = useRef<HTMLButtonElement>(null);
  const id = useId();
  const formId = `${id}filters`;
  const drawerId = `${id}drawer`;
  const location = useLocation();
  const navigation = useNavigation();
  const loading =
    navigation.state === 'loading' && navigation.location?.pathname === location.pathname;
  const active = activeFilterCount(filters, scope);
  const clearTo = urlOf(clearFilters(filters, scope));
  const total = phones?.total ? SEARCH_TEXT.count(phones.total.count, phones.total.capped) : '';
  const close = useRef(() => {
    open.set(false);
    toggle.current?.focus();
  }).current;
  // The copy of the filters out of sight (the sidebar on a phone, the drawer on a laptop) takes
  // a tick just after the one in view, which alone is made again in the tap (issue 36).
  const wide = useWide();
  const later = useDeferredValue(filters);
  const form = (formProps: { id: string; onDone?: () => void }, inView: boolean) => {
    const shown = inView ? filters : later;
    return (
      <PhoneFiltersForm
        {...formProps}
        scope={scope}
        filters={shown}
        apply={apply}
        clearTo={shown === filters ? clearTo : urlOf(clearFilters(shown, scope))}
      />
    );
  };

  return (
    <section aria-labelledby={headingId} className="space-y-4">
      {heading}
      {ignored.length > 0 && (
        <p className="alert alert-warning text-sm">{SEARCH_TEXT.ignored(ignored)}</p>
      )}
      <div className="lg:grid lg:grid-cols-[15rem_minmax(0,1fr)] lg:grid-rows-[auto_1fr] lg:gap-x-8">
        <div className="flex flex-wrap items-center gap-x-3 gap-y-2 lg:col-start-2">
          <p role="status" className="w-full text-lg font-semibold sm:mr-auto sm:w-auto">
            {total}
            {phones?.closeMatches && ' '}
            {phones?.closeMatches && (
              <span className="block text-sm font-normal">
                {SEARCH_TEXT.closeMatches(
                  new URLSearchParams(location.search).get('q')?.trim() ?? '',
                )}
              </span>
            )}
          </p>
          <FiltersToggle ref={toggle} state={open} drawerId={drawerId} active={active} />
          <SaveSearchButton filters={filters} scope={scope} />
          <label className="ml-auto flex items-center gap-2 text-sm sm:ml-0">
            {SEARCH_TEXT.sortBy}
            <select
              name="sort"
              form={formId}
              className="select select-sm w-auto"
              value={filters.sort}
              onChange={(e) => {
                const sort = e.currentTarget.value;
                if (isSort(sort)) apply({ ...filters, sort });
              }}
            >
              {SEARCH_SORTS.map((sort) => (
                <option key={sort} value={sort}>
                  {SEARCH_TEXT.sorts[sort]}
                </option>
              ))}
            </select>
          </label>
        </div>
        <div className="hidden rounded-box border border-base-300 p-4 lg:col-start-1 lg:row-span-2 lg:row-start-1 lg:block lg:self-start">
          <h2 className="mb-1 text-lg font-bold">{SEARCH_TEXT.filters}</h2>
          {form({ id: formId }, wide)}
        </div>
        <FiltersDrawer id={drawerId} state={open} onClose={close} total={total}>
          {form({ id: `${formId}-drawer`, onDone: close }, !wide)}
        </FiltersDrawer>
        <div
          className={`mt-6 lg:col-start-2 ${loading ? 'opacity-60 transition-opacity' : ''}`}
          aria-busy={loading}
        >
          {list === null ? (
            <Spinner label="Loading phones" />
          ) : 'refused' in list ? (
            <div role="alert" className="alert alert-error flex flex-wrap">
              <span>{list.refused}</span>
              <Link to={{ pathname: location.pathname, search: '' }} className="btn btn-sm">
                {SEARCH_TEXT.startAgain}
              </Link>
            </div>
          ) : products.length === 0 ? (
            <div className="rounded-box bg-base-200 p-6 text-center">
              <p className="mb-3">{SEARCH_TEXT.noMatchHint}</p>
              {active > 0 ? (
                <Link to={clearTo} preventScrollReset className="btn btn-primary btn-sm">
                  {SEARCH_TEXT.clear}
                </Link>
              ) : (
                <Link to="/search" className="btn btn-primary btn-sm">
                  {SEARCH_TEXT.allPhones}
                </Link>
              )}
            </div>
          ) : (
            <>
              <PhoneGrid products={products} actions={actions} />
              {list.more.hasNextPage && (
                <div className="mt-6 flex justify-center">
                  <ShowMore
                    query={list.more}
                    label={SEARCH_TEXT.showMore}
                    className="btn btn-outline btn-wide"
                  />
                </div>
              )}
            </>
          )}
        </div>
      </div>
      {actions.modal}
    </section>
  );
}
