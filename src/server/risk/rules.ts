/**
 * The risk rules (issue 34, decision 052): each a name, a weight and its thresholds, here and
 * nowhere else, and the plain sentence the admin reads when it fires. A listing whose own
 * signals and its seller's add up to HOLD_AT or more is held back from buyers until the admin
 * clears it. The weights are chosen so that no single weak signal holds a listing (an honest
 * seller's bargain, a new seller's first good phones) and two independent ones do; a seller
 * tied to a banned account, or reported by many people, is held on that alone.
 */
import { dollars } from '../repositories/money';

/** A listing is held when its signals and its seller's add up to this. */
export const HOLD_AT = 60;

export const RULES = {
  /** A price far below what phones like it sold for (the price guide's median). */
  priceBelowGuide: {
    name: 'price-below-guide',
    /** At or below this share of the median: a bargain worth a look. */
    below: 0.5,
    weight: 30,
    /** At or below this share: too good to be true. */
    farBelow: 0.3,
    farWeight: 50,
  },
  /** A photo already shown on another seller's listing (a perceptual match, decision 054). */
  reusedPhoto: { name: 'reused-photo', weight: 50 },
  /** A new account listing several high-value phones in its first days. */
  newSellerHighValue: {
    name: 'new-seller-high-value',
    days: 7,
    minPriceCents: 50_000,
    listings: 3,
    weight: 30,
  },
  /**
   * An account that paid with a card of a banned account or signed in on one of its devices (its
   * browser brought back the device cookie: one person's, at most a household's; only a device
   * few accounts use), both holding alone; or was seen from one of its client addresses (shared
   * by households, campuses and carriers: less, and only an address few accounts use).
   */
  bannedLink: { name: 'banned-link', weight: 60, deviceWeight: 60, addressWeight: 40 },
  /**
   * Many reports from distinct people, of a listing or of a seller (accounts seen from one client
   * address count as one). Never enough to hold alone: three throwaway accounts must not take a
   * rival's shop off sale; it raises the listing in the queue and adds to another signal.
   */
  reports: { name: 'reports', some: 2, someWeight: 20, many: 3, manyWeight: 40 },
  /**
   * Messages that ask to pay or talk outside the marketplace before a payment (decision 052's word
   * lists); after one, arranging the meeting is what the two sides are meant to do.
   */
  offPlatform: { name: 'off-platform', weight: 20, perMessage: 10, max: 40 },
} as const;

export type RuleName = (typeof RULES)[keyof typeof RULES]['name'];

/** A rule that fired: its weight now, and what it saw (for its sentence and the queue). */
export type Fired = { rule: RuleName; weight: number; detail: Record<string, unknown> };

/** Items as said: "a, b and c". */
const spoken = (items: readonly string[]) =>
  items.length < 2 ? items.join('') : `${items.slice(0, -1).join(', ')} and ${items.at(-1)}`;

const percent = (share: number) => `${Math.round(share * 100)}%`;
const plural = (n: number, one: string, many = `${one}s`) => `${n} ${n === 1 ? one : many}`;

/** The admin's sentence for a signal, from its rule and detail. */
export function sentenceOf(rule: string, detail: Record<string, unknown>): string {
  const n = (key: string) => Number(detail[key] ?? 0);
  const list = (key: string) => ((detail[key] as string[] | undefined) ?? []).join(', ');
  switch (rule) {
    case RULES.priceBelowGuide.name:
      return `Priced at ${dollars(n('priceCents'))}, ${percent(n('share'))} of the ${dollars(n('medianCents'))} that phones like it sold for lately.`;
    case RULES.reusedPhoto.name:
      return `${plural(n('photos'), 'photo')} also shown on another seller's listing.`;
    case RULES.newSellerHighValue.name:
      return `An account ${plural(n('ageDays'), 'day')} old listing ${plural(n('listings'), 'phone')} over ${dollars(RULES.newSellerHighValue.minPriceCents)}.`;
    case RULES.bannedLink.name:
      return `Seen with ${spoken((detail.kinds as string[] | undefined) ?? [])} of a banned account.`;
    case RULES.reports.name:
      return `Reported by ${plural(n('reporters'), 'person', 'people')}.`;
    case RULES.offPlatform.name:
      return `Asked to pay or talk outside Phone Market in ${plural(n('messages'), 'message')} (${list('words')}).`;
    default:
      return rule;
  }
}

/** The price rule: what a price is worth against the guide's median (null: nothing to say). */
export function priceSignal(priceCents: number, medianCents: number | null): Fired | null {
  if (!medianCents || medianCents <= 0) return null;
  const share = priceCents / medianCents;
  const rule = RULES.priceBelowGuide;
  if (share > rule.below) return null;
  return {
    rule: rule.name,
    weight: share <= rule.farBelow ? rule.farWeight : rule.weight,
    detail: { priceCents, medianCents, share },
  };
}

/** The reports rule: distinct reporters of a listing or of a seller. */
export function reportsSignal(reporters: number): Fired | null {
  const rule = RULES.reports;
  if (reporters < rule.some) return null;
  return {
    rule: rule.name,
    weight: reporters >= rule.many ? rule.manyWeight : rule.someWeight,
    detail: { reporters },
  };
}

/** What of a banned account's an account was seen with, in the admin's words. */
const LINK_WORDS = { address: 'a client address', card: 'a card', device: 'a device' } as const;
export type LinkKind = keyof typeof LINK_WORDS;

/** The banned-link rule: the kinds of a banned account's marks an account was seen with. */
export function bannedLinkSignal(kinds: readonly LinkKind[]): Fired | null {
  if (kinds.length === 0) return null;
  const rule = RULES.bannedLink;
  const weightOf = { address: rule.addressWeight, card: rule.weight, device: rule.deviceWeight };
  return {
    rule: rule.name,
    weight: Math.max(...kinds.map((k) => weightOf[k])),
    detail: { kinds: [...new Set(kinds)].map((k) => LINK_WORDS[k]).sort() },
  };
}
