/**
 * Messages between a buyer and a seller (issue 20). Until the buyer pays, contact details in a
 * message are hidden, so a deal is not taken off the marketplace (where neither side is
 * protected) before it exists; after the payment both sides see each other's details anyway.
 */
import { STORAGE_OPTIONS } from './constants';

export const MESSAGE_MAX_LENGTH = 2000;
export const HIDDEN_CONTACT = '[hidden until payment]';
export const HIDDEN_CONTACT_NOTICE =
  'Phone numbers, e-mail addresses and links are hidden until the buyer pays through Phone Market; then you see each other\u2019s details on the sale\u2019s page.';

/** Characters that show nothing, put between digits to slip a number past the patterns. */
const INVISIBLE = /[\u00AD\u180E\u200B-\u200F\u202A-\u202E\u2060-\u2064\uFEFF]/g;
/*
 * Every repeat below is bounded (a label of an address at most 63 characters, at most 4 more
 * labels, spaces at most 3): the mask runs on every public read of every listing's text, and an
 * unbounded repeat tried from every position of a 4,000-character description is quadratic (a
 * seller's 'a-a-a-…' held a brand page's answer for seconds, issue 29).
 */
/** A label of a name or an address: letters, digits, dashes. */
const LABEL = String.raw`[\p{L}\p{N}-]{1,63}`;
/** An address's part before the '@'. */
const LOCAL = String.raw`[\p{L}\p{N}._%+-]{1,64}`;
const SPACE = String.raw`\s{0,3}`;
/** 'at' and 'dot' as people spell them to dodge a filter: @ (spaced too), (at), [at], " at ". */
const AT = String.raw`(?:${SPACE}@${SPACE}|${SPACE}[([{]${SPACE}at${SPACE}[)\]}]${SPACE}|\s{1,3}at\s{1,3})`;
const DOT = String.raw`(?:${SPACE}\.${SPACE}|${SPACE}[([{]${SPACE}(?:dot|\.)${SPACE}[)\]}]${SPACE}|\s{1,3}dot\s{1,3})`;
/** A dot in brackets, '(dot)', '[.]', '{.}': nobody writes one but to hide a link or an address. */
const BRACKETED_DOT = String.raw`${SPACE}[([{]${SPACE}(?:dot|\.)${SPACE}[)\]}]${SPACE}`;
/** A link's path, to the next space. */
const PATH = String.raw`(?:\/\S{0,200})?`;
/** An address as written, a domain or not ('john@example'), or spelled out (then with a common ending). */
const EMAIL = new RegExp(
  String.raw`${LOCAL}@[\p{L}\p{N}][\p{L}\p{N}-]{0,62}(?:\.${LABEL}){0,4}`,
  'giu',
);
const SPELLED_EMAIL = new RegExp(
  String.raw`${LOCAL}${AT}${LABEL}(?:${DOT}${LABEL}){0,4}${DOT}(?:com|net|org|io|me|co|info|biz|edu|gov|xyz|[a-z]{2})\b${PATH}`,
  'giu',
);
/**
 * A link: with a scheme (defanged 'hxxps://', 'https[:]//' too), 'www.', a name with a common
 * ending, any name followed by a path ('scam-shop.xyz/pay'), or any name whose dot is bracketed.
 */
const LINK = new RegExp(
  [
    String.raw`\b(?:h[tx]{2}ps?|ftp)${SPACE}(?::|\[:\]|\(:\))${SPACE}\/\/\S{1,200}`,
    String.raw`\bwww${SPACE}(?:\.|${BRACKETED_DOT})\S{1,200}`,
    String.raw`\b${LABEL}(?:\.${LABEL}){0,4}\.\p{L}{2,63}\/\S{0,200}`,
    String.raw`\b${LABEL}(?:(?:\.|${BRACKETED_DOT})${LABEL}){0,4}${BRACKETED_DOT}[\p{L}\p{N}-]{2,63}\b${PATH}`,
    String.raw`\b[a-z0-9-]{1,63}(?:\.[a-z0-9-]{1,63}){0,4}\.(?:com|net|org|io|me|co|app|ly|gg|info|biz|us|uk|de|fr|in|ru|link|site|shop|store|xyz|top|online|club|live|pay|tk|to|ai|su|ua|cc|ws|gq|ml)\b${PATH}`,
  ].join('|'),
  'giu',
);
/** A handle on another service: '@someone', 'telegram: someone', 'wa.me/…' is a link already. */
const HANDLE =
  /(?<![\p{L}\p{N}])@[\p{L}\p{N}_.]{3,64}|\b(?:telegram|whatsapp|signal|viber|insta(?:gram)?|snap(?:chat)?)\s{0,3}[:@-]?\s{0,3}@?[\p{L}\p{N}_.]{3,64}|\b(?:tg|wa|ig|fb|facebook|tiktok|discord|wechat|skype|kik|line)\s{0,3}[:@]\s{0,3}@?[\p{L}\p{N}_.]{3,64}/giu;
/**
 * Seven or more digits of any script with anything but letters between them, up to five
 * characters at a time: spaces, dots, dashes, slashes, brackets, commas, '_', '|', ';'… A
 * currency sign or '%' ends a run and a price's digits start none, so '$450, $500, $600' and
 * '$1,250,000' stay prices. Past 20 digits the next run goes on hiding what follows.
 */
const PHONE = /(?<!\p{Sc})\+?\p{Nd}(?:[^\p{L}\p{Nd}\p{Sc}%]{0,5}\p{Nd}){6,20}/gu;

/**
 * A run of digits that is a date or a span of years, which a description often has ('bought
 * 12/05/2023', '2022-2023', '2023-05-14'): left as it is. A phone number's groups are not shaped
 * so (3-3-4, or a leading 0 or +).
 */
const DATE_OR_YEARS =
  /^(?:\d{1,2}[./-]\d{1,2}[./-](?:19|20)\d{2}|(?:19|20)\d{2}[./-]\d{1,2}[./-]\d{1,2}|(?:19|20)\d{2}\s?[-–]\s?(?:19|20)\d{2})$/;

/**
 * A phone's storage as the app writes it after the phone's name, 'Pixel 7 (128 GB, Good)'
 * (`phoneName`), at the end of a run of digits: never part of a number. A name ending in digits
 * ('Xiaomi 14T 2024', a code in the name) ran into it as seven digits and was hidden. Only the
 * app's own sizes, followed by their unit and the comma before the condition.
 */
const STORAGE_TAIL = new RegExp(
  String.raw`\s?\((?:${STORAGE_OPTIONS.map((o) => o.split(' ')[0]).join('|')})$`,
);
const STORAGE_UNIT = /^ [GT]B, /;

/** What each pattern needs to match at all, tested in one linear pass before it is tried. */
const MAY_SPELL_AN_ADDRESS = /@|\bat\b/i;
const MAY_LINK = /[./]|\b(?:dot|www)\b/i;
const MAY_HANDLE = /[@:]|telegram|whatsapp|signal|viber|insta|snap/i;
const SEVEN_DIGITS = /(?:\p{Nd}\D{0,5}){7}/u;

/** Texts masked lately: the same listings are read again and again (a bounded memo). */
const masked = new Map<string, string>();
const MASKED_KEPT = 5000;

/** The text with every contact detail hidden (names, meeting points, messages, listings). */
export function withoutContacts(text: string): string {
  let shown = masked.get(text);
  if (shown === undefined) {
    shown = hideContacts(text).text;
    if (masked.size >= MASKED_KEPT) masked.clear();
    masked.set(text, shown);
  }
  return shown;
}

/** The text with every contact detail hidden, and whether any was. */
export function hideContacts(text: string): { text: string; hidden: boolean } {
  let hidden = false;
  const hide = () => {
    hidden = true;
    return HIDDEN_CONTACT;
  };
  // Full-width and other compatibility forms read as their plain letters and digits (０７７ is
  // 077, ＠ is @), and nothing invisible sits between them.
  const plain = text.normalize('NFKC').replace(INVISIBLE, '');
  // Each pattern only where what it needs is there: most texts have no '@', no link's dot or
  // slash, and no seven digits, and are read on every public answer.
  let out = plain;
  if (out.includes('@')) out = out.replace(EMAIL, hide);
  if (MAY_SPELL_AN_ADDRESS.test(out)) out = out.replace(SPELLED_EMAIL, hide);
  if (MAY_LINK.test(out)) out = out.replace(LINK, hide);
  if (MAY_HANDLE.test(out)) out = out.replace(HANDLE, hide);
  if (SEVEN_DIGITS.test(out))
    out = out.replace(PHONE, (run: string, at: number, whole: string) => {
      const storage = STORAGE_TAIL.exec(run);
      if (!storage || !STORAGE_UNIT.test(whole.slice(at + run.length, at + run.length + 5)))
        return DATE_OR_YEARS.test(run) ? run : hide();
      const name = run.slice(0, storage.index);
      const digits = name.match(/\p{Nd}/gu)?.length ?? 0;
      return digits < 7 || DATE_OR_YEARS.test(name) ? run : hide() + storage[0];
    });
  return { text: hidden ? out : text, hidden };
}
