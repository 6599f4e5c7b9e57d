/**
 * The filters and sort of a list of phones (the search, a brand's page) as its URL holds them,
 * so a list can be shared, bookmarked and gone back to: `?q=iphone+13&brand=01&storage=128+GB&
 * maxPrice=450&sort=price-asc`. The URL is the state; this module reads it, writes it and turns
 * it into the search call's query. No React here.
 */
import type { CallInput } from '@client/lib/api-client';
import {
  BATTERY_HEALTH_MAX,
  BATTERY_HEALTH_MIN,
  CATEGORY_CODES,
  type CategoryCode,
  CONDITION_OPTIONS,
  RAM_OPTIONS,
  SEARCH_SORTS,
  type SearchSort,
  STORAGE_OPTIONS,
} from '@shared/constants';

export type PhoneFilters = {
  /** The free text; '' for none. */
  q: string;
  brand: CategoryCode[];
  ram: (typeof RAM_OPTIONS)[number][];
  storage: (typeof STORAGE_OPTIONS)[number][];
  condition: (typeof CONDITION_OPTIONS)[number][];
  /** Numbers as typed (dollars, mAh); '' for none. */
  minPrice: string;
  maxPrice: string;
  minBattery: string;
  /** Battery health in percent, at least (issue 19); '' for none. */
  minBatteryHealth: string;
  location: string;
  verified: boolean;
  includeSold: boolean;
  sort: SearchSort;
};

/** The filters a form types into, applied a moment after typing stops. */
export const TEXT_FILTERS = ['minPrice', 'maxPrice', 'minBattery', 'location'] as const;
export type TextFilter = (typeof TEXT_FILTERS)[number];

/** The battery health bounds the form offers (percent); a link may name another, 50 to 100. */
export const BATTERY_HEALTH_CHOICES = ['80', '85', '90', '95'] as const;

/**
 * Where a list is: the search (every brand, unsold phones unless asked) or a brand's page (its
 * brand fixed, and sold phones shown, marked Sold, as the spec's brand page shows them).
 */
export type FilterScope = { brand: CategoryCode | null; includeSold: boolean };
export const SEARCH_SCOPE: FilterScope = { brand: null, includeSold: false };
export const brandScope = (brand: CategoryCode): FilterScope => ({ brand, includeSold: true });

const MULTI = {
  brand: CATEGORY_CODES,
  ram: RAM_OPTIONS,
  storage: STORAGE_OPTIONS,
  condition: CONDITION_OPTIONS,
} as const;
type MultiFilter = keyof typeof MULTI;
const MULTI_KEYS = Object.keys(MULTI) as MultiFilter[];

/** Every parameter of the URL that is a filter, the words or the sort. */
const FILTER_KEYS = new Set<string>([
  'q',
  ...MULTI_KEYS,
  ...TEXT_FILTERS,
  'minBatteryHealth',
  'verified',
  'includeSold',
  'sort',
]);

const NUMBER_PATTERN: Record<'minPrice' | 'maxPrice' | 'minBattery', RegExp> = {
  minPrice: /^\d+(\.\d+)?$/,
  maxPrice: /^\d+(\.\d+)?$/,
  minBattery: /^\d+$/,
};

export const emptyFilters = (scope: FilterScope): PhoneFilters => ({
  q: '',
  brand: [],
  ram: [],
  storage: [],
  condition: [],
  minPrice: '',
  maxPrice: '',
  minBattery: '',
  minBatteryHealth: '',
  location: '',
  verified: false,
  includeSold: scope.includeSold,
  sort: SEARCH_SORTS[0],
});

const FLAGS: Record<string, boolean> = { true: true, false: false };

/**
 * The filters a URL asks for. What the list cannot take (an unknown brand code, a price that is
 * not a number, the brand or words on a brand's page) is left out and named in `ignored`
 * (`brand=99`), so the page can say so instead of failing; other parameters are not ours.
 */
export function readFilters(
  params: URLSearchParams,
  scope: FilterScope,
): { filters: PhoneFilters; ignored: string[] } {
  const filters = emptyFilters(scope);
  const ignored: string[] = [];
  const ignore = (key: string, value: string) => ignored.push(`${key}=${value}`);

  for (const key of MULTI_KEYS) {
    const allowed: readonly string[] = MULTI[key];
    const chosen = new Set<string>();
    for (const value of params.getAll(key)) {
      // A brand page's brand is its own; asking for it again says nothing new.
      if (key === 'brand' && scope.brand) {
        if (value !== scope.brand) ignore(key, value);
      } else if (allowed.includes(value)) chosen.add(value);
      else if (value !== '') ignore(key, value);
    }
    // In the form's order, each once.
    Object.assign(filters, { [key]: allowed.filter((v) => chosen.has(v)) });
  }
  for (const key of ['minPrice', 'maxPrice', 'minBattery'] as const) {
    const value = params.get(key)?.trim() ?? '';
    if (NUMBER_PATTERN[key].test(value)) filters[key] = value;
    else if (value !== '') ignore(key, value);
  }
  const health = params.get('minBatteryHealth')?.trim() ?? '';
  if (
    /^\d{1,3}$/.test(health) &&
    Number(health) >= BATTERY_HEALTH_MIN &&
    Number(health) <= BATTERY_HEALTH_MAX
  )
    filters.minBatteryHealth = String(Number(health));
  else if (health !== '') ignore('minBatteryHealth', health);
  const q = params.get('q')?.trim() ?? '';
  if (scope.brand && q) ignore('q', q);
  else filters.q = q;
  filters.location = params.get('location')?.trim() ?? '';
  for (const key of ['verified', 'includeSold'] as const) {
    const value = params.get(key);
    if (value === null || value === '') continue;
    const flag = FLAGS[value];
    if (flag === undefined) ignore(key, value);
    else filters[key] = flag;
  }
  const sort = params.get('sort');
  const known = SEARCH_SORTS.find((s) => s === sort);
  if (known) filters.sort = known;
  else if (sort) ignore('sort', sort);
  return { filters, ignored };
}

/**
 * The URL's query of `filters`, in one order and without what is the scope's default, so the
 * same list always has the same URL (and `?includeSold=false` only where sold ones show by
 * default). `other`: the URL's parameters that are not filters, kept.
 */
export function writeFilters(
  filters: PhoneFilters,
  scope: FilterScope,
  other?: URLSearchParams,
): URLSearchParams {
  const params = new URLSearchParams();
  if (filters.q.trim() && !scope.brand) params.set('q', filters.q.trim());
  for (const key of MULTI_KEYS) {
    if (key === 'brand' && scope.brand) continue;
    for (const value of filters[key]) params.append(key, value);
  }
  for (const key of TEXT_FILTERS) {
    const value = filters[key].trim();
    if (value) params.set(key, value);
  }
  if (filters.minBatteryHealth) params.set('minBatteryHealth', filters.minBatteryHealth);
  if (filters.verified) params.set('verified', 'true');
  if (filters.includeSold !== scope.includeSold)
    params.set('includeSold', String(filters.includeSold));
  if (filters.sort !== SEARCH_SORTS[0]) params.set('sort', filters.sort);
  for (const [key, value] of other ?? []) if (!FILTER_KEYS.has(key)) params.append(key, value);
  return params;
}

/** How many filters are set (the words and the sort are not filters): "Filters (3)". */
export function activeFilterCount(filters: PhoneFilters, scope: FilterScope): number {
  return (
    MULTI_KEYS.reduce(
      (n, key) => n + (key === 'brand' && scope.brand ? 0 : filters[key].length),
      0,
    ) +
    TEXT_FILTERS.filter((key) => filters[key].trim() !== '').length +
    (filters.minBatteryHealth ? 1 : 0) +
    (filters.verified ? 1 : 0) +
    (filters.includeSold !== scope.includeSold ? 1 : 0)
  );
}

/** Whether the list differs from the scope's plain one: a filter, words or a sort. */
export const isFiltered = (filters: PhoneFilters, scope: FilterScope): boolean =>
  writeFilters(filters, scope).size > 0;

/** The same list without its filters: its words and sort stay. */
export const clearFilters = (filters: PhoneFilters, scope: FilterScope): PhoneFilters => ({
  ...emptyFilters(scope),
  q: filters.q,
  sort: filters.sort,
});

/** A number the search takes as a bound; 0 bounds nothing, so it is no bound. */
const bound = (value: string) => (Number(value) > 0 ? value : undefined);
const list = <T>(values: T[]) => (values.length > 0 ? values : undefined);

export type SearchInput = NonNullable<CallInput<'searchProducts'>['query']>;

/**
 * The search call's query for `filters`: only what is set, so equal lists share one cached
 * answer; on a brand's page, its brand.
 */
export function searchInput(filters: PhoneFilters, scope: FilterScope): SearchInput {
  const input: SearchInput = {
    q: filters.q.trim() || undefined,
    brand: scope.brand ? [scope.brand] : list(filters.brand),
    ram: list(filters.ram),
    storage: list(filters.storage),
    condition: list(filters.condition),
    minPrice: bound(filters.minPrice),
    maxPrice: bound(filters.maxPrice),
    minBattery: bound(filters.minBattery),
    minBatteryHealth: filters.minBatteryHealth || undefined,
    location: filters.location.trim() || undefined,
    verified: filters.verified ? 'true' : undefined,
    includeSold: filters.includeSold ? 'true' : undefined,
    sort: filters.sort === SEARCH_SORTS[0] ? undefined : filters.sort,
  };
  return Object.fromEntries(
    Object.entries(input).filter(([, value]) => value !== undefined),
  ) as SearchInput;
}

/**
 * The search as a saved search keeps it (issue 33): the search call's query for `filters`, a
 * list as its key repeated (`storage=64+GB&storage=128+GB`). Its names are the search page's
 * own, so `/search?` + this opens the same list; a brand page's is `brand=<code>` and its
 * includeSold.
 */
export function savedSearchOf(filters: PhoneFilters, scope: FilterScope): string {
  const params = new URLSearchParams();
  for (const [key, value] of Object.entries(searchInput(filters, scope)))
    for (const one of Array.isArray(value) ? value : [value]) params.append(key, String(one));
  return params.toString();
}
