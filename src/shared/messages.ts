/**
 * Messages between a buyer and a seller (issue 20). Until the buyer pays, contact details in a
 * message are hidden, so a deal is not taken off the marketplace (where neither side is
 * protected) before it exists; after the payment both sides see each other's details anyway.
 */
export const MESSAGE_MAX_LENGTH = 2000;
export const HIDDEN_CONTACT = '[hidden until payment]';
export const HIDDEN_CONTACT_NOTICE =
  'Phone numbers, e-mail addresses and links are hidden until the buyer pays through Phone Market; then you see each other\u2019s details on the sale\u2019s page.';

/** Characters that show nothing, put between digits to slip a number past the patterns. */
const INVISIBLE = /[\u00AD\u180E\u200B-\u200F\u202A-\u202E\u2060-\u2064\uFEFF]/g;
/** 'at' and 'dot' as people spell them to dodge a filter: @ (spaced too), (at), [at], " at ". */
const AT = String.raw`(?:\s*@\s*|\s*[([{]\s*at\s*[)\]}]\s*|\s+at\s+)`;
const DOT = String.raw`(?:\s*\.\s*|\s*[([{]\s*(?:dot|\.)\s*[)\]}]\s*|\s+dot\s+)`;
/** A dot in brackets, '(dot)', '[.]', '{.}': nobody writes one but to hide a link or an address. */
const BRACKETED_DOT = String.raw`\s*[([{]\s*(?:dot|\.)\s*[)\]}]\s*`;
/** An address as written, a domain or not ('john@example'), or spelled out (then with a common ending). */
const EMAIL = /[\p{L}\p{N}._%+-]+@[\p{L}\p{N}][\p{L}\p{N}-]*(?:\.[\p{L}\p{N}-]+)*/giu;
const SPELLED_EMAIL = new RegExp(
  String.raw`[\p{L}\p{N}._%+-]+${AT}[\p{L}\p{N}-]+(?:${DOT}[\p{L}\p{N}-]+)*${DOT}(?:com|net|org|io|me|co|info|biz|edu|gov|xyz|[a-z]{2})\b(?:\/\S*)?`,
  'giu',
);
/**
 * A link: with a scheme (defanged 'hxxps://', 'https[:]//' too), 'www.', a name with a common
 * ending, any name followed by a path ('scam-shop.xyz/pay'), or any name whose dot is bracketed.
 */
const LINK = new RegExp(
  [
    String.raw`\b(?:h[tx]{2}ps?|ftp)\s*(?::|\[:\]|\(:\))\s*\/\/\S+`,
    String.raw`\bwww\s*(?:\.|${BRACKETED_DOT})\S+`,
    String.raw`\b[\p{L}\p{N}-]+(?:\.[\p{L}\p{N}-]+)*\.\p{L}{2,}\/\S*`,
    String.raw`\b[\p{L}\p{N}-]+(?:(?:\.|${BRACKETED_DOT})[\p{L}\p{N}-]+)*${BRACKETED_DOT}[\p{L}\p{N}-]{2,}\b(?:\/\S*)?`,
    String.raw`\b[a-z0-9-]+(?:\.[a-z0-9-]+)*\.(?:com|net|org|io|me|co|app|ly|gg|info|biz|us|uk|de|fr|in|ru|link|site|shop|store|xyz|top|online|club|live|pay)\b(?:\/\S*)?`,
  ].join('|'),
  'giu',
);
/** A handle on another service: '@someone', 'telegram: someone', 'wa.me/…' is a link already. */
const HANDLE =
  /(?<![\p{L}\p{N}])@[\p{L}\p{N}_.]{3,}|\b(?:telegram|whatsapp|signal|viber|insta(?:gram)?|snap(?:chat)?)\s*[:@-]?\s*@?[\p{L}\p{N}_.]{3,}/giu;
/**
 * Seven or more digits of any script with anything but letters between them, up to three
 * characters at a time: spaces, dots, dashes, slashes, brackets, commas, '_', '|', ';'… A
 * currency sign or '%' ends a run and a price's digits start none, so '$450, $500, $600' and
 * '$1,250,000' stay prices.
 */
const PHONE = /(?<!\p{Sc})\+?\p{Nd}(?:[^\p{L}\p{Nd}\p{Sc}%]{0,3}\p{Nd}){6,}/gu;

/** The text with every contact detail hidden (names, meeting points, messages, listings). */
export const withoutContacts = (text: string): string => hideContacts(text).text;

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
  const out = plain
    .replace(EMAIL, hide)
    .replace(SPELLED_EMAIL, hide)
    .replace(LINK, hide)
    .replace(HANDLE, hide)
    .replace(PHONE, hide);
  return { text: hidden ? out : text, hidden };
}
