/** Where this machine's PostgreSQL server programs are: the newest under Debian's layout. */
import { existsSync, readdirSync } from 'node:fs';
import path from 'node:path';

const ROOT = '/usr/lib/postgresql';

/**
 * The `bin` directory of the newest PostgreSQL under /usr/lib/postgresql that has `needs`
 * (initdb by default: the server, not only the client), or undefined when there is none.
 */
export function postgresBin(needs = 'initdb'): string | undefined {
  if (!existsSync(ROOT)) return undefined;
  const latest = readdirSync(ROOT)
    .filter((v) => existsSync(path.join(ROOT, v, 'bin', needs)))
    .sort((a, b) => Number(a) - Number(b))
    .at(-1);
  return latest ? path.join(ROOT, latest, 'bin') : undefined;
}
