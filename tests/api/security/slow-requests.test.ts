/**
 * A client that stops sending, or sends too slowly, cannot hold a connection open: a request
 * not received in full within REQUEST_TIMEOUT_MS (headers or body) is answered 408 and the
 * connection closed. A real listening server and raw sockets, as `inject` has no timeouts.
 */
import net from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, type TestApp } from '../../helpers/test-app';

const TIMEOUT_MS = 1500;
/** How long a test waits for the server to end a stalled connection before calling it held. */
const GIVE_UP_MS = 10 * TIMEOUT_MS;

let t: TestApp;
let port: number;

beforeAll(async () => {
  t = await buildTestApp({ REQUEST_TIMEOUT_MS: String(TIMEOUT_MS) });
  await t.app.listen({ port: 0, host: '127.0.0.1' });
  port = (t.app.server.address() as net.AddressInfo).port;
});
afterAll(() => t.close());

type Outcome = { ended: boolean; received: string; elapsedMs: number };

/**
 * Connects, writes `first`, then writes `trickle` (if any) every `everyMs` until the server ends
 * the connection or GIVE_UP_MS pass; says what came back and when the connection ended.
 */
function stall(first: string, trickle?: string, everyMs = 200): Promise<Outcome> {
  return new Promise((resolve) => {
    const socket = net.connect(port, '127.0.0.1');
    const chunks: Buffer[] = [];
    let started = 0;
    let timer: NodeJS.Timeout | undefined;
    const finish = (ended: boolean) => {
      clearInterval(timer);
      clearTimeout(giveUp);
      socket.destroy();
      resolve({
        ended,
        received: Buffer.concat(chunks).toString('latin1'),
        elapsedMs: performance.now() - started,
      });
    };
    const giveUp = setTimeout(() => finish(false), GIVE_UP_MS);
    socket.on('connect', () => {
      started = performance.now();
      socket.write(first);
      if (trickle) timer = setInterval(() => socket.write(trickle), everyMs);
    });
    socket.on('data', (chunk) => chunks.push(chunk));
    socket.on('close', () => finish(true));
    // A reset while writing is also the server ending the connection.
    socket.on('error', () => {});
  });
}

const headersOf = (contentLength: number) =>
  [
    'POST /api/auth/sign-in/email HTTP/1.1',
    'Host: 127.0.0.1',
    'Origin: http://127.0.0.1',
    'Content-Type: application/json',
    `Content-Length: ${contentLength}`,
    '',
    '',
  ].join('\r\n');

/** The connection was ended by the server, with a 408 or nothing at all, no sooner than due. */
function expectTimedOut(outcome: Outcome) {
  expect(outcome.ended, 'the server left the connection open').toBe(true);
  expect(outcome.received === '' || outcome.received.startsWith('HTTP/1.1 408 ')).toBe(true);
  expect(outcome.elapsedMs).toBeGreaterThanOrEqual(TIMEOUT_MS - 200);
}

describe('a slow request', () => {
  it('is answered 408 and closed when its body stops half-way', async () => {
    const outcome = await stall(`${headersOf(1000)}{"email":"slow@test.example","pass`);
    expectTimedOut(outcome);
    expect(outcome.received).toMatch(/^HTTP\/1\.1 408 /);
  });

  it('carries the headers of every answer on its 408, as on a header line that does not parse', async () => {
    const timedOut = await stall(`${headersOf(1000)}{"email":"`);
    expect(timedOut.received).toMatch(/^HTTP\/1\.1 408 /);
    const garbled = await stall('GET / HTTP/1.1\r\nHost 127.0.0.1\r\n\r\n');
    expect(garbled.received).toMatch(/^HTTP\/1\.1 400 /);
    for (const answer of [timedOut.received, garbled.received]) {
      for (const [name, value] of Object.entries(t.app.securityHeaders))
        expect(answer.toLowerCase()).toContain(`${name}: ${value}`.toLowerCase());
      expect(answer).toMatch(/\r\n\r\n\{"message":"[^"]+"\}$/);
    }
  });

  it('is answered 408 and closed when its body comes a byte at a time', async () => {
    const outcome = await stall(`${headersOf(1000)}{"email":"`, 'a');
    expectTimedOut(outcome);
  });

  it('is answered 408 and closed when its headers never end', async () => {
    const outcome = await stall(
      'POST /api/auth/sign-in/email HTTP/1.1\r\nHost: 127.0.0.1\r\n',
      'X-Slow: a\r\n',
    );
    expectTimedOut(outcome);
  });

  it('is answered as usual when it arrives in time', async () => {
    const body = JSON.stringify({ email: 'nobody-slow@test.example', password: 'Wrong-Pass1!' });
    const outcome = await new Promise<string>((resolve, reject) => {
      const socket = net.connect(port, '127.0.0.1', () => {
        socket.write(
          headersOf(Buffer.byteLength(body)).replace('\r\n\r\n', '\r\nConnection: close\r\n\r\n'),
        );
        setTimeout(() => socket.write(body), TIMEOUT_MS / 3);
      });
      const chunks: Buffer[] = [];
      socket.on('data', (chunk) => chunks.push(chunk));
      socket.on('end', () => resolve(Buffer.concat(chunks).toString('latin1')));
      socket.on('error', reject);
    });
    expect(outcome).toMatch(/^HTTP\/1\.1 401 /);
  });
});
