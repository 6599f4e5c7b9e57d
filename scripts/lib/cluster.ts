/**
 * Several servers on one PostgreSQL behind haproxy, on this machine: what `npm run cluster`
 * runs, and what the cluster test, the soak (`--servers`) and the bench measure. The servers
 * start at the same moment, as a deploy starts them, sharing their secrets through the
 * environment (as production shares them), trusting only the balancer's X-Forwarded-For.
 */
import { randomBytes } from 'node:crypto';
import { type Balancer, startBalancer } from './balancer';
import { freePort, type ServerProcess, startServer } from './server-process';

export type ClusterOptions = {
  servers: number;
  databaseUrl: string;
  /** Generated secrets, the demo password file and kept mail (photos go to object storage). */
  dataDir: string;
  /** Variables every server gets (object storage, Redis, limits); they win over the defaults. */
  env?: Record<string, string>;
  /** The balancer's port; a free one by default. */
  port?: number;
  /**
   * The host in PUBLIC_URL, which browsers' Origin must match: `localhost` for a person's
   * browser (`npm run cluster`), the default 127.0.0.1 for programs calling `url`.
   */
  publicHost?: string;
  startTimeoutMs?: number;
};

export type Cluster = {
  /** The balancer's address: the site. */
  url: string;
  /** What every server was started with (its secrets among them). */
  env: Record<string, string>;
  servers: ServerProcess[];
  balancer: Balancer;
  /** Starts server `index` again on its port (after a kill or a stop). */
  restart: (index: number) => Promise<ServerProcess>;
  /** Every server closed at once (SIGINT: no drain), then the balancer. */
  stop: () => Promise<void>;
};

/** Secrets every server of one cluster shares, as an operator's secret store would give them. */
export const sharedSecrets = (): Record<string, string> => ({
  BETTER_AUTH_SECRET: randomBytes(48).toString('base64url'),
  JWT_SECRET: randomBytes(48).toString('base64url'),
  IMEI_KEY: randomBytes(48).toString('base64url'),
});

export async function startCluster(options: ClusterOptions): Promise<Cluster> {
  const balancerPort = options.port ?? (await freePort());
  const ports: number[] = [];
  for (let i = 0; i < options.servers; i++) ports.push(await freePort());
  const env = {
    ...sharedSecrets(),
    PUBLIC_URL: `http://${options.publicHost ?? '127.0.0.1'}:${balancerPort}`,
    // Only the balancer on loopback says who the client is.
    TRUSTED_PROXIES: '127.0.0.1',
    ...options.env,
  };
  const serverAt = (port: number) =>
    startServer({
      dataDir: options.dataDir,
      databaseUrl: options.databaseUrl,
      port,
      env,
      startTimeoutMs: options.startTimeoutMs,
    });
  // All at once: the start lock, not the order, keeps two from migrating or seeding together.
  const started = await Promise.allSettled(ports.map(serverAt));
  const servers = started.flatMap((s) => (s.status === 'fulfilled' ? [s.value] : []));
  const failed = started.find((s): s is PromiseRejectedResult => s.status === 'rejected');
  if (failed) {
    await Promise.all(servers.map((s) => s.kill()));
    throw failed.reason;
  }
  const balancer = await startBalancer(
    ports.map((port, i) => ({ name: `s${i + 1}`, port })),
    { port: balancerPort },
  );
  const cluster: Cluster = {
    url: balancer.url,
    env,
    servers,
    balancer,
    restart: async (index) => {
      const port = ports[index];
      if (port === undefined) throw new Error(`no server ${index}`);
      const server = await serverAt(port);
      servers[index] = server;
      return server;
    },
    stop: async () => {
      try {
        await Promise.all(servers.map((s) => s.interrupt()));
      } finally {
        await balancer.stop();
      }
    },
  };
  return cluster;
}
