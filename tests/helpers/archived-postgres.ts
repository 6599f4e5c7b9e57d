/**
 * A throwaway PostgreSQL that archives its WAL to a pgBackRest repository, all in one temporary
 * directory on loopback (the recovery test, decision 047), and a way to start a restored copy of
 * it. Run as `postgres` when we are root, as PostgreSQL requires.
 */
import { execFileSync } from 'node:child_process';
import { chownSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import pg from 'pg';
import {
  archiveCommand,
  DEFAULT_STANZA,
  pgbackrestConfigText,
  pgbackrestMissing,
  type Stanza,
  stanzaCreate,
} from '../../scripts/lib/pgbackrest';
import { postgresBin } from '../../scripts/lib/postgres-bin';
import { freePort } from '../../scripts/lib/server-process';

/** Why the archived PostgreSQL cannot run here, or null when it can. */
export function archivedPostgresMissing(): string | null {
  const missing = [
    pgbackrestMissing() ? 'pgbackrest' : null,
    postgresBin() ? null : 'postgresql',
  ].filter(Boolean);
  return missing.length
    ? `not installed: ${missing.join(', ')} (Debian: apt-get install -y ${missing.join(' ')})`
    : null;
}

const isRoot = () => process.getuid?.() === 0;
const idOf = (flag: '-u' | '-g', name: string) =>
  Number(execFileSync('id', [flag, name], { encoding: 'utf8' }).trim());

/** A file or directory PostgreSQL's user must own (it runs as `postgres` when we are root). */
export function ownedByPostgres(file: string): void {
  if (isRoot()) chownSync(file, idOf('-u', 'postgres'), idOf('-g', 'postgres'));
}

export type RunningPostgres = { url: string; port: number; dataDir: string; stop: () => void };

export type ArchivedPostgres = RunningPostgres & {
  /** The temporary directory holding everything: data, repository, config, sockets. */
  dir: string;
  stanza: Stanza & { config: string };
  /** Starts PostgreSQL on a restored data directory, on a port of its own. */
  startCopy: (dataDir: string) => Promise<RunningPostgres>;
  /** Stops every server started here and removes the directory. */
  remove: () => void;
};

export async function startArchivedPostgres(): Promise<ArchivedPostgres> {
  const bin = postgresBin();
  if (!bin) throw new Error('no PostgreSQL binaries under /usr/lib/postgresql');
  const dir = mkdtempSync('/tmp/phone-market-pitr.');
  ownedByPostgres(dir);
  const run = (cmd: string, args: string[]) =>
    isRoot()
      ? execFileSync('runuser', ['-u', 'postgres', '--', path.join(bin, cmd), ...args], {
          stdio: 'pipe',
        })
      : execFileSync(path.join(bin, cmd), args, { stdio: 'pipe' });
  const running: RunningPostgres[] = [];

  const start = async (dataDir: string, settings: string): Promise<RunningPostgres> => {
    const port = await freePort();
    const log = `${dataDir}.log`;
    run('pg_ctl', [
      '-D',
      dataDir,
      '-l',
      log,
      '-w',
      '-t',
      '60',
      '-o',
      `-p ${port} -k ${dir} -c listen_addresses=127.0.0.1 ${settings}`,
      'start',
    ]);
    const server: RunningPostgres = {
      url: `postgres://postgres@127.0.0.1:${port}/postgres`,
      port,
      dataDir,
      stop: () => {
        try {
          run('pg_ctl', ['-D', dataDir, '-m', 'fast', 'stop']);
        } catch {
          // Already stopped.
        }
      },
    };
    running.push(server);
    return server;
  };
  const remove = () => {
    process.off('exit', remove);
    for (const server of running.reverse()) server.stop();
    rmSync(dir, { recursive: true, force: true });
  };
  process.once('exit', remove);

  try {
    const dataDir = path.join(dir, 'db');
    run('initdb', ['-D', dataDir, '-U', 'postgres', '-A', 'trust', '--no-sync']);
    const config = path.join(dir, 'pgbackrest.conf');
    const stanza = { stanza: DEFAULT_STANZA, config };
    // The port is known once the server runs; pgBackRest needs it only when it connects.
    const archive = `-c archive_mode=on -c "archive_command=${archiveCommand(stanza)}"`;
    const primary = await start(dataDir, archive);
    writeFileSync(
      config,
      pgbackrestConfigText({
        stanza: stanza.stanza,
        repoPath: path.join(dir, 'repo'),
        pg: [{ path: dataDir, port: primary.port }],
        socketPath: dir,
        lockPath: path.join(dir, 'lock'),
        logFiles: false,
      }),
    );
    ownedByPostgres(config);
    await stanzaCreate(stanza);
    return {
      ...primary,
      dir,
      stanza,
      remove,
      startCopy: async (copyDir) => {
        const copy = await start(copyDir, '');
        await waitUntilPromoted(copy.url);
        return copy;
      },
    };
  } catch (err) {
    remove();
    throw err;
  }
}

/** A restored copy answers as soon as it is consistent; it takes writes once recovery ended. */
async function waitUntilPromoted(url: string, timeoutMs = 30_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const client = new pg.Client({ connectionString: url });
    try {
      await client.connect();
      const { rows } = await client.query<{ r: boolean }>('select pg_is_in_recovery() as r');
      if (rows[0]?.r === false) return;
    } catch {
      // Still starting or replaying: ask again.
    } finally {
      await client.end().catch(() => undefined);
    }
    if (Date.now() > deadline)
      throw new Error(`${url} was still in recovery after ${timeoutMs} ms`);
    await sleep(200);
  }
}
