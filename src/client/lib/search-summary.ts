/**
 * A search in a few words, from its query string as the search call takes it (issue 33): the
 * name a saved search is offered ("iphone 14 · 128 GB · under $500") and the summary the saved
 * searches page shows of each. Here, not in a feature: the search page names a search, the
 * buyer's saved searches page describes it.
 */
import { CATEGORIES, SAVED_SEARCH_NAME_MAX } from '@shared/constants';
import { formatCount, formatDollars, storageLabel } from './format';

const or = (values: string[]) => values.join(' or ');
const dollars = (value: string) => formatDollars(Number(value));

/** The search's words, brands, specs, price, battery, place and sellers, each set one a part. */
export function describeSearch(search: URLSearchParams): string[] {
  const parts: string[] = [];
  const q = search.get('q')?.trim();
  if (q) parts.push(q);
  const brands = search
    .getAll('brand')
    .map((code) => CATEGORIES.find((c) => c.categoryId === code)?.name ?? code);
  if (brands.length > 0) parts.push(or(brands));
  const storage = search.getAll('storage');
  if (storage.length > 0) parts.push(or(storage.map(storageLabel)));
  const ram = search.getAll('ram');
  if (ram.length > 0) parts.push(`${or(ram)} RAM`);
  const condition = search.getAll('condition');
  if (condition.length > 0) parts.push(or(condition));
  const min = search.get('minPrice');
  const max = search.get('maxPrice');
  if (min && max) parts.push(`${dollars(min)}–${dollars(max)}`);
  else if (max) parts.push(`under ${dollars(max)}`);
  else if (min) parts.push(`over ${dollars(min)}`);
  const battery = search.get('minBattery');
  if (battery) parts.push(`${formatCount(Number(battery))}+ mAh`);
  const health = search.get('minBatteryHealth');
  if (health) parts.push(`battery health ${health}%+`);
  const location = search.get('location')?.trim();
  if (location) parts.push(`in ${location}`);
  if (search.get('verified') === 'true') parts.push('verified sellers');
  return parts;
}

/** The name a search is offered when saved: its parts, cut to the longest name allowed. */
export function searchName(search: URLSearchParams): string {
  const name = describeSearch(search).join(' · ') || 'All phones';
  return name.length <= SAVED_SEARCH_NAME_MAX
    ? name
    : `${name.slice(0, SAVED_SEARCH_NAME_MAX - 1).trimEnd()}…`;
}
