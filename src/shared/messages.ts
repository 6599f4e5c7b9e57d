/**
 * Messages between a buyer and a seller (issue 20). Until the buyer pays, contact details in a
 * message are hidden, so a deal is not taken off the marketplace (where neither side is
 * protected) before it exists; after the payment both sides see each other's details anyway.
 */
export const MESSAGE_MAX_LENGTH = 2000;
export const HIDDEN_CONTACT = '[hidden until payment]';
export const HIDDEN_CONTACT_NOTICE =
  'Phone numbers, e-mail addresses and links are hidden until the buyer pays through Phone Market; then you see each other\u2019s details on the sale\u2019s page.';

const EMAIL = /[A-Z0-9._%+-]+(?:@|\s*\(at\)\s*)[A-Z0-9-]+(?:\.[A-Z0-9-]+)*\.[A-Z]{2,}/gi;
const LINK =
  /\b(?:https?:\/\/|www\.)\S+|\b[a-z0-9-]+(?:\.[a-z0-9-]+)*\.(?:com|net|org|io|me|co|app|ly|gg|info|biz|us|uk|de|fr|in|ru|link|site|shop|store)\b(?:\/\S*)?/gi;
/** Seven or more digits, with spaces, dots, dashes or brackets between: a phone number. */
const PHONE = /\+?\d(?:[\s().-]{0,3}\d){6,}/g;

/** The text with every contact detail hidden, and whether any was. */
export function hideContacts(text: string): { text: string; hidden: boolean } {
  let hidden = false;
  const hide = () => {
    hidden = true;
    return HIDDEN_CONTACT;
  };
  const out = text.replace(EMAIL, hide).replace(LINK, hide).replace(PHONE, hide);
  return { text: out, hidden };
}
