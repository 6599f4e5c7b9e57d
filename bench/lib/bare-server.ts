/**
 * The ceiling: a bare `node:http` server answering, from memory, the very bytes the app
 * answered for each path. Run as its own process (`node bare-server.ts <file> <port>`).
 */
import { readFileSync } from 'node:fs';
import { createServer } from 'node:http';

export type Canned = Record<string, { contentType: string; body: string }>;

const [file, port] = process.argv.slice(2);
if (file && port) {
  const canned = JSON.parse(readFileSync(file, 'utf8')) as Canned;
  const answers = new Map(
    Object.entries(canned).map(([p, a]) => [
      p,
      { type: a.contentType, body: Buffer.from(a.body, 'base64') },
    ]),
  );
  createServer((req, res) => {
    const answer = answers.get(req.url ?? '');
    if (!answer) {
      res.writeHead(404).end();
      return;
    }
    res.writeHead(200, { 'content-type': answer.type, 'content-length': answer.body.length });
    res.end(answer.body);
  }).listen(Number(port), '127.0.0.1', () => process.stdout.write('listening\n'));
}
