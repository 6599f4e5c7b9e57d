/**
 * The application as one Fastify plugin: external plugins first (errors, security, database,
 * docs), then the API routes under /api, robots.txt and the sitemap, then the client.
 * `server.ts` only listens.
 */
import { STATUS_CODES } from 'node:http';
import path from 'node:path';
import type { Duplex } from 'node:stream';
import { setTimeout } from 'node:timers/promises';
import sensible from '@fastify/sensible';
import Fastify, {
  type FastifyError,
  type FastifyInstance,
  type FastifyReply,
  type FastifyRequest,
  type FastifyServerOptions,
  LogController,
} from 'fastify';
import fp from 'fastify-plugin';
import {
  serializerCompiler,
  validatorCompiler,
  type ZodTypeProvider,
} from 'fastify-type-provider-zod';
import pinoPretty from 'pino-pretty';
import { API_BASE, type ClientConfig } from '../shared/api';
import { AccessTokens } from './auth/access-tokens';
import { AfterAnswer } from './auth/after-answer';
import { createIdentityProvider, type IdentityProvider } from './auth/identity-provider';
import { loadSecret } from './auth/secrets';
import { checkSecretsAgree } from './auth/secrets-fingerprint';
import { WindowThrottle } from './auth/window-throttle';
import { BulkUploads } from './bulk/uploads';
import type { Config } from './config';
import type { Database } from './db/client';
import { levelOfFailure } from './db/unavailable';
import type { Sales } from './domain/order-process';
import { runTimedWork, startTimedWork } from './domain/timed-work';
import { imageOriginsOf, imageStoreOf } from './images/image-store-of';
import { LoosePhotos } from './images/loose-photos';
import { ImeiVault } from './imei/imei-vault';
import { type LimitStore, openLimitStore } from './limits/limit-store';
import { LiveHub } from './live/live-hub';
import { Outbox } from './mail/outbox';
import { fileTransport, type MailTransport, smtpTransport } from './mail/transport';
import { EmbeddedPaymentProvider } from './payments/embedded-processor';
import type { PaymentProvider } from './payments/payment-provider';
import { StripePaymentProvider } from './payments/stripe-provider';
import { PASSWORD_TRIES, PASSWORD_WINDOW_MS } from './payouts/payout-accounts';
import type { PayoutProvider } from './payouts/payout-provider';
import { type PayoutWork, runPayoutWork } from './payouts/payouts';
import { StripePayoutProvider } from './payouts/stripe-payouts';
import { TestBankPayouts } from './payouts/test-bank';
import authPlugin from './plugins/auth';
import clientPlugin from './plugins/client';
import databasePlugin from './plugins/database';
import errorsPlugin from './plugins/errors';
import hostGuardPlugin from './plugins/host-guard';
import inputGuardPlugin from './plugins/input-guard';
import metricsPlugin from './plugins/metrics';
import openapiPlugin from './plugins/openapi';
import publicAnswersPlugin from './plugins/public-answers';
import readRoutingPlugin from './plugins/read-routing';
import securityPlugin from './plugins/security';
import bulkUploadsRoutes from './routes/bulk-uploads';
import buyingRoutes from './routes/buying';
import catalogRoutes from './routes/catalog';
import conversationsRoutes from './routes/conversations';
import identityRoutes from './routes/identity';
import imagesRoutes from './routes/images';
import imeisRoutes from './routes/imeis';
import notificationsRoutes from './routes/notifications';
import overviewRoutes from './routes/overview';
import paymentsRoutes from './routes/payments';
import payoutsRoutes from './routes/payouts';
import priceGuideRoutes from './routes/price-guide';
import productsRoutes from './routes/products';
import reportsRoutes from './routes/reports';
import reviewRoutes from './routes/review';
import salesRoutes from './routes/sales';
import savedSearchesRoutes from './routes/saved-searches';
import sitemapRoutes from './routes/sitemaps';
import systemRoutes from './routes/system';
import usersRoutes from './routes/users';
import whatSellsRoutes from './routes/what-sells';
import { SavedSearchAlerts } from './saved-searches/alerts';
import { SavedSearchIndex } from './saved-searches/saved-search-index';
import { SearchCounts } from './search/search-counts';
import { siteUrlOf } from './site-url';
import { Fingerprints } from './trust/fingerprints';
import { ViewCounter } from './views/view-counter';

declare module 'fastify' {
  interface FastifyInstance {
    config: Config;
    /** Hashes and seals listings' IMEIs (decision 024). */
    imeiVault: ImeiVault;
    /** Keyed fingerprints of client addresses and cards (decision 038). */
    fingerprints: Fingerprints;
    /** Notes and sweeps photos on no phone (decision 026). */
    loosePhotos: LoosePhotos;
    /** Mail waiting to leave (decision 027). */
    outbox: Outbox;
    /** Saved searches' alerts (issue 33): `round()` matches the queue and sends the digests due. */
    savedSearchAlerts: SavedSearchAlerts;
    /** Work a request started that its answer did not wait for (a password reset's, decision 036). */
    afterAnswer: AfterAnswer;
    /** Sellers' bulk uploads: read, previewed and listed in the background (decision 057). */
    bulkUploads: BulkUploads;
    /** Views of phones' pages, buffered and written in batches (issue 35, decision 055). */
    views: ViewCounter;
    /** The pages kept live (server-sent events). */
    live: LiveHub;
    /** The search's counts kept beside the table; none when SEARCH_COUNTS is `database`. */
    searchCounts: SearchCounts | undefined;
    /**
     * Stops taking work without refusing any (SIGTERM behind a load balancer): the health check
     * answers 503 for `ms` while every request is still answered (each closing its connection),
     * then live streams end and the server stops accepting connections, and this resolves once
     * the requests in flight are answered. `close()` follows.
     */
    drain: (ms: number) => Promise<void>;
    /** Whether the server is draining (the health check answers 503). */
    draining: boolean;
    /** Every route registered (method and full URL), for the authorization matrix's coverage. */
    routeList: ReadonlyArray<{ method: string; url: string }>;
  }
}

export type AppServices = {
  identity: IdentityProvider;
  outbox: Outbox;
  imeiVault: ImeiVault;
  accessTokens: AccessTokens;
  adminEmails: ReadonlySet<string>;
  payments: PaymentProvider;
  /** Where sellers' money is paid out: the embedded test bank or Stripe Connect (issue 30). */
  payouts: PayoutProvider;
  /** Where the rate limits and the sign-in lockout count, shared by every server when it can be. */
  limits: LimitStore;
  /** Keyed fingerprints of client addresses and cards (decision 038). */
  fingerprints: Fingerprints;
};

export type AppOptions = {
  config: Config;
  database: Database;
  services?: AppServices;
  /** Where the log goes (standard output unless given); tests read it for leaked secrets. */
  logStream?: { write(line: string): void };
  /**
   * The log is read by a person at a terminal: pretty lines, and at `info` no line per request,
   * so the start banner stays on screen. Otherwise (piped, a log collector) one JSON line each.
   */
  terminal?: boolean;
};

/** The identity provider and token signer, with secrets from env or generated into DATA_DIR. */
export async function createServices(config: Config, database: Database): Promise<AppServices> {
  const [authSecret, jwtSecret, imeiKey] = await Promise.all([
    loadSecret(config.DATA_DIR, 'auth-secret', config.BETTER_AUTH_SECRET),
    loadSecret(config.DATA_DIR, 'jwt-secret', config.JWT_SECRET),
    loadSecret(config.DATA_DIR, 'imei-key', config.IMEI_KEY),
  ]);
  // Before anything is signed or sealed with them: the same as every other server's.
  await database.exclusively(() =>
    checkSecretsAgree(
      database.db,
      { BETTER_AUTH_SECRET: authSecret, JWT_SECRET: jwtSecret, IMEI_KEY: imeiKey },
      { acceptNew: config.ACCEPT_NEW_SECRETS },
    ),
  );
  // Admin only once the owner proved the address (decision 017); the demo admin is admin by its
  // own record, in the database whose seed created it.
  const adminEmails = new Set(config.ADMIN_EMAILS);
  const outbox = new Outbox(database.db, mailTransportOf(config), siteUrlOf(config));
  const limits = await openLimitStore(config, database);
  // Keyed by the IMEI key's secret: the one key for fingerprints of what people type or own.
  const fingerprints = new Fingerprints(imeiKey);
  return {
    identity: createIdentityProvider(database.db, config, authSecret, outbox, limits, {
      transactions: database.kind === 'postgres',
    }),
    outbox,
    imeiVault: new ImeiVault(imeiKey),
    accessTokens: new AccessTokens(jwtSecret),
    adminEmails,
    payments: paymentProviderOf(config, database, fingerprints),
    payouts: payoutProviderOf(config, database),
    limits,
    fingerprints,
  };
}

/** SMTP when it is configured, otherwise every mail kept as a file under DATA_DIR/mail. */
function mailTransportOf(config: Config): MailTransport {
  if (config.SMTP_URL && config.MAIL_FROM) return smtpTransport(config.SMTP_URL, config.MAIL_FROM);
  return fileTransport(path.join(config.DATA_DIR, 'mail'));
}

/** Stripe Connect when Stripe's keys are set, otherwise the embedded test bank. */
function payoutProviderOf(config: Config, database: Database): PayoutProvider {
  if (config.STRIPE_SECRET_KEY && config.STRIPE_WEBHOOK_SECRET) {
    return new StripePayoutProvider({
      secretKey: config.STRIPE_SECRET_KEY,
      apiUrl: config.STRIPE_API_URL,
    });
  }
  return new TestBankPayouts(database.db);
}

/** Stripe when its keys are set, otherwise the embedded test-mode processor. */
function paymentProviderOf(
  config: Config,
  database: Database,
  fingerprints: Fingerprints,
): PaymentProvider {
  if (config.STRIPE_SECRET_KEY && config.STRIPE_WEBHOOK_SECRET) {
    return new StripePaymentProvider({
      secretKey: config.STRIPE_SECRET_KEY,
      webhookSecret: config.STRIPE_WEBHOOK_SECRET,
      connectWebhookSecret: config.STRIPE_CONNECT_WEBHOOK_SECRET,
      apiUrl: config.STRIPE_API_URL,
    });
  }
  return new EmbeddedPaymentProvider(database.db, fingerprints);
}

export { uploadsDirOf } from './images/image-store-of';

export function clientConfigOf(config: Config, services: AppServices): ClientConfig {
  const imgbb = config.IMGBB_API_KEY
    ? `${config.IMGBB_UPLOAD_URL}?key=${encodeURIComponent(config.IMGBB_API_KEY)}`
    : null;
  return {
    identity: { google: services.identity.googleEnabled },
    payments:
      services.payments instanceof StripePaymentProvider && config.STRIPE_PUBLISHABLE_KEY
        ? { provider: 'stripe', publishableKey: config.STRIPE_PUBLISHABLE_KEY }
        : { provider: 'embedded', publishableKey: null },
    fees: { percent: config.MARKETPLACE_FEE_PERCENT, minCents: config.MARKETPLACE_FEE_MIN_CENTS },
    payouts: {
      provider: services.payouts.kind,
      schedule: config.PAYOUT_SCHEDULE,
      accountHoldHours: config.PAYOUT_ACCOUNT_HOLD_HOURS,
    },
    images: imgbb
      ? { provider: 'imgbb', uploadUrl: imgbb }
      : { provider: 'embedded', uploadUrl: `${API_BASE}/images` },
  };
}

export async function app(fastify: FastifyInstance, opts: AppOptions): Promise<void> {
  fastify.decorate('config', opts.config);
  fastify.setValidatorCompiler(validatorCompiler);
  fastify.setSerializerCompiler(serializerCompiler);
  await fastify.register(sensible);
  await fastify.register(errorsPlugin);
  await fastify.register(inputGuardPlugin);
  // Before the security plugin, whose rate limits count in the services' limit store.
  const services = opts.services ?? (await createServices(opts.config, opts.database));
  services.limits.log = fastify.log;
  await fastify.register(securityPlugin, {
    imageOrigins: imageOriginsOf(opts.config),
    uploadOrigins: opts.config.IMGBB_API_KEY ? [new URL(opts.config.IMGBB_UPLOAD_URL).origin] : [],
    stripe: opts.config.STRIPE_PUBLISHABLE_KEY !== undefined,
    limits: services.limits,
  });
  // After the security headers are set, so its 400 carries them too.
  await fastify.register(hostGuardPlugin);
  await fastify.register(databasePlugin, { database: opts.database });
  await fastify.register(readRoutingPlugin);
  await fastify.register(metricsPlugin, { token: opts.config.METRICS_TOKEN });
  await fastify.register(publicAnswersPlugin, { ttlMs: opts.config.PUBLIC_CACHE_MS });
  fastify.decorate('imeiVault', services.imeiVault);
  fastify.decorate('fingerprints', services.fingerprints);
  const loosePhotos = new LoosePhotos(await imageStoreOf(opts.config));
  fastify.decorate('loosePhotos', loosePhotos);
  const bulkUploads = new BulkUploads({
    db: opts.database.db,
    vault: services.imeiVault,
    loosePhotos,
    log: fastify.log,
  });
  fastify.decorate('bulkUploads', bulkUploads);
  fastify.decorate('outbox', services.outbox);
  const views = new ViewCounter({
    db: opts.database.db,
    flushMs: opts.config.VIEW_FLUSH_MS,
    accountViewer: (day, account) => services.fingerprints.viewer(day, { account }),
    onError: (err) => fastify.log[levelOfFailure(err)]({ err }, 'views: a batch was not written'),
  });
  fastify.decorate('views', views);
  const live = new LiveHub(opts.database);
  fastify.decorate('live', live);
  const searchCounts =
    opts.config.SEARCH_COUNTS === 'memory'
      ? new SearchCounts(opts.database, (err) =>
          fastify.log[levelOfFailure(err)]({ err }, 'search counts: read again'),
        )
      : undefined;
  fastify.decorate('searchCounts', searchCounts);
  // Read in the background: until then, and whenever unsure, the search counts in PostgreSQL.
  fastify.addHook('onReady', async () => {
    await searchCounts?.start();
  });
  services.outbox.log = fastify.log;
  const afterAnswer = new AfterAnswer(fastify.log);
  fastify.decorate('afterAnswer', afterAnswer);
  await fastify.register(authPlugin, services);
  await fastify.register(openapiPlugin);
  await fastify.register(identityRoutes);

  const sales: Sales = {
    db: opts.database.db,
    provider: services.payments,
    holdMs: opts.config.HOLD_DAYS * 24 * 60 * 60 * 1000,
    log: fastify.log,
    metrics: fastify.paymentMetrics,
    fees: {
      percent: opts.config.MARKETPLACE_FEE_PERCENT,
      minCents: opts.config.MARKETPLACE_FEE_MIN_CENTS,
    },
    fundsHoldMs: opts.config.FUNDS_HOLD_HOURS * 60 * 60 * 1000,
  };
  const payoutWork: PayoutWork = {
    db: opts.database.db,
    provider: services.payouts,
    schedule: opts.config.PAYOUT_SCHEDULE,
    log: fastify.log,
  };
  // Saved searches' alerts (issue 33): matched in a round of the timed work, and soon after any
  // call that may have listed, relisted or repriced a phone.
  const savedSearchIndex = new SavedSearchIndex(opts.database.db);
  const savedSearchAlerts = new SavedSearchAlerts(
    {
      db: opts.database.db,
      index: savedSearchIndex,
      digestHours: opts.config.SAVED_SEARCH_DIGEST_HOURS,
      onPhoneError: (err, productId, dropped) =>
        fastify.log.error(
          { err, productId },
          dropped
            ? 'saved-search alerts of a phone failed too often; dropped from the queue'
            : 'saved-search alerts of a phone failed; tried again next round',
        ),
    },
    () => services.outbox.kick(),
    (err) => fastify.log[levelOfFailure(err)]({ err }, 'saved-search alerts failed; retried'),
  );
  fastify.decorate('savedSearchAlerts', savedSearchAlerts);
  // The timed work starts once the server listens and stops (finishing its round) on close.
  let timedWork: { stop: () => Promise<void> } | undefined;
  fastify.addHook('onListen', async () => {
    await live.start();
    timedWork ??= startTimedWork(
      [
        () => runTimedWork(sales),
        () => runPayoutWork(payoutWork),
        () => loosePhotos.sweep(sales.db),
        () => services.outbox.deliver(),
        () => services.outbox.purge(),
        () => savedSearchAlerts.round(),
        () => SavedSearchIndex.purge(opts.database.db),
        () => bulkUploads.round(),
      ],
      opts.config.TIMED_WORK_MS,
      (err) => fastify.log[levelOfFailure(err)]({ err }, 'timed work failed; retried next round'),
    );
  });
  // A call that changed something may have written mail (a booking's, a payment's): it is sent
  // after the answer, not at the next round.
  fastify.addHook('onResponse', async (request, reply) => {
    if (request.method === 'GET' || request.method === 'HEAD') return;
    services.outbox.kick();
    // A refused call changed nothing, so it queued no phone to match.
    if (reply.statusCode < 400) savedSearchAlerts.kick();
  });
  fastify.decorate('draining', false);
  fastify.decorate('drain', async (ms: number) => {
    fastify.draining = true;
    await setTimeout(ms);
    // Open streams would hold the connections for ever: they end first.
    await live.close();
    const closed = new Promise<void>((resolve) => fastify.server.close(() => resolve()));
    // Requests are bounded by the request timeout; a handler stuck past it is not waited for.
    const giveUp = new AbortController();
    const late = setTimeout(opts.config.REQUEST_TIMEOUT_MS, undefined, { signal: giveUp.signal });
    await Promise.race([closed, late.catch(() => {})]);
    giveUp.abort();
    // What is still open now is a client that trickles or never reads: Node stops timing
    // requests out once the server closes, so it would hold the close (and the exit) for ever.
    fastify.server.closeAllConnections();
  });
  // While draining or closing, every answer closes its connection, those of requests already
  // under way included: a balancer's kept-alive connection would otherwise bring the next
  // request here again, and one left idle after the close began would hold the close for the
  // keep-alive timeout (a health check in flight at Ctrl-C held it 72 s).
  fastify.addHook('onSend', async (_request, reply) => {
    if (fastify.draining) reply.header('connection', 'close');
  });
  // Open streams would hold the server's close for ever: they end first.
  fastify.addHook('preClose', async () => {
    fastify.draining = true;
    fastify.server.closeIdleConnections();
    await live.close();
  });
  fastify.addHook('onClose', async () => {
    await timedWork?.stop();
    await savedSearchAlerts.idle();
    await bulkUploads.close();
    // Before the outbox and the limits close: a reset's work writes mail and counts a limit.
    await afterAnswer.idle();
    await views.close();
    await services.outbox.idle();
    services.outbox.transport.close();
    await services.limits.close();
    await searchCounts?.close();
  });

  await fastify.register(
    async (api) => {
      await api.register(catalogRoutes);
      await api.register(usersRoutes);
      await api.register(notificationsRoutes, { live });
      await api.register(conversationsRoutes);
      await api.register(imagesRoutes, { loosePhotos });
      await api.register(productsRoutes);
      await api.register(priceGuideRoutes);
      await api.register(imeisRoutes);
      await api.register(reviewRoutes);
      await api.register(overviewRoutes);
      await api.register(buyingRoutes);
      await api.register(reportsRoutes);
      await api.register(whatSellsRoutes);
      await api.register(bulkUploadsRoutes, { bulk: bulkUploads });
      await api.register(savedSearchesRoutes, {
        index: savedSearchIndex,
        kick: () => savedSearchAlerts.kick(),
      });
      await api.register(paymentsRoutes, { sales, payouts: services.payouts });
      await api.register(salesRoutes, { sales });
      await api.register(payoutsRoutes, {
        accounts: {
          db: opts.database.db,
          provider: services.payouts,
          identity: services.identity,
          changeHoldMs: opts.config.PAYOUT_ACCOUNT_HOLD_HOURS * 60 * 60 * 1000,
          passwordTries: new WindowThrottle(services.limits, 'payout password tries', {
            limit: PASSWORD_TRIES,
            windowMs: PASSWORD_WINDOW_MS,
            whenUncounted: 'refuse',
          }),
        },
        schedule: opts.config.PAYOUT_SCHEDULE,
        siteUrl: (opts.config.PUBLIC_URL ?? `http://localhost:${opts.config.PORT}`).replace(
          /\/$/,
          '',
        ),
      });
      await api.register(systemRoutes, { clientConfig: clientConfigOf(opts.config, services) });
    },
    { prefix: API_BASE },
  );

  // Before the client, whose not-found handler would answer these paths with a page.
  await fastify.register(sitemapRoutes);
  await fastify.register(clientPlugin, {
    clientDir: opts.config.CLIENT_DIR,
    images: loosePhotos.store,
  });
}

/**
 * Fastify's `trustProxy` for TRUSTED_PROXIES. Fastify ignores a bare hop count (it trusts nothing
 * then, as the count cannot tell a proxy from a client that reaches us directly); the operator who
 * sets one says only proxies reach us, so the count becomes a trust function: the n nearest hops.
 */
function trustProxyOf(trusted: Config['TRUSTED_PROXIES']): FastifyServerOptions['trustProxy'] {
  if (typeof trusted !== 'number') return trusted;
  return (_address: string, hop: number) => hop < trusted;
}

/**
 * The answers Fastify makes before routing, hooks or the error handler (a URL that does not
 * decode): the headers of every answer, and a message that does not repeat the URL back.
 */
function answerFrameworkError(error: FastifyError, request: FastifyRequest, reply: FastifyReply) {
  reply.headers(request.server.securityHeaders);
  if (error.code === 'FST_ERR_BAD_URL') return reply.code(400).send({ message: 'Malformed URL' });
  // A path parameter over the router's 100 characters, when no catch-all route takes the path.
  if (error.code === 'FST_ERR_MAX_PARAM_LENGTH') {
    return reply.code(414).send({ message: 'URL too long' });
  }
  request.log.error({ err: error }, 'request failed');
  return reply.code(500).send({ message: 'Internal Server Error' });
}

const CLIENT_ERRORS: Record<string, [status: number, message: string]> = {
  ERR_HTTP_REQUEST_TIMEOUT: [408, 'The request took too long to arrive'],
  HPE_HEADER_OVERFLOW: [431, 'The request headers are too large'],
};

/**
 * The answers Node makes itself, before there is a request to route (a request that took too
 * long to arrive, a header line that does not parse): the same headers as every other answer,
 * as Fastify's own handler would, then the connection closes.
 */
function answerClientError(this: FastifyInstance, err: NodeJS.ErrnoException, socket: Duplex) {
  if (err.code === 'ECONNRESET' || socket.destroyed) return;
  const [status, message] = CLIENT_ERRORS[err.code ?? ''] ?? [400, 'The request could not be read'];
  this.log.trace({ err }, 'client error');
  if (socket.writable) {
    const body = JSON.stringify({ message });
    const headers = {
      ...this.securityHeaders,
      'content-type': 'application/json; charset=utf-8',
      'content-length': String(Buffer.byteLength(body)),
      connection: 'close',
    };
    const head = Object.entries(headers).map(([name, value]) => `${name}: ${value}\r\n`);
    socket.write(`HTTP/1.1 ${status} ${STATUS_CODES[status]}\r\n${head.join('')}\r\n${body}`);
  }
  socket.destroy(err);
}

/** Builds a ready Fastify instance around the app plugin (used by server.ts and the tests). */
export async function buildApp(
  opts: AppOptions,
  serverOptions: FastifyServerOptions = {},
): Promise<FastifyInstance> {
  const fastify = Fastify({
    logger: {
      level: opts.config.LOG_LEVEL,
      // Credentials wherever a plugin logs headers (requests, replies, multipart's busboy options).
      redact: [
        'req.headers.authorization',
        'req.headers.cookie',
        'res.headers["set-cookie"]',
        '*.headers.authorization',
        '*.headers.cookie',
        '*.headers["set-cookie"]',
      ],
      // Pretty lines are written in order with the start banner (a transport's thread would not).
      stream:
        opts.logStream ??
        (opts.terminal
          ? pinoPretty({ sync: true, translateTime: 'HH:MM:ss', ignore: 'pid,hostname' })
          : process.stdout),
    },
    logController: new LogController({
      disableRequestLogging:
        opts.terminal === true && !['debug', 'trace'].includes(opts.config.LOG_LEVEL),
    }),
    trustProxy: trustProxyOf(opts.config.TRUSTED_PROXIES),
    frameworkErrors: answerFrameworkError,
    clientErrorHandler: answerClientError,
    // A client that stops sending (or trickles) is answered 408 and cut off. Node looks for such
    // connections only every `connectionsCheckingInterval` (30 s by default): every tenth of the
    // timeout here, so a stalled request ends within 1.1 times the timeout of its start.
    requestTimeout: opts.config.REQUEST_TIMEOUT_MS,
    http: {
      requestTimeout: opts.config.REQUEST_TIMEOUT_MS,
      headersTimeout: opts.config.REQUEST_TIMEOUT_MS,
      connectionsCheckingInterval: Math.ceil(opts.config.REQUEST_TIMEOUT_MS / 10),
    },
    bodyLimit: 1024 * 1024,
    // A plugin that loads a module (the page renderer) or opens a database takes longer than
    // avvio's 10 s on a busy machine: a start that is slow is not a start that failed. The
    // health check (and an orchestrator's start deadline) says when a server is not coming up.
    pluginTimeout: 120_000,
    ...serverOptions,
  }).withTypeProvider<ZodTypeProvider>();
  const routeList: { method: string; url: string }[] = [];
  fastify.decorate('routeList', routeList);
  fastify.addHook('onRoute', (route) => {
    for (const method of [route.method].flat()) routeList.push({ method, url: route.url });
  });
  // Unencapsulated, so tests and server.ts reach the decorations (db, identity) on the root.
  await fastify.register(fp(app), opts);
  await fastify.ready();
  return fastify;
}
