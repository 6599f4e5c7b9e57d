/**
 * An S3-compatible object store on loopback for the tests and `npm run cluster` (the `s3rver`
 * library, keeping its objects in a temporary directory): one bucket, made before it answers,
 * and the S3_* variables that point a server at it.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import type { Server } from 'node:http';
import { createRequire } from 'node:module';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';

/** The part of s3rver we use (it ships no types). */
type S3rver = {
  run(): Promise<AddressInfo>;
  close(): Promise<void>;
  httpServer: Server;
};
type S3rverClass = new (options: {
  address: string;
  port: number;
  silent: boolean;
  directory: string;
  configureBuckets: { name: string }[];
}) => S3rver;

const S3rver = createRequire(import.meta.url)('s3rver') as S3rverClass;

/** The keys s3rver accepts (its one built-in account). */
const ACCESS_KEY = 'S3RVER';

export type S3Server = {
  endpoint: string;
  bucket: string;
  /** S3_BUCKET, S3_ENDPOINT and the keys, for `loadConfig` or a server's environment. */
  env: Record<string, string>;
  /** Every request the store received, as `GET /bucket/key`, oldest first. */
  requests: string[];
  close(): Promise<void>;
};

export async function startS3Server({ bucket }: { bucket: string }): Promise<S3Server> {
  const directory = await mkdtemp(path.join(os.tmpdir(), 'phone-market-s3-'));
  const server = new S3rver({
    address: '127.0.0.1',
    port: 0,
    silent: true,
    directory,
    configureBuckets: [{ name: bucket }],
  });
  const { port } = await server.run();
  const requests: string[] = [];
  server.httpServer.on('request', (req) => requests.push(`${req.method} ${req.url}`));
  const endpoint = `http://127.0.0.1:${port}`;
  return {
    endpoint,
    bucket,
    env: {
      S3_BUCKET: bucket,
      S3_ENDPOINT: endpoint,
      S3_REGION: 'us-east-1',
      S3_ACCESS_KEY_ID: ACCESS_KEY,
      S3_SECRET_ACCESS_KEY: ACCESS_KEY,
    },
    requests,
    close: async () => {
      // Kept-alive connections of the servers under test would hold the close for ever.
      server.httpServer.closeAllConnections();
      await server.close();
      await rm(directory, { recursive: true, force: true });
    },
  };
}
