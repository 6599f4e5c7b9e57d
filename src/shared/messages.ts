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
/** 'at' and 'dot' as people spell them to dodge a filter: @, (at), [at], " at ". */
const AT = String.raw`(?:@|\s*[([{]\s*at\s*[)\]}]\s*|\s+at\s+)`;
const DOT = String.raw`(?:\.|\s*[([{]\s*dot\s*[)\]}]\s*|\s+dot\s+)`;
/** An address as written (any domain), or spelled out (then with a common ending only). */
const EMAIL = /[\p{L}\p{N}._%+-]+@[\p{L}\p{N}-]+(?:\.[\p{L}\p{N}-]+)*\.\p{L}{2,}/giu;
const SPELLED_EMAIL = new RegExp(
  String.raw`[\p{L}\p{N}._%+-]+${AT}[\p{L}\p{N}-]+(?:${DOT}[\p{L}\p{N}-]+)*${DOT}(?:com|net|org|io|me|co|info|biz|edu|gov|[a-z]{2})\b`,
  'giu',
);
const LINK =
  /\b(?:https?:\/\/|www\.)\S+|\b[a-z0-9-]+(?:\.[a-z0-9-]+)*\.(?:com|net|org|io|me|co|app|ly|gg|info|biz|us|uk|de|fr|in|ru|link|site|shop|store)\b(?:\/\S*)?/giu;
/** A handle on another service: '@someone', 'telegram: someone', 'wa.me/…' is a link already. */
const HANDLE =
  /(?<![\p{L}\p{N}])@[\p{L}\p{N}_.]{3,}|\b(?:telegram|whatsapp|signal|viber|insta(?:gram)?|snap(?:chat)?)\s*[:@-]?\s*@?[\p{L}\p{N}_.]{3,}/giu;
/** Seven or more digits of any script, with spaces, dots, dashes, slashes or brackets between. */
const PHONE = /\+?\p{Nd}(?:[\s().\-/]{0,3}\p{Nd}){6,}/gu;

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
