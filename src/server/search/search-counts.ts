/**
 * The search's counts, kept in each server beside the table (issue 18, decision 034): how many
 * phones match a search, counted up to a cap in a few milliseconds at a million phones, where
 * PostgreSQL spends 25-50 ms intersecting the long lists of common keys ("available",
 * "128 GB", "iphone").
 *
 * Each phone for sale is a slot: its filter values in typed arrays, its words in one sorted list
 * of slots per word, and the two sort orders. Sold phones are not held (decision 059): they
 * only accumulate, nine in ten of a catalog of years, and a search that includes them is the
 * database's. A count intersects the words' lists (or
 * walks every slot) and checks the filters on each, stopping past the cap; a page is the matches
 * sorted (at most the cap of them) or the sort's order walked from the cursor (more). PostgreSQL
 * then reads only the page's phones, with the search's conditions.
 *
 * Kept current by the database: every statement that changes phones sends the changed phones'
 * `seq`s on `search_changes` at its commit (migration 0018), and each server reads those phones
 * again. A phone changed gets a new slot (its old one is marked gone), so the words' lists only
 * grow at their end and stay sorted; when gone slots are many, the whole index is read again.
 *
 * Fresh by construction: before counting, a server sends itself a notice on the same channel and
 * waits for it. Notices arrive in commit order, so by then it has heard of every change
 * committed before the search began (its own writes and every other server's), and applied them.
 * One such notice is out at a time, for every search that began before it was sent. Whenever it
 * cannot be sure (the index being read, the listener reconnecting, a notice slow to come back,
 * words too broad), `now` or its answers are null and PostgreSQL counts and pages as before.
 */
import { randomUUID } from 'node:crypto';
import { type SQL, sql } from 'drizzle-orm';
import { USER_STATUS_VERIFIED } from '../../shared/constants';
import { type Database, rowsOf } from '../db/client';

export const SEARCH_CHANGES_CHANNEL = 'search_changes';

/** One way a clause of words matches: every one of these words, or any word with this prefix. */
export type WordsAlternative = { all: readonly string[] } | { prefix: string };

/**
 * What a count asks, as the search's SQL asks it (repositories/search.ts builds both). `words`:
 * each clause must match, a clause matches when any of its alternatives does; `'none'` matches
 * nothing.
 */
export type CountQuery = {
  brand?: readonly string[];
  ram?: readonly string[];
  storage?: readonly string[];
  condition?: readonly string[];
  minPriceCents?: number;
  maxPriceCents?: number;
  minBattery?: number;
  minBatteryHealth?: number;
  /** The location text as the database's `lower()` makes it (ILIKE's folding). */
  location?: string;
  verified: boolean;
  words?: readonly (readonly WordsAlternative[])[] | 'none';
};

/** A page's order and where it starts: after this phone (as the search's cursor says). */
export type PageOrder =
  | { sort: 'newest'; after?: { seq: number } }
  | { sort: 'price-asc' | 'price-desc'; after?: { price: number; seq: number } };

const AVAILABLE = 0;
/** A slot whose phone changed (it has a newer slot), was sold, withdrawn or deleted. */
const GONE = 1;
/** Battery health not stated. */
const NO_HEALTH = -1;
/** Phones read at once while the index is built. */
const BATCH = 20_000;
/** How long a count waits for its own notice before counting in PostgreSQL instead. */
const NOTICE_WAIT_MS = 250;
/** How long after a failed read the index is read again. */
const RETRY_MS = 5_000;
/** Own notices late in a row after which searches stop waiting (the listener may be lost). */
const LATE_MAX = 3;
/** How often a notice still goes out once they stopped coming back. */
const PROBE_MS = 5_000;
/** Phones read again in one query. */
const READ_AT_ONCE = 1_000;

/** Codes for the distinct values of a column (brands, storages, cities, sellers). */
class Codes {
  readonly values: string[] = [];
  private readonly byValue = new Map<string, number>();
  code(value: string): number {
    let code = this.byValue.get(value);
    if (code === undefined) {
      code = this.values.length;
      this.values.push(value);
      this.byValue.set(value, code);
    }
    return code;
  }
  find(value: string): number | undefined {
    return this.byValue.get(value);
  }
  /** A flag per code: whether its value is one of `wanted`. */
  flags(wanted: readonly string[]): Uint8Array {
    const flags = new Uint8Array(this.values.length);
    for (const value of wanted) {
      const code = this.byValue.get(value);
      if (code !== undefined) flags[code] = 1;
    }
    return flags;
  }
}

/** A growable array of 32-bit integers. */
class Ints {
  data: Int32Array;
  length = 0;
  constructor(capacity = 4) {
    this.data = new Int32Array(capacity);
  }
  push(value: number): void {
    if (this.length === this.data.length) {
      const next = new Int32Array(this.data.length * 2);
      next.set(this.data);
      this.data = next;
    }
    this.data[this.length++] = value;
  }
  view(): Int32Array {
    return this.data.subarray(0, this.length);
  }
}

/** A phone for sale as the index reads it (a row of `search_phones`). */
type PhoneRow = {
  seq: number | string;
  category_id: string;
  ram: string;
  storage: string;
  condition: string;
  resell_price_cents: number;
  battery: number;
  battery_health: number | null;
  location: string;
  /** As ILIKE folds it: the database's own `lower()`, whatever its collation. */
  location_lower: string;
  seller_email: string;
  /** The phone's words (`tsvector_to_array` of its search vector), each followed by a blank. */
  words: string;
};

/**
 * Read from `search_phones` (decision 061), which holds the phones for sale and only those: a
 * phone without a row there is not for sale (sold, withdrawn, held, or gone).
 */
const PHONE_COLUMNS = sql.raw(`seq, category_id, ram, storage, condition,
  resell_price_cents, battery, battery_health, location, lower(location) as location_lower,
  seller_email, words`);

/**
 * What a search asks of the index once it is current (`SearchCounts.now`), synchronously: its
 * words' slots are worked out once for the whole search (as typed, then counted and paged),
 * again only if a change came in between.
 */
export class CountsNow {
  private readonly words = new Map<string, SlotSet | null>();
  private changes: number;
  constructor(private readonly slots: Slots) {
    this.changes = slots.changes;
  }
  private candidates = (words: CountQuery['words']): SlotSet | null => {
    if (this.changes !== this.slots.changes) {
      this.words.clear();
      this.changes = this.slots.changes;
    }
    const key = JSON.stringify(words ?? null);
    let found = this.words.get(key);
    if (found === undefined) {
      found = this.slots.candidates(words);
      this.words.set(key, found);
    }
    return found;
  };
  /** How many match, to `cap + 1`; null when the words are too broad to take here. */
  count(q: CountQuery, cap: number): number | null {
    return unlessTooBroad(() => this.slots.count(q, cap, this.candidates));
  }
  /** The count and the page's seqs in order; null when the words are too broad to take here. */
  page(
    q: CountQuery,
    order: PageOrder,
    limit: number,
    cap: number,
  ): { total: number; seqs: number[] } | null {
    return unlessTooBroad(() => this.slots.page(q, order, limit, cap, this.candidates));
  }
}

/**
 * A prefix that stands for more of the catalog's words than this ('1', 'a') is left to the
 * database: its union would hold the event loop for every phone with any of them.
 */
const PREFIX_WORDS_MAX = 64;

class TooBroad extends Error {}

function unlessTooBroad<T>(work: () => T): T | null {
  try {
    return work();
  } catch (err) {
    if (err instanceof TooBroad) return null;
    throw err;
  }
}

type Candidates = (words: CountQuery['words']) => SlotSet | null;

/**
 * A set of slots: ascending in a list, or one bit a slot (a common word's, or what two common
 * words share), whichever is smaller: a word on more than one phone in 32 is both kept as a list
 * and read as bits, and two common words meet by a word-by-word AND instead of a walk through
 * hundreds of thousands of slots (decision 059).
 */
type SlotSet = { list: Int32Array } | { bits: Uint32Array };

/** Past this share of the slots (1 in BITS_FROM), a word's slots are read as bits. */
const BITS_FROM = 32;

const hasBit = (bits: Uint32Array, slot: number): boolean =>
  (((bits[slot >>> 5] as number) >>> (slot & 31)) & 1) === 1;

const setBit = (bits: Uint32Array, slot: number): void => {
  bits[slot >>> 5] = (bits[slot >>> 5] as number) | (1 << (slot & 31));
};

/** Calls `visit` with each slot of `set`, ascending, until it answers false. */
function eachSlot(set: SlotSet, visit: (slot: number) => boolean): void {
  if ('list' in set) {
    for (const slot of set.list) if (!visit(slot)) return;
    return;
  }
  const { bits } = set;
  for (let w = 0; w < bits.length; w++) {
    let word = bits[w] as number;
    while (word !== 0) {
      const low = word & -word;
      if (!visit(w * 32 + 31 - Math.clz32(low))) return;
      word ^= low;
    }
  }
}

/** The index itself: one generation of it, read from the table and kept current. */
class Slots {
  /** `recentMax`: slots read since the orders were last merged, past which they are merged. */
  constructor(private readonly recentMax: number) {}

  readonly brands = new Codes();
  readonly rams = new Codes();
  readonly storages = new Codes();
  readonly conditions = new Codes();
  readonly locations = new Codes();
  /** Each location folded as ILIKE folds it, by location code. */
  readonly foldedLocations: string[] = [];
  readonly sellers = new Codes();
  /** By seller code: 1 when the seller is verified. */
  sellerVerified = new Uint8Array(0);
  /** The verified sellers' addresses, for a seller whose first phone comes later. */
  private verifiedEmails = new Set<string>();
  readonly words = new Map<string, Ints>();
  readonly slotOfSeq = new Map<number, number>();

  status = new Uint8Array(1024);
  brand = new Uint16Array(1024);
  ram = new Uint16Array(1024);
  storage = new Uint16Array(1024);
  condition = new Uint16Array(1024);
  price = new Int32Array(1024);
  battery = new Int32Array(1024);
  health = new Int16Array(1024);
  location = new Int32Array(1024);
  seller = new Int32Array(1024);
  seqOf = new Float64Array(1024);
  size = 0;
  gone = 0;
  /** Slots put since the start: what a search's worked-out words depend on. */
  changes = 0;
  /**
   * The two sorts' orders of the slots read together (`sorted`, at the build and at each merge):
   * by seq, and by price then seq; slots added since are in the `recent` lists, kept sorted, and
   * merged in when they are many. A page with many matches walks these as the database walks its
   * sort's index, and stops at the page's end.
   */
  bySeq: Int32Array = new Int32Array(0);
  byPrice: Int32Array = new Int32Array(0);
  recentBySeq: number[] = [];
  recentByPrice: number[] = [];
  private sorted = false;

  private grow(): void {
    const capacity = this.status.length * 2;
    const grown = <T extends Uint8Array | Uint16Array | Int16Array | Int32Array | Float64Array>(
      a: T,
    ): T => {
      const next = new (a.constructor as new (n: number) => T)(capacity);
      next.set(a);
      return next;
    };
    this.status = grown(this.status);
    this.brand = grown(this.brand);
    this.ram = grown(this.ram);
    this.storage = grown(this.storage);
    this.condition = grown(this.condition);
    this.price = grown(this.price);
    this.battery = grown(this.battery);
    this.health = grown(this.health);
    this.location = grown(this.location);
    this.seller = grown(this.seller);
    this.seqOf = grown(this.seqOf);
  }

  /** The phone's row as it is now, or its absence (deleted): its old slot goes. */
  put(seq: number, row: PhoneRow | undefined): void {
    this.changes++;
    const old = this.slotOfSeq.get(seq);
    if (old !== undefined) {
      this.status[old] = GONE;
      this.slotOfSeq.delete(seq);
      this.gone++;
    }
    // Only phones for sale are held (those with a row): a sold one, like a withdrawn one, leaves.
    if (!row) return;
    if (this.size === this.status.length) this.grow();
    const slot = this.size++;
    this.status[slot] = AVAILABLE;
    this.brand[slot] = this.brands.code(row.category_id);
    this.ram[slot] = this.rams.code(row.ram);
    this.storage[slot] = this.storages.code(row.storage);
    this.condition[slot] = this.conditions.code(row.condition);
    this.price[slot] = row.resell_price_cents;
    this.battery[slot] = row.battery;
    this.health[slot] = row.battery_health ?? NO_HEALTH;
    const location = this.locations.code(row.location);
    if (location === this.foldedLocations.length) this.foldedLocations.push(row.location_lower);
    this.location[slot] = location;
    const known = this.sellers.values.length;
    const seller = this.sellers.code(row.seller_email);
    if (seller === known) {
      if (seller >= this.sellerVerified.length) {
        const next = new Uint8Array(Math.max(64, seller * 2));
        next.set(this.sellerVerified);
        this.sellerVerified = next;
      }
      this.sellerVerified[seller] = this.verifiedEmails.has(row.seller_email) ? 1 : 0;
    }
    this.seller[slot] = seller;
    // Words never hold a blank: PostgreSQL's parser ends a word at one.
    for (const word of row.words.split(' ')) {
      if (word === '') continue;
      let list = this.words.get(word);
      if (!list) {
        list = new Ints();
        this.words.set(word, list);
      }
      list.push(slot);
    }
    this.seqOf[slot] = seq;
    this.slotOfSeq.set(seq, slot);
    if (this.sorted) this.addRecent(slot);
  }

  private readonly seqOrder = (a: number, b: number): number =>
    (this.seqOf[a] as number) - (this.seqOf[b] as number);
  private readonly priceOrder = (a: number, b: number): number =>
    (this.price[a] as number) - (this.price[b] as number) || this.seqOrder(a, b);

  /**
   * Once every phone is read (in seq order, so slot order is seq order): the by-price order,
   * by a stable radix sort on the price (two passes of 16 bits; a comparison sort of a million
   * would hold the event loop for most of a second).
   */
  sortAll(): void {
    const n = this.size;
    this.bySeq = new Int32Array(n);
    for (let i = 0; i < n; i++) this.bySeq[i] = i;
    let from = this.bySeq.slice();
    let to = new Int32Array(n);
    for (const shift of [0, 16]) {
      const counts = new Int32Array(65_537);
      for (let i = 0; i < n; i++)
        (counts[(((this.price[from[i] as number] as number) >>> shift) & 0xffff) + 1] as number)++;
      for (let d = 1; d < counts.length; d++)
        counts[d] = (counts[d] as number) + (counts[d - 1] as number);
      for (let i = 0; i < n; i++) {
        const slot = from[i] as number;
        const digit = ((this.price[slot] as number) >>> shift) & 0xffff;
        to[counts[digit] as number] = slot;
        counts[digit] = (counts[digit] as number) + 1;
      }
      [from, to] = [to, from];
    }
    this.byPrice = from;
    this.sorted = true;
  }

  /** A slot read after the sort: into the recent lists, merged into the orders when many. */
  private addRecent(slot: number): void {
    insertSorted(this.recentBySeq, slot, this.seqOrder);
    insertSorted(this.recentByPrice, slot, this.priceOrder);
    if (this.recentBySeq.length >= this.recentMax) {
      this.bySeq = merge(this.bySeq, this.recentBySeq, this.seqOrder);
      this.byPrice = merge(this.byPrice, this.recentByPrice, this.priceOrder);
      this.recentBySeq = [];
      this.recentByPrice = [];
    }
  }

  /**
   * The seqs of the first `limit` slots `accept` takes, in the order's direction, after its
   * cursor: a walk along the sort's order (both of its parts, merged).
   */
  private walk(order: PageOrder, limit: number, accept: (slot: number) => boolean): number[] {
    const byPrice = order.sort !== 'newest';
    const compare = byPrice ? this.priceOrder : this.seqOrder;
    const lists: ArrayLike<number>[] = byPrice
      ? [this.byPrice, this.recentByPrice]
      : [this.bySeq, this.recentBySeq];
    const ascending = order.sort === 'price-asc';
    // Where the page starts in each list: past the cursor's phone, in the walk's direction.
    const after = order.after;
    const beyond = (slot: number): boolean => {
      if (!after) return true;
      const key =
        (byPrice ? (this.price[slot] as number) - (after as { price: number }).price : 0) ||
        (this.seqOf[slot] as number) - after.seq;
      return ascending ? key > 0 : key < 0;
    };
    const at = lists.map((list) => {
      // The first index past the cursor going up, or the last going down.
      let lo = 0;
      let hi = list.length;
      while (lo < hi) {
        const mid = (lo + hi) >>> 1;
        const past = beyond(list[mid] as number);
        if (ascending ? !past : past) lo = mid + 1;
        else hi = mid;
      }
      return ascending ? lo : lo - 1;
    });
    const seqs: number[] = [];
    const [main, recent] = lists as [ArrayLike<number>, ArrayLike<number>];
    let [i, j] = at as [number, number];
    const step = ascending ? 1 : -1;
    const inMain = () => i >= 0 && i < main.length;
    const inRecent = () => j >= 0 && j < recent.length;
    while (seqs.length < limit && (inMain() || inRecent())) {
      let slot: number;
      const a = main[i] as number;
      const b = recent[j] as number;
      if (inMain() && (!inRecent() || step * compare(a, b) < 0)) {
        slot = a;
        i += step;
      } else {
        slot = b;
        j += step;
      }
      if (accept(slot)) seqs.push(this.seqOf[slot] as number);
    }
    return seqs;
  }

  setVerified(emails: readonly string[]): void {
    this.verifiedEmails = new Set(emails);
    this.sellerVerified.fill(0);
    for (const email of emails) {
      const code = this.sellers.find(email);
      if (code !== undefined) this.sellerVerified[code] = 1;
    }
  }

  /** A common word's slots as bits, kept and brought up to its list's end when read. */
  private readonly wordBits = new Map<string, { bits: Uint32Array; upTo: number }>();

  /** A bit array as long as the slots are now. */
  private newBits(): Uint32Array {
    return new Uint32Array((this.size + 31) >>> 5);
  }

  /** The slots that have `word`: as bits when it is common, else as its list. */
  private wordSet(word: string): SlotSet {
    const list = this.words.get(word);
    if (!list) return { list: new Int32Array(0) };
    if (list.length * BITS_FROM <= this.size) return { list: list.view() };
    let kept = this.wordBits.get(word);
    if (!kept || kept.bits.length * 32 < this.size) {
      const bits = this.newBits();
      if (kept) bits.set(kept.bits);
      kept = { bits, upTo: kept?.upTo ?? 0 };
      this.wordBits.set(word, kept);
    }
    const slots = list.view();
    for (let i = kept.upTo; i < slots.length; i++) setBit(kept.bits, slots[i] as number);
    kept.upTo = slots.length;
    return { bits: kept.bits };
  }

  /** The slots whose words match one alternative. */
  private alternative(a: WordsAlternative): SlotSet {
    if ('prefix' in a) {
      const sets: SlotSet[] = [];
      for (const word of this.words.keys()) {
        if (!word.startsWith(a.prefix)) continue;
        if (sets.length === PREFIX_WORDS_MAX) throw new TooBroad();
        sets.push(this.wordSet(word));
      }
      return this.union(sets);
    }
    return this.intersection(a.all.map((w) => this.wordSet(w)));
  }

  /** The slots in any of `sets`. */
  private union(sets: SlotSet[]): SlotSet {
    if (sets.length === 0) return { list: new Int32Array(0) };
    if (sets.length === 1) return sets[0] as SlotSet;
    const out = this.newBits();
    for (const set of sets) {
      if ('list' in set) for (const slot of set.list) setBit(out, slot);
      else
        for (let w = 0; w < set.bits.length; w++)
          out[w] = (out[w] as number) | (set.bits[w] as number);
    }
    return { bits: out };
  }

  /**
   * The slots in every one of `sets`: the lists met (shortest first) and then kept where every
   * bit set has them; bits alone ANDed word by word.
   */
  private intersection(sets: SlotSet[]): SlotSet {
    if (sets.length === 0) return { list: new Int32Array(0) };
    const lists = sets.flatMap((set) => ('list' in set ? [set.list] : []));
    const bitSets = sets.flatMap((set) => ('bits' in set ? [set.bits] : []));
    if (lists.length > 0) {
      const met = intersectAll(lists);
      if (bitSets.length === 0) return { list: met };
      const out = new Int32Array(met.length);
      let n = 0;
      for (const slot of met) if (bitSets.every((bits) => hasBit(bits, slot))) out[n++] = slot;
      return { list: out.subarray(0, n) };
    }
    const out = this.newBits();
    out.fill(0xffffffff);
    for (const bits of bitSets) {
      for (let w = 0; w < out.length; w++) out[w] = (out[w] as number) & ((bits[w] as number) ?? 0);
    }
    return { bits: out };
  }

  /** The slots matching every clause of words, or null for every slot (no words asked). */
  candidates(words: CountQuery['words']): SlotSet | null {
    if (words === undefined) return null;
    if (words === 'none') return { list: new Int32Array(0) };
    return this.intersection(
      words.map((clause) => this.union(clause.map((a) => this.alternative(a)))),
    );
  }

  count(q: CountQuery, cap: number, candidates: Candidates): number {
    let n = 0;
    this.each(this.matcher(q, candidates), () => ++n <= cap);
    return n;
  }

  /**
   * The matches counted to `cap + 1`, and the seqs of the `limit` first after the order's
   * cursor, in its order: the matches sorted when they are at most `cap`, else the sort's order
   * walked from the cursor (a page is found within limit ÷ the share of phones matching).
   */
  page(
    q: CountQuery,
    order: PageOrder,
    limit: number,
    cap: number,
    candidates: Candidates,
  ): { total: number; seqs: number[] } {
    const found: number[] = [];
    const test = this.matcher(q, candidates);
    this.each(test, (slot) => {
      found.push(slot);
      return found.length <= cap;
    });
    const total = found.length;
    if (total > cap) {
      // Many matches: walk the sort's order (a page is found within limit ÷ the share matching).
      const { candidates, matches } = test;
      if (!candidates) return { total, seqs: this.walk(order, limit, matches) };
      let bits: Uint32Array;
      if ('bits' in candidates) bits = candidates.bits;
      else {
        bits = this.newBits();
        for (const slot of candidates.list) setBit(bits, slot);
      }
      return {
        total,
        seqs: this.walk(order, limit, (slot) => hasBit(bits, slot) && matches(slot)),
      };
    }
    const seq = (slot: number) => this.seqOf[slot] as number;
    const price = (slot: number) => this.price[slot] as number;
    let keep = found;
    let compare: (a: number, b: number) => number;
    if (order.sort === 'newest') {
      const after = order.after;
      if (after) keep = found.filter((slot) => seq(slot) < after.seq);
      compare = (a, b) => seq(b) - seq(a);
    } else {
      const sign = order.sort === 'price-asc' ? 1 : -1;
      compare = (a, b) => sign * (price(a) - price(b) || seq(a) - seq(b));
      const after = order.after;
      if (after) {
        keep = found.filter(
          (slot) => sign * (price(slot) - after.price || seq(slot) - after.seq) > 0,
        );
      }
    }
    return { total, seqs: keep.sort(compare).slice(0, limit).map(seq) };
  }

  /** Calls `visit` with each matching slot until it answers false. */
  private each(test: Matcher, visit: (slot: number) => boolean): void {
    const { candidates, matches } = test;
    if (candidates) {
      eachSlot(candidates, (slot) => !matches(slot) || visit(slot));
    } else {
      for (let slot = 0; slot < this.size; slot++) if (matches(slot) && !visit(slot)) return;
    }
  }

  /** The slots the words allow (null: any), and the test of every other condition. */
  private matcher(q: CountQuery, candidates: Candidates): Matcher {
    const brandOk = q.brand && this.brands.flags(q.brand);
    const ramOk = q.ram && this.rams.flags(q.ram);
    const storageOk = q.storage && this.storages.flags(q.storage);
    const conditionOk = q.condition && this.conditions.flags(q.condition);
    const minPrice = q.minPriceCents ?? -Infinity;
    const maxPrice = q.maxPriceCents ?? Infinity;
    const minBattery = q.minBattery ?? -Infinity;
    const minHealth = q.minBatteryHealth;
    let locationOk: Uint8Array | undefined;
    if (q.location !== undefined) {
      const needle = q.location;
      locationOk = new Uint8Array(this.foldedLocations.length);
      this.foldedLocations.forEach((l, code) => {
        if (l.includes(needle)) (locationOk as Uint8Array)[code] = 1;
      });
    }
    const verifiedOk = q.verified ? this.sellerVerified : undefined;

    // The columns as locals, the rarer conditions (a city, a verified seller) first: this runs
    // for every candidate, a hundred thousand of them for two common words.
    const { status, brand, storage, ram, condition, price, battery, health, location, seller } =
      this;
    const health0 = minHealth ?? -Infinity;
    const matches = (slot: number): boolean =>
      status[slot] === AVAILABLE &&
      (!locationOk || locationOk[location[slot] as number] === 1) &&
      (!verifiedOk || verifiedOk[seller[slot] as number] === 1) &&
      (!brandOk || brandOk[brand[slot] as number] === 1) &&
      (!storageOk || storageOk[storage[slot] as number] === 1) &&
      (!ramOk || ramOk[ram[slot] as number] === 1) &&
      (!conditionOk || conditionOk[condition[slot] as number] === 1) &&
      (price[slot] as number) >= minPrice &&
      (price[slot] as number) <= maxPrice &&
      (battery[slot] as number) >= minBattery &&
      (minHealth === undefined || (health[slot] as number) >= health0);
    return { candidates: candidates(q.words), matches };
  }
}

type Matcher = { candidates: SlotSet | null; matches: (slot: number) => boolean };

/** Slots read since the orders were last merged, past which they are merged. */
const RECENT_MAX = 4_096;

/** Puts `slot` in its place in `list`, sorted by `order`. */
function insertSorted(list: number[], slot: number, order: (a: number, b: number) => number) {
  let lo = 0;
  let hi = list.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (order(list[mid] as number, slot) < 0) lo = mid + 1;
    else hi = mid;
  }
  list.splice(lo, 0, slot);
}

/** Two lists sorted by `order`, as one. */
function merge(
  main: Int32Array,
  recent: number[],
  order: (a: number, b: number) => number,
): Int32Array {
  const out = new Int32Array(main.length + recent.length);
  let i = 0;
  let j = 0;
  let n = 0;
  while (i < main.length || j < recent.length) {
    const a = main[i] as number;
    const b = recent[j] as number;
    if (j >= recent.length || (i < main.length && order(a, b) < 0)) {
      out[n++] = a;
      i++;
    } else {
      out[n++] = b;
      j++;
    }
  }
  return out;
}

/** Slots in every one of `lists` (each ascending), shortest first, ascending. */
function intersectAll(lists: Int32Array[]): Int32Array {
  if (lists.length === 0) return new Int32Array(0);
  const sorted = [...lists].sort((a, b) => a.length - b.length);
  let out = sorted[0] as Int32Array;
  for (const next of sorted.slice(1)) out = intersect(out, next);
  return out;
}

/** Slots in both `small` and `large`, galloping through the larger one. */
function intersect(small: Int32Array, large: Int32Array): Int32Array {
  const out = new Int32Array(small.length);
  let n = 0;
  if (large.length < small.length * 8) {
    // Of a like length: one walk through both.
    let j = 0;
    for (const slot of small) {
      while (j < large.length && (large[j] as number) < slot) j++;
      if (large[j] === slot) out[n++] = slot;
    }
    return out.subarray(0, n);
  }
  let at = 0;
  for (const slot of small) {
    // Gallop: double the step until past `slot`, then search that stretch.
    let step = 1;
    let hi = at;
    while (hi < large.length && (large[hi] as number) < slot) {
      at = hi;
      hi += step;
      step *= 2;
    }
    let lo = at;
    hi = Math.min(hi, large.length);
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      if ((large[mid] as number) < slot) lo = mid + 1;
      else hi = mid;
    }
    at = lo;
    if (at < large.length && large[at] === slot) out[n++] = slot;
  }
  return out.subarray(0, n);
}

type Task = () => Promise<void>;

export class SearchCounts {
  private slots: Slots | null = null;
  /** Notices and rebuilds, one at a time in the order heard. */
  private queue: Promise<void> = Promise.resolve();
  /** A rebuild waiting in the queue or under way: counts go to PostgreSQL meanwhile. */
  private rebuilding = false;
  private rebuildQueued = false;
  /** Phones named by notices and not yet read again, read together by one task in the queue. */
  private readonly changed = new Set<number>();
  private readQueued = false;
  /**
   * The searches waiting for the notice out now (`inFlight`) and for the next one: at most one
   * of a server's own notices is out at a time, however many searches come (a NOTIFY takes a
   * lock of the whole database at its commit).
   */
  private inFlight: { token: string; waiters: ((caughtUp: boolean) => void)[] } | null = null;
  private next: ((caughtUp: boolean) => void)[] = [];
  /** Own notices not back in time, in a row: past a few, searches stop waiting for them. */
  private late = 0;
  private lastProbe = 0;
  private stopListening: (() => Promise<void>) | undefined;
  private closed = false;

  /** `recentMax`: how many phones changed since the sort orders were merged (tests set it low). */
  constructor(
    private readonly database: Pick<Database, 'db' | 'listen'>,
    private readonly onError: (err: unknown) => void = (err) =>
      console.error('search counts:', err),
    private readonly recentMax = RECENT_MAX,
  ) {}

  /** Listens, then reads every phone in the background; counts come from here once it is read. */
  async start(): Promise<void> {
    this.stopListening = await this.database.listen(
      SEARCH_CHANGES_CHANNEL,
      (payload) => this.heard(payload),
      () => this.rebuild(),
    );
    this.rebuild();
  }

  async close(): Promise<void> {
    this.closed = true;
    await this.stopListening?.();
    for (const resolve of [...(this.inFlight?.waiters ?? []), ...this.next]) resolve(false);
    this.inFlight = null;
    this.next = [];
    await this.queue;
  }

  /** Whether counts come from here (read and current). */
  get ready(): boolean {
    return this.slots !== null && !this.rebuilding && !this.closed;
  }

  /** The phones held (those for sale). */
  get phones(): number {
    return this.slots ? this.slots.size - this.slots.gone : 0;
  }

  /** Resolves once every task queued before it has run (for tests and the bench). */
  async settled(): Promise<void> {
    let last: Promise<void>;
    do {
      last = this.queue;
      await last;
    } while (last !== this.queue);
  }

  /**
   * The index once every change committed before this call is in it (a search asks once, then
   * counts and pages synchronously); null when this server cannot answer for sure.
   */
  async now(): Promise<CountsNow | null> {
    if (!this.ready) return null;
    if (this.late >= LATE_MAX) {
      // Now and then a notice still goes out: once one is heard, everything is read again.
      if (!this.inFlight && Date.now() - this.lastProbe > PROBE_MS) {
        this.lastProbe = Date.now();
        void this.caughtUp();
      }
      return null;
    }
    if (!(await this.caughtUp())) return null;
    const slots = this.rebuilding ? null : this.slots;
    return slots && new CountsNow(slots);
  }

  /** Searches answered here (`server`) and by the database, since the start (metrics). */
  readonly searches = { server: 0, database: 0 };

  /** Counts a search by what answered it (the search tells, once it knows). */
  tally(by: 'server' | 'database'): void {
    this.searches[by]++;
  }

  /**
   * Resolves once a notice of this server's own, sent after this call, has come back through
   * the queue (every change committed before it is then applied): true, or false when it is not
   * back within NOTICE_WAIT_MS.
   */
  private caughtUp(): Promise<boolean> {
    return new Promise<boolean>((resolve) => {
      const timer = setTimeout(() => {
        settle(false);
      }, NOTICE_WAIT_MS);
      let settled = false;
      const settle = (caughtUp: boolean) => {
        if (settled) return;
        settled = true;
        clearTimeout(timer);
        resolve(caughtUp && !this.closed);
      };
      // The notice out now was sent before this search began: it waits for the next one.
      this.next.push(settle);
      if (!this.inFlight) this.sendNotice();
    });
  }

  private sendNotice(): void {
    if (this.closed || this.next.length === 0) return;
    const token = randomUUID();
    this.inFlight = { token, waiters: this.next };
    this.next = [];
    // Not back in time: counted late, and the searches after it send another.
    setTimeout(() => {
      if (this.inFlight?.token !== token) return;
      this.late++;
      this.noticeBack(token, false);
    }, NOTICE_WAIT_MS).unref();
    this.database.db
      .execute(sql`select pg_notify(${SEARCH_CHANGES_CHANNEL}, ${`back:${token}`})`)
      .catch((err) => {
        this.onError(err);
        this.noticeBack(token, false);
      });
  }

  /** The notice `token` is back (or failed): its searches go on, and the next notice goes out. */
  private noticeBack(token: string, caughtUp: boolean): void {
    if (this.inFlight?.token !== token) return;
    const { waiters } = this.inFlight;
    this.inFlight = null;
    for (const settle of waiters) settle(caughtUp);
    this.sendNotice();
  }

  private enqueue(task: Task): void {
    this.queue = this.queue.then(task).catch((err) => {
      // A notice that could not be applied leaves the index behind: counts go to PostgreSQL
      // until it is read again, a moment later (the database may be restarting).
      this.onError(err);
      this.slots = null;
      this.rebuilding = true;
      setTimeout(() => this.rebuild(), RETRY_MS).unref();
    });
  }

  private heard(payload: string): void {
    if (this.closed) return;
    if (this.late >= LATE_MAX) {
      // Notices stopped coming back a while ago: some may have been lost. Read everything
      // again; searches wait for their notices again once it is read.
      this.late = 0;
      this.rebuild();
    }
    if (payload.startsWith('back:')) {
      const token = payload.slice('back:'.length);
      if (this.inFlight?.token !== token) return;
      this.late = 0;
      // Being read again (seconds at a million phones): not worth waiting for.
      if (this.rebuilding) this.noticeBack(token, false);
      else this.enqueue(async () => this.noticeBack(token, true));
    } else if (payload === 'all') this.rebuild();
    else if (payload === 'sellers') this.enqueue(() => this.readSellers(this.slots));
    else if (payload.startsWith('phones:')) {
      for (const seq of payload.slice('phones:'.length).split(',').map(Number)) {
        if (Number.isSafeInteger(seq)) this.changed.add(seq);
      }
      // One task reads every phone named until it runs, in one query a thousand at a time.
      if (!this.readQueued) {
        this.readQueued = true;
        this.enqueue(() => this.readPhones());
      }
    }
  }

  /** Reads every phone again into a new index; counts go to PostgreSQL until it is read. */
  private rebuild(): void {
    if (this.closed) return;
    this.rebuilding = true;
    if (this.rebuildQueued) return;
    this.rebuildQueued = true;
    this.enqueue(async () => {
      this.rebuildQueued = false;
      // Phones named before now are read with all the others.
      this.changed.clear();
      const next = new Slots(this.recentMax);
      // Read BATCH phones for sale at a time, in seq order (slot order is seq order), from
      // `search_phones`, which holds nothing else (decision 061): a start reads the phones for
      // sale, not the history. A phone changed after its batch was read is named by its notice,
      // applied once this is done.
      let from = 0;
      for (;;) {
        const rows = await this.rows(sql`seq > ${from} order by seq limit ${BATCH}`);
        for (const row of rows) next.put(Number(row.seq), row);
        if (this.closed) return;
        const lastRow = rows.at(-1);
        if (rows.length < BATCH || !lastRow) break;
        from = Number(lastRow.seq);
      }
      await this.readSellers(next);
      next.sortAll();
      this.slots = next;
      // Another rebuild asked for meanwhile is still queued and keeps counts in PostgreSQL.
      if (!this.rebuildQueued) this.rebuilding = false;
    });
  }

  private rows(where: SQL): Promise<PhoneRow[]> {
    return rowsOf<PhoneRow>(
      this.database.db,
      sql`select ${PHONE_COLUMNS} from search_phones where ${where}`,
    );
  }

  private async readPhones(): Promise<void> {
    this.readQueued = false;
    const seqs = [...this.changed];
    this.changed.clear();
    const slots = this.slots;
    if (!slots) return;
    // Many phones changed by many statements (an import): reading all again is quicker.
    if (seqs.length > READ_AT_ONCE * 20) {
      this.rebuild();
      return;
    }
    for (let i = 0; i < seqs.length; i += READ_AT_ONCE) {
      const some = seqs.slice(i, i + READ_AT_ONCE);
      const rows = await this.rows(
        sql`seq in (${sql.join(
          some.map((seq) => sql`${seq}`),
          sql`, `,
        )})`,
      );
      const bySeq = new Map(rows.map((r) => [Number(r.seq), r]));
      for (const seq of some) slots.put(seq, bySeq.get(seq));
    }
    // Mostly gone slots: read afresh, smaller and faster.
    if (slots.gone > 10_000 && slots.gone > slots.size / 4) this.rebuild();
  }

  private async readSellers(slots: Slots | null): Promise<void> {
    if (!slots) return;
    const rows = await rowsOf<{ email: string }>(
      this.database.db,
      sql`select email from users where user_status = ${USER_STATUS_VERIFIED}`,
    );
    slots.setVerified(rows.map((r) => r.email));
  }
}
