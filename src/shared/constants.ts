/** Business constants of spec section 9, shared by server and client. */

export const CATEGORIES = [
  { categoryId: '01', name: 'Apple' },
  { categoryId: '02', name: 'Samsung' },
  { categoryId: '03', name: 'Infinix' },
  { categoryId: '04', name: 'Oppo' },
  { categoryId: '05', name: 'Xiaomi' },
] as const;

export type CategoryCode = (typeof CATEGORIES)[number]['categoryId'];
export const CATEGORY_CODES = CATEGORIES.map((c) => c.categoryId) as [
  CategoryCode,
  ...CategoryCode[],
];

export const RAM_OPTIONS = ['4 GB', '6 GB', '8 GB', '12 GB', '16 GB'] as const;
/** '1 GTB' is the spec's spelling of the value; it is shown as '1 TB'. */
export const STORAGE_OPTIONS = ['32 GB', '64 GB', '128 GB', '256 GB', '1 GTB'] as const;
export const CONDITION_OPTIONS = ['Brand New', 'Flawless', 'Good', 'Fair', 'Minor Damage'] as const;

/** Battery health in percent a listing may state (issue 19); it is optional. */
export const BATTERY_HEALTH_MIN = 50;
export const BATTERY_HEALTH_MAX = 100;

/**
 * The fair-price guide (issue 19): completed sales between unrelated accounts of the last
 * PRICE_GUIDE_DAYS days of the same model and storage, outliers trimmed; condition too where it
 * has PRICE_GUIDE_MIN_SALES of its own. A card says "Good price" or "High price" only with at
 * least that many comparable sales. Either needs sales by PRICE_GUIDE_MIN_PARTIES sellers to as
 * many buyers (issue 29, decision 038): one person's prices are not the market's.
 */
export const PRICE_GUIDE_DAYS = 90;
export const PRICE_GUIDE_MIN_SALES = 5;
export const PRICE_GUIDE_MIN_PARTIES = 3;

/**
 * A model's price history (issue 33, decision 051): the same counted sales over the last
 * PRICE_HISTORY_WEEKS weeks (the current one included), by week. The whole history speaks by the
 * guide's rule; a week is drawn only with sales by PRICE_HISTORY_WEEK_MIN_PARTIES sellers to as
 * many buyers, so no one seller draws a point of the chart.
 */
export const PRICE_HISTORY_WEEKS = 52;
export const PRICE_HISTORY_WEEK_MIN_PARTIES = 2;

/**
 * What sells (issue 35, decision 055): a seller's views and sales by week over the last
 * WHAT_SELLS_WEEKS weeks (the current one included); per model they sell, the market's median
 * days to sell and the median price of the phones like theirs that sold within QUICK_SALE_DAYS
 * days of listing, each only with the price guide's PRICE_GUIDE_MIN_SALES sales by
 * PRICE_GUIDE_MIN_PARTIES sellers to as many buyers in its PRICE_GUIDE_DAYS days. Figures per
 * listing for a seller's newest WHAT_SELLS_MAX_LISTINGS (My Products' page), models of their
 * newest WHAT_SELLS_MAX_MODELS.
 */
export const WHAT_SELLS_WEEKS = 12;
export const QUICK_SALE_DAYS = 7;
export const WHAT_SELLS_MAX_LISTINGS = 100;
export const WHAT_SELLS_MAX_MODELS = 20;

/**
 * The header the phone page's own call for its phone sends (decision 055's addendum): only that
 * call counts a view, so nothing else that reads a phone (the server's renderer, a script, a
 * future prefetch) counts one.
 */
export const PHONE_SHOWN_HEADER = 'x-phone-shown';

/** Photos of one phone, the cover first (issue 18). */
export const PRODUCT_PHOTOS_MAX = 6;

/** The search's sort orders (`sort=` of /search and GET /api/search), the first the default. */
export const SEARCH_SORTS = ['newest', 'price-asc', 'price-desc'] as const;
export type SearchSort = (typeof SEARCH_SORTS)[number];
/** Longest free text a search takes, and the most words of it that count. */
export const SEARCH_TEXT_MAX = 100;
export const SEARCH_WORDS_MAX = 8;
/** Saved searches (issue 33): at most this many an account, each named in at most this many characters. */
export const SAVED_SEARCHES_MAX = 25;
export const SAVED_SEARCH_NAME_MAX = 60;
/** How a saved search tells of new phones: at once (bell and mail), or in a daily digest. */
export const SAVED_SEARCH_FREQUENCIES = ['instant', 'daily'] as const;
export type SavedSearchFrequency = (typeof SAVED_SEARCH_FREQUENCIES)[number];
/** A search counts its results up to this many and then says "1,000+" (counting on is slow). */
export const SEARCH_COUNT_CAP = 1000;

/**
 * Similar phones on a phone's page (issue 33, decision 050): at most this many, of its model and
 * storage first, then of its brand priced within this fraction of its price (±30 %).
 */
export const SIMILAR_PHONES = 6;
export const SIMILAR_PRICE_BAND = 0.3;

export const IMAGE_EXTENSIONS = ['jpg', 'jpeg', 'png', 'webp'] as const;
export const PASSWORD_MIN_LENGTH = 6;
/** A person's display name, wherever it enters (sign-up, Google, the user record). */
export const NAME_MAX_LENGTH = 100;

export const BLOG_PREVIEW_LENGTH = 120;
export const BLOG_ARTICLE_COUNT = 4;
export const CAROUSEL_SLIDES = 4;

export const PAGE_LIMIT_DEFAULT = 24;
export const PAGE_LIMIT_MAX = 100;

export const QUERY_CACHE_MS = 5 * 60 * 1000;
export const CHUNK_LOAD_TIMEOUT_MS = 120_000;

export const TOAST_GUTTER_PX = 8;

/** Widths (px) of the WebP variants the image host stores; the middle one is `data.url`. */
export const IMAGE_WIDTHS = [320, 640, 960] as const;
export const IMAGE_DEFAULT_WIDTH = 640;

export const ACCESS_TOKEN_STORAGE_KEY = 'accessToken';

/**
 * `withdrawn` (issue 19): off the market by its seller or a blocked IMEI; never in public lists.
 * `held` (issue 34): held back by its risk signals until the admin clears it; seen by its seller
 * ("Under review") and the admin alone, in no public answer or page.
 */
export const PRODUCT_STATUS = {
  sold: 'sold',
  available: 'available',
  withdrawn: 'withdrawn',
  held: 'held',
} as const;
export const ORDER_STATUS = { paid: 'paid', unpaid: 'unpaid' } as const;
export const USER_STATUS_VERIFIED = 'verified';
export const USER_TYPES = ['user', 'seller'] as const;
