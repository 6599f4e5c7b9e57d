/**
 * A message that asks to pay or to talk outside the marketplace (issue 34, decision 052): gift
 * cards, wire transfers, payment apps, crypto, "text me on". Contact details themselves are
 * hidden until payment already (decision 039); this catches the words around them, which a
 * scammer needs to move the deal ("pay by Zelle to save the fee"), in the languages our buyers
 * and sellers write: English, Spanish, Portuguese, French, German and Italian.
 *
 * Each pattern is a word or a short phrase with bounded gaps, tried once over a text of at most
 * MESSAGE_MAX_LENGTH characters: linear, no nested repeats.
 */

/** Whole words and phrases (a letter of any script before or after is no match), any case. */
const words = (alternatives: string) =>
  new RegExp(String.raw`(?<![\p{L}\p{N}])(?:${alternatives})(?![\p{L}\p{N}])`, 'iu');

/** Payment apps and services nobody uses to pay inside the marketplace. */
const PAYMENT_APPS = words(
  String.raw`zelle|venmo|cash\s?app|cashapp|paypal|pay\s?pal|western\s?union|moneygram|wise\.com|revolut|skrill|payoneer|bizum|paylib|satispay|postepay|mercado\s?pago|apple\s?cash|google\s?pay|gpay`,
);

/** Gift cards, as every language names them, and the usual brands asked for. */
const GIFT_CARDS = words(
  String.raw`gift\s?cards?|itunes\s?cards?|google\s?play\s?cards?|steam\s?cards?|amazon\s?cards?|tarjetas?\s+(?:de\s+)?regalo|cart(?:ão|ao|e)s?\s+(?:de\s+)?presente|cartes?\s+cadeaux?|geschenk\s?karten?|gutscheinkarten?|carte\s+regalo|buoni\s+regalo`,
);

/** Bank and wire transfers, crypto. */
const TRANSFERS = words(
  String.raw`wire\s+(?:transfer|me|the\s+money)|bank\s+transfer|direct\s+(?:bank\s+)?deposit|transferencia(?:\s+bancaria)?|transfer[eê]ncia(?:\s+banc[aá]ria)?|virement(?:\s+bancaire)?|[üu]berweisung|bonifico(?:\s+bancario)?|bitcoin|btc|ethereum|usdt|tether|crypto(?:currency)?|cripto(?:moneda)?s?|krypto`,
);

/** Asking to move the conversation or the deal elsewhere. */
const ELSEWHERE = words(
  String.raw`(?:text|message|contact|reach|add)\s+me\s+(?:on|via)|(?:let'?s\s+)?(?:talk|chat|continue)\s+(?:on|via|over)\s+(?:whats\s?app|telegram|signal|viber|wechat|sms|text|e-?mail)|outside\s+(?:the\s+)?(?:app|site|platform|marketplace|phone\s+market)|(?:avoid|skip|save|without)\s+(?:the\s+)?(?:fees?|commission)|escr[ií]beme\s+(?:por|al?|en)|háblame\s+por|fuera\s+de\s+la\s+(?:app|plataforma|p[aá]gina)|sin\s+comisi[oó]n|me\s+chama\s+no|fora\s+da\s+(?:plataforma|app)|sem\s+taxa|[ée]cris[- ]moi\s+sur|contacte[z]?[- ]moi\s+sur|hors\s+de\s+la\s+plateforme|sans\s+frais|schreib\s+mir\s+(?:auf|bei|per)|au[ßs]erhalb\s+der\s+plattform|ohne\s+geb[üu]hren?|scrivimi\s+su|fuori\s+dalla\s+piattaforma|senza\s+commissioni`,
);

const PATTERNS = [
  { kind: 'payment-app', pattern: PAYMENT_APPS },
  { kind: 'gift-card', pattern: GIFT_CARDS },
  { kind: 'transfer', pattern: TRANSFERS },
  { kind: 'elsewhere', pattern: ELSEWHERE },
] as const;
export type OffPlatformKind = (typeof PATTERNS)[number]['kind'];

/** Characters that show nothing, put inside a word to slip it past the patterns. */
const INVISIBLE = /[\u00AD\u180E\u200B-\u200F\u202A-\u202E\u2060-\u2064\uFEFF]/g;

/**
 * What in `text` asks to pay or talk outside the marketplace: the kinds found and the words that
 * matched (at most one a kind), none for an ordinary message.
 */
export function offPlatform(text: string): { kind: OffPlatformKind; words: string }[] {
  const plain = text.normalize('NFKC').replace(INVISIBLE, '');
  const found: { kind: OffPlatformKind; words: string }[] = [];
  for (const { kind, pattern } of PATTERNS) {
    const match = pattern.exec(plain);
    if (match) found.push({ kind, words: match[0] });
  }
  return found;
}
