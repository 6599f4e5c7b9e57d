/** Environment variables, parsed once at start; a bad value stops the start naming the variable. */
import { isIP } from 'node:net';
import path from 'node:path';
import { z } from 'zod';

const flag = (fallback: boolean) =>
  z
    .enum(['0', '1', 'true', 'false'], { error: 'must be 0, 1, true or false' })
    .optional()
    .transform((v) => (v === undefined ? fallback : v === '1' || v === 'true'));

/** An IPv4 or IPv6 address, or a CIDR range of either (`10.0.0.0/8`, `fd00::/8`). */
function isAddressOrRange(entry: string): boolean {
  const [address = '', bits, ...rest] = entry.split('/');
  const version = isIP(address);
  if (version === 0 || rest.length > 0) return false;
  if (bits === undefined) return true;
  return /^\d{1,3}$/.test(bits) && Number(bits) <= (version === 4 ? 32 : 128);
}

/**
 * Which proxies' X-Forwarded-For to believe, as Fastify's `trustProxy` takes it: none (false),
 * a hop count, or addresses and CIDR ranges.
 */
const trustedProxies = z
  .string()
  .default('')
  .transform((v, ctx): false | number | string[] => {
    const text = v.trim();
    if (/^\d+$/.test(text)) return Number(text) === 0 ? false : Number(text);
    const entries = text
      .split(',')
      .map((e) => e.trim())
      .filter(Boolean);
    if (entries.length === 0) return false;
    if (entries.every(isAddressOrRange)) return entries;
    ctx.addIssue({
      code: 'custom',
      message:
        'must be a comma-separated list of IP addresses and CIDR ranges, or a number of proxies',
    });
    return z.NEVER;
  });

const stripeVariables = [
  'STRIPE_SECRET_KEY',
  'STRIPE_PUBLISHABLE_KEY',
  'STRIPE_WEBHOOK_SECRET',
] as const;

const envSchema = z
  .object({
    NODE_ENV: z.enum(['development', 'production', 'test']).default('production'),
    PORT: z.coerce.number().int().min(0).max(65535).default(3000),
    HOST: z.string().min(1).default('0.0.0.0'),
    DATA_DIR: z.string().min(1).default('./data'),
    DATABASE_URL: z
      .string()
      .regex(/^postgres(ql)?:\/\//, 'must be a postgres:// or postgresql:// URL')
      .optional(),
    /**
     * A read replica of DATABASE_URL's PostgreSQL (haproxy's replica port, a provider's reader
     * endpoint): the public catalog, the search and the phone pages read there, and each person's
     * reads only once it has replayed their own writes (decision 048). Unset, every read is the
     * primary's.
     */
    DATABASE_READ_URL: z
      .string()
      .regex(/^postgres(ql)?:\/\//, 'must be a postgres:// or postgresql:// URL')
      .optional(),
    SEED_DEMO: flag(true),
    ADMIN_EMAILS: z
      .string()
      .default('')
      .transform((v) =>
        v
          .split(',')
          .map((e) => e.trim().toLowerCase())
          .filter(Boolean),
      )
      .pipe(z.array(z.email({ error: 'must be a comma-separated list of e-mail addresses' }))),
    PUBLIC_URL: z.url({ error: 'must be an absolute http(s) URL' }).optional(),
    /**
     * The proxies whose X-Forwarded-For gives the client's address (the sign-in lockout and the
     * sign-up limits count per address); unset, none: the address is the connection's.
     */
    TRUSTED_PROXIES: trustedProxies,
    /**
     * How long a client may take to send a whole request, headers and body; past it the answer
     * is 408 and the connection is closed (checked every tenth of it, so within 1.1 times it).
     */
    REQUEST_TIMEOUT_MS: z.coerce.number().int().min(500).max(300_000).default(50_000),
    /** New accounts one client address may make in 10 minutes (decision 017). */
    SIGN_UPS_PER_ADDRESS: z.coerce.number().int().min(1).default(10),
    /** New accounts all clients together may make in 10 minutes: a flood's ceiling. */
    SIGN_UPS_IN_ALL: z.coerce.number().int().min(1).default(200),
    /**
     * Calls a minute one client address may make to each identity endpoint (the identity
     * provider's own limiter, a second layer behind ours); 0 turns it off.
     */
    IDENTITY_RATE_LIMIT: z.coerce.number().int().min(0).default(60),
    /** Searches a minute one client address may make (GET /api/search costs more than a list). */
    SEARCH_RATE_LIMIT: z.coerce.number().int().min(1).default(120),
    /**
     * Where the search counts its matches (decision 034): `memory`, in each server beside the
     * table (PostgreSQL when it cannot answer for sure); `database`, always in PostgreSQL.
     */
    SEARCH_COUNTS: z.enum(['memory', 'database']).default('memory'),
    /**
     * How long the public catalog reads reuse an answer (decision 015); 0 turns reuse off. This
     * process's own writes drop kept answers at once; this bounds how late another's show.
     */
    PUBLIC_CACHE_MS: z.coerce.number().int().min(0).max(60_000).default(1000),
    /** How often the views of phones' pages are written, in one batch (decision 055). */
    VIEW_FLUSH_MS: z.coerce.number().int().min(100).max(60_000).default(5000),
    /**
     * Whether views of phones' pages are counted at all (decision 055's addendum): an operator's
     * switch, and the bench's, which measures the phone page with and without counting.
     */
    COUNT_VIEWS: flag(true),
    /**
     * URLs in one file of the sitemap (/sitemaps/products-N.xml): at most 50,000, the sitemap
     * protocol's limit; the tests set it low to see the files split.
     */
    SITEMAP_URLS_PER_FILE: z.coerce.number().int().min(1).max(50_000).default(50_000),
    /**
     * How long a paid sale may wait for its handover before the hold on the buyer's card is
     * released and the phone is for sale again: at most 7 days, within a card authorisation's
     * life. Fractions are allowed (the soak uses seconds).
     */
    HOLD_DAYS: z.coerce
      .number({ error: 'must be a number of days' })
      .positive('must be more than 0')
      .max(7, 'must be at most 7 (a card authorisation lasts about a week)')
      .default(7),
    /**
     * The marketplace's fee on a completed sale (issue 30, decision 041): a percent of the price
     * rounded half up to the cent, at least MARKETPLACE_FEE_MIN_CENTS, never more than the price.
     */
    MARKETPLACE_FEE_PERCENT: z.coerce
      .number({ error: 'must be a number (5 for 5%)' })
      .min(0, 'must be at least 0')
      .max(50, 'must be at most 50')
      .refine(
        (n) => Math.abs(n * 100 - Math.round(n * 100)) < 1e-9,
        'must have at most two decimals',
      )
      .default(5),
    MARKETPLACE_FEE_MIN_CENTS: z.coerce
      .number({ error: 'must be a whole number of cents' })
      .int('must be a whole number of cents')
      .min(0, 'must be at least 0')
      .default(0),
    /**
     * How long after the handover a seller's share stays pending before it may be paid out: the
     * buyer's report window (7 days) by default, the issue's rule. Shorter (the soak, a walk-through
     * in minutes), a report may come after the payout: a refund then takes the money back
     * (decision 041). Fractions are allowed.
     */
    FUNDS_HOLD_HOURS: z.coerce
      .number({ error: 'must be a number of hours' })
      .min(0, 'must be at least 0')
      .max(24 * 90, 'must be at most 2160 (90 days)')
      .default(24 * 7),
    /**
     * When available balances are paid out: `daily` (each day from 00:00 UTC), `weekly` (Mondays),
     * `hourly`, or every N seconds (`60s`; the soak and the walk-through use short periods).
     */
    PAYOUT_SCHEDULE: z
      .string()
      .regex(/^(daily|weekly|hourly|[1-9]\d{0,6}s)$/, {
        error: 'must be daily, weekly, hourly or a number of seconds such as 60s',
      })
      .default('daily'),
    /** How long payouts wait after a seller changes their payout account (takeover protection). */
    PAYOUT_ACCOUNT_HOLD_HOURS: z.coerce
      .number({ error: 'must be a number of hours' })
      .min(0, 'must be at least 0')
      .max(24 * 30, 'must be at most 720')
      .default(24),
    /**
     * How long a daily saved search's phones wait to be told together (issue 33): a digest goes
     * out once the oldest waiting phone is this old, at most one a person in this long.
     */
    SAVED_SEARCH_DIGEST_HOURS: z.coerce
      .number({ error: 'must be a number of hours' })
      .min(0.001, 'must be more than 0')
      .max(24 * 7, 'must be at most 168')
      .default(24),
    /** How often the timed work (expiring holds, unfinished money steps) runs, in ms. */
    TIMED_WORK_MS: z.coerce.number().int().min(100).max(3_600_000).default(30_000),
    LOG_LEVEL: z
      .enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'])
      .default('info'),
    /** Signs identity sessions; generated once into DATA_DIR when unset. */
    BETTER_AUTH_SECRET: z.string().min(32, 'must be at least 32 characters').optional(),
    /** Signs the product server's access tokens; generated once into DATA_DIR when unset. */
    JWT_SECRET: z.string().min(32, 'must be at least 32 characters').optional(),
    /** Keys the IMEIs' hashes and seals (decision 024); generated once into DATA_DIR when unset. */
    IMEI_KEY: z.string().min(32, 'must be at least 32 characters').optional(),
    /** With a key, the client uploads photos to this imgbb-compatible host instead of ours. */
    IMGBB_API_KEY: z.string().min(1).optional(),
    IMGBB_UPLOAD_URL: z
      .url({ error: 'must be an absolute http(s) URL' })
      .default('https://api.imgbb.com/1/upload'),
    /** Where that host serves the photos it stores; product images must come from here or from us. */
    IMGBB_IMAGE_ORIGIN: z
      .url({ error: 'must be an absolute http(s) URL' })
      .default('https://i.ibb.co'),
    /** With both Stripe keys (test mode) and the webhook secret, cards are charged through Stripe. */
    STRIPE_SECRET_KEY: z
      .string()
      .regex(/^sk_test_\w+$/, 'must be a Stripe test-mode secret key (sk_test_…)')
      .optional(),
    STRIPE_PUBLISHABLE_KEY: z
      .string()
      .regex(/^pk_test_\w+$/, 'must be a Stripe test-mode publishable key (pk_test_…)')
      .optional(),
    STRIPE_WEBHOOK_SECRET: z
      .string()
      .regex(/^whsec_\w+$/, "must be the webhook's signing secret (whsec_…)")
      .optional(),
    /**
     * Stripe signs the events of connected accounts (sellers' `account.updated`) with the secret
     * of a second endpoint, one that listens to connected accounts; point it at the same URL and
     * set its secret here. Unset, only STRIPE_WEBHOOK_SECRET's events count (the Stripe CLI's
     * `stripe listen` signs both kinds with one secret).
     */
    STRIPE_CONNECT_WEBHOOK_SECRET: z
      .string()
      .regex(/^whsec_\w+$/, "must be the Connect webhook's signing secret (whsec_…)")
      .optional(),
    /** Where Stripe's API answers (tests point it at a local double). */
    STRIPE_API_URL: z
      .url({ error: 'must be an absolute http(s) URL' })
      .default('https://api.stripe.com'),
    /**
     * With MAIL_FROM, mail goes out through this SMTP server (smtp:// or smtps://, user and
     * password in the URL); unset, every mail is kept as a file under DATA_DIR/mail.
     */
    SMTP_URL: z
      .string()
      .regex(/^smtps?:\/\/[^\s]+$/, 'must be an smtp:// or smtps:// URL')
      .optional(),
    /** The sender of every mail, an address or 'Name <address>'. */
    MAIL_FROM: z
      .string()
      .regex(
        /^([^<>\r\n]+<[^\s<>@]+@[^\s<>@]+>|[^\s<>@]+@[^\s<>@]+)$/,
        'must be an address or Name <address>',
      )
      .optional(),
    /**
     * With a bucket, photos are kept in S3-compatible object storage instead of DATA_DIR/uploads,
     * so every server behind a load balancer reads the same photos (decision 030).
     */
    S3_BUCKET: z.string().min(1).optional(),
    /** The object store's address (MinIO, R2, a test server); unset, AWS's own for S3_REGION. */
    S3_ENDPOINT: z.url({ error: 'must be an absolute http(s) URL' }).optional(),
    S3_REGION: z.string().min(1).default('us-east-1'),
    S3_ACCESS_KEY_ID: z.string().min(1).optional(),
    S3_SECRET_ACCESS_KEY: z.string().min(1).optional(),
    /**
     * Where browsers fetch the bucket's photos (a CDN in front of it); unset, the servers pass
     * them through from the bucket at the same /images/ URLs.
     */
    S3_PUBLIC_URL: z.url({ error: 'must be an absolute http(s) URL' }).optional(),
    /**
     * With a URL, the rate limits and the sign-in lockout are counted in Redis, shared by every
     * server; unset, in PostgreSQL when DATABASE_URL is set, else in this process's memory.
     */
    REDIS_URL: z
      .string()
      .regex(/^rediss?:\/\/[^\s]+$/, 'must be a redis:// or rediss:// URL')
      .optional(),
    /**
     * With a token, GET /api/metrics answers Prometheus metrics to a bearer of it; unset, the
     * metrics are not served at all.
     */
    METRICS_TOKEN: z.string().min(16, 'must be at least 16 characters').optional(),
    /**
     * On SIGTERM the health check answers 503 for this long, so a load balancer stops sending
     * new requests, while the requests that still come are answered; then the server closes.
     */
    DRAIN_MS: z.coerce.number().int().min(0).max(120_000).default(5000),
    /**
     * A server whose secrets differ from the ones the database was started with refuses to
     * start; 1 makes this start's secrets the database's (every other server must follow).
     */
    ACCEPT_NEW_SECRETS: flag(false),
    GOOGLE_CLIENT_ID: z.string().min(1).optional(),
    GOOGLE_CLIENT_SECRET: z.string().min(1).optional(),
    /** The OpenID Connect issuer standing for Google (tests point it at a local provider). */
    GOOGLE_ISSUER: z
      .url({ error: 'must be an absolute http(s) URL' })
      .default('https://accounts.google.com'),
  })
  .superRefine((env, ctx) => {
    // A replica of the embedded database does not exist: PGlite is one process's files.
    if (env.DATABASE_READ_URL !== undefined && env.DATABASE_URL === undefined) {
      ctx.addIssue({
        code: 'custom',
        path: ['DATABASE_READ_URL'],
        message: "needs DATABASE_URL: it names a replica of DATABASE_URL's PostgreSQL",
      });
    }
    // Mail through SMTP needs both: where to send it and whom it is from.
    if ((env.SMTP_URL === undefined) !== (env.MAIL_FROM === undefined)) {
      const missing = env.SMTP_URL === undefined ? 'SMTP_URL' : 'MAIL_FROM';
      const given = missing === 'SMTP_URL' ? 'MAIL_FROM' : 'SMTP_URL';
      ctx.addIssue({ code: 'custom', path: [missing], message: `is required with ${given}` });
    }
    // A bucket needs both keys or neither (then the SDK's own chain: instance role, profile).
    if ((env.S3_ACCESS_KEY_ID === undefined) !== (env.S3_SECRET_ACCESS_KEY === undefined)) {
      const missing =
        env.S3_ACCESS_KEY_ID === undefined ? 'S3_ACCESS_KEY_ID' : 'S3_SECRET_ACCESS_KEY';
      ctx.addIssue({
        code: 'custom',
        path: [missing],
        message: 'is required with the other S3 key',
      });
    }
    // Half a Stripe setup would take money without recording it (no webhook) or not at all.
    const set = stripeVariables.filter((name) => env[name] !== undefined);
    if (set.length === 0 || set.length === stripeVariables.length) return;
    for (const name of stripeVariables.filter((n) => env[n] === undefined)) {
      ctx.addIssue({
        code: 'custom',
        path: [name],
        message: `is required with ${set.join(' and ')}`,
      });
    }
  });

export type Config = Omit<z.infer<typeof envSchema>, 'DATA_DIR'> & {
  DATA_DIR: string;
  /** Where the built client lives. */
  CLIENT_DIR: string;
};

export class ConfigError extends Error {}

export function loadConfig(env: NodeJS.ProcessEnv = process.env): Config {
  const parsed = envSchema.safeParse(env);
  if (!parsed.success) {
    const lines = parsed.error.issues.map((i) => `  ${i.path.join('.')}: ${i.message}`);
    throw new ConfigError(`Invalid configuration:\n${lines.join('\n')}`);
  }
  return {
    ...parsed.data,
    DATA_DIR: path.resolve(parsed.data.DATA_DIR),
    CLIENT_DIR: path.resolve(import.meta.dirname, '../../dist/client'),
  };
}
