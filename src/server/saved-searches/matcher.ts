/**
 * The reverse search of issue 33 (decision 049): given one phone, which saved searches does it
 * match? A search asks "which phones match me"; an alert asks the other way round, once for every
 * phone listed, relisted or made cheaper, against every saved search.
 *
 * Each saved search is a slot of typed columns: a bit mask per list filter (brand, RAM, storage,
 * condition: one bit per value the contract allows, every bit when the filter is not set), the
 * price bounds, the battery and battery-health floors, the verified flag, and, apart, its words
 * and location text. Matching a phone is one pass over the slots, each refused at the first
 * column that does not fit, the rare ones that fit every number checked for words and location
 * last. A pass over 100,000 slots is about a millisecond (`npm run bench`): no list per value to
 * keep in step, nothing that degrades on a filter every search shares.
 *
 * `matches` is the rule written once, plainly: the property test holds the index to it, and to
 * the search itself (repositories/search.ts, words as typed).
 */
import {
  CATEGORY_CODES,
  CONDITION_OPTIONS,
  RAM_OPTIONS,
  STORAGE_OPTIONS,
} from '../../shared/constants';
import type { CountQuery } from '../search/search-counts';

/**
 * What a saved search asks of a phone for sale: the search's filters as its counts take them
 * (the location as `lower()` folds it, which the phone's must contain), and its words as the
 * catalog's are made, each of which must be a word of the phone (as typed).
 */
export type Criteria = Omit<CountQuery, 'includeSold' | 'words'> & { words: readonly string[] };

/** A phone for sale as the matcher sees it. */
export type PhoneFacts = {
  categoryId: string;
  ram: string;
  storage: string;
  condition: string;
  priceCents: number;
  battery: number;
  batteryHealth: number | null;
  /** As the database's `lower()` folds it. */
  locationLower: string;
  /** Its seller is verified. */
  verified: boolean;
  /** Its words (model and description) as the catalog's are made. */
  words: ReadonlySet<string>;
};

const has = (wanted: readonly string[] | undefined, value: string) =>
  wanted === undefined || wanted.includes(value);

/** The rule: whether the phone matches the search. */
export function matches(c: Criteria, p: PhoneFacts): boolean {
  return (
    has(c.brand, p.categoryId) &&
    has(c.ram, p.ram) &&
    has(c.storage, p.storage) &&
    has(c.condition, p.condition) &&
    (c.minPriceCents === undefined || p.priceCents >= c.minPriceCents) &&
    (c.maxPriceCents === undefined || p.priceCents <= c.maxPriceCents) &&
    (c.minBattery === undefined || p.battery >= c.minBattery) &&
    (c.minBatteryHealth === undefined ||
      (p.batteryHealth !== null && p.batteryHealth >= c.minBatteryHealth)) &&
    (!c.verified || p.verified) &&
    (c.location === undefined || p.locationLower.includes(c.location)) &&
    c.words.every((w) => p.words.has(w))
  );
}

/** A value's bit among the contract's values (the last bit for one it does not know). */
const bitOf = (values: readonly string[], value: string) => {
  const i = values.indexOf(value);
  return i < 0 || i > 30 ? 1 << 31 : 1 << i;
};
/** A filter's mask: the bits of its values, or every bit when it is not set. */
const maskOf = (values: readonly string[], wanted: readonly string[] | undefined) =>
  wanted === undefined ? -1 : wanted.reduce((m, v) => m | bitOf(values, v), 0);

const NO_FLOOR = -1;
const NO_CEILING = 2 ** 31 - 1;

/**
 * Every saved search for sale-alert matching, one slot each: `upsert` and `remove` by id, and
 * `match` a phone. A changed search takes a new slot (its old one is marked gone); the columns
 * are compacted when gone slots are as many as the live ones.
 */
export class ReverseIndex<Owner = string> {
  private ids: (string | null)[] = [];
  private owners: Owner[] = [];
  private brand: number[] = [];
  private ram: number[] = [];
  private storage: number[] = [];
  private condition: number[] = [];
  private minPrice: number[] = [];
  private maxPrice: number[] = [];
  private minBattery: number[] = [];
  private minHealth: number[] = [];
  private verified: boolean[] = [];
  private location: (string | null)[] = [];
  private words: (readonly string[] | null)[] = [];
  private readonly slotOf = new Map<string, number>();

  /** Saved searches in the index. */
  get size(): number {
    return this.slotOf.size;
  }

  upsert(id: string, owner: Owner, c: Criteria): void {
    this.remove(id);
    this.slotOf.set(id, this.ids.length);
    this.ids.push(id);
    this.owners.push(owner);
    this.brand.push(maskOf(CATEGORY_CODES, c.brand));
    this.ram.push(maskOf(RAM_OPTIONS, c.ram));
    this.storage.push(maskOf(STORAGE_OPTIONS, c.storage));
    this.condition.push(maskOf(CONDITION_OPTIONS, c.condition));
    this.minPrice.push(c.minPriceCents ?? NO_FLOOR);
    this.maxPrice.push(c.maxPriceCents ?? NO_CEILING);
    this.minBattery.push(c.minBattery ?? NO_FLOOR);
    this.minHealth.push(c.minBatteryHealth ?? NO_FLOOR);
    this.verified.push(c.verified);
    this.location.push(c.location ?? null);
    this.words.push(c.words.length > 0 ? c.words : null);
  }

  remove(id: string): void {
    const slot = this.slotOf.get(id);
    if (slot === undefined) return;
    this.slotOf.delete(id);
    this.ids[slot] = null;
    if (this.ids.length - this.slotOf.size > Math.max(1024, this.slotOf.size)) this.compact();
  }

  /** The saved searches the phone matches: their ids and owners. */
  match(p: PhoneFacts): { id: string; owner: Owner }[] {
    const brand = bitOf(CATEGORY_CODES, p.categoryId);
    const ram = bitOf(RAM_OPTIONS, p.ram);
    const storage = bitOf(STORAGE_OPTIONS, p.storage);
    const condition = bitOf(CONDITION_OPTIONS, p.condition);
    const price = p.priceCents;
    const health = p.batteryHealth ?? NO_FLOOR - 1;
    const found: { id: string; owner: Owner }[] = [];
    const n = this.ids.length;
    for (let s = 0; s < n; s++) {
      if (
        ((this.brand[s] as number) & brand) === 0 ||
        ((this.storage[s] as number) & storage) === 0 ||
        ((this.ram[s] as number) & ram) === 0 ||
        ((this.condition[s] as number) & condition) === 0 ||
        price > (this.maxPrice[s] as number) ||
        price < (this.minPrice[s] as number) ||
        p.battery < (this.minBattery[s] as number) ||
        ((this.minHealth[s] as number) !== NO_FLOOR && health < (this.minHealth[s] as number)) ||
        (this.verified[s] && !p.verified)
      )
        continue;
      const id = this.ids[s];
      if (id === null || id === undefined) continue;
      const location = this.location[s];
      if (location !== null && location !== undefined && !p.locationLower.includes(location))
        continue;
      const words = this.words[s];
      if (words && !words.every((w) => p.words.has(w))) continue;
      found.push({ id, owner: this.owners[s] as Owner });
    }
    return found;
  }

  private compact(): void {
    const keep = this.ids.flatMap((id, slot) => (id === null ? [] : [slot]));
    const pick = <T>(column: T[]) => keep.map((slot) => column[slot] as T);
    this.ids = pick(this.ids);
    this.owners = pick(this.owners);
    this.brand = pick(this.brand);
    this.ram = pick(this.ram);
    this.storage = pick(this.storage);
    this.condition = pick(this.condition);
    this.minPrice = pick(this.minPrice);
    this.maxPrice = pick(this.maxPrice);
    this.minBattery = pick(this.minBattery);
    this.minHealth = pick(this.minHealth);
    this.verified = pick(this.verified);
    this.location = pick(this.location);
    this.words = pick(this.words);
    this.slotOf.clear();
    this.ids.forEach((id, slot) => {
      if (id !== null) this.slotOf.set(id, slot);
    });
  }
}
