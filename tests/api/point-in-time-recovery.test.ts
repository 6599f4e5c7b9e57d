/**
 * Point-in-time recovery of PostgreSQL with pgBackRest (issue 32, decision 047, docs/backups.md):
 * a real PostgreSQL archiving its WAL to a real pgBackRest repository, the app's migrations and
 * sales on it, `npm run backup`, more sales, a phone deleted by mistake, and `npm run restore` to
 * the second before the delete into a new data directory: started there, it has the phone and
 * every payment made before the delete. Needs pgbackrest and PostgreSQL's binaries (Debian's
 * packages; CI installs them); skipped, naming what is missing, without.
 */
import { mkdir, readdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { queryOnce } from '../../scripts/lib/postgres-query';
import { openDatabase } from '../../src/server/db/client';
import { type Account, createAccount } from '../helpers/accounts';
import {
  type ArchivedPostgres,
  archivedPostgresMissing,
  type RunningPostgres,
  startArchivedPostgres,
} from '../helpers/archived-postgres';
import { buyingCalls } from '../helpers/buying';
import { runScript } from '../helpers/run-script';
import { buildTestAppOn, type TestApp } from '../helpers/test-app';

const missing = archivedPostgresMissing();
const CARD = { number: '4242 4242 4242 4242', expMonth: 12, expYear: 2034, cvc: '123' };

const query = queryOnce;

describe.skipIf(missing)(
  `point-in-time recovery with pgBackRest${missing ? ` (skipped: ${missing})` : ''}`,
  () => {
    let postgres: ArchivedPostgres;
    let t: TestApp;
    let seller: Account;
    let copy: RunningPostgres | undefined;
    const { phone, bookedOrder, intentFor, confirmCard, recordCall } = buyingCalls(() => ({
      t,
      seller,
    }));

    /** `npm run backup`/`restore` as the operator runs them on the database host. */
    const run = (script: 'backup' | 'restore', args: string[]) =>
      runScript(`scripts/${script}.ts`, args, {
        DATA_DIR: t.dataDir,
        DATABASE_URL: postgres.url,
        PGBACKREST_STANZA: postgres.stanza.stanza,
        PGBACKREST_CONFIG: postgres.stanza.config,
      });

    /** A phone of the seller's, booked and paid by a buyer of its own, through the API. */
    async function sale() {
      const buyer = await createAccount(t.app, 'user');
      const product = await phone();
      const order = await bookedOrder(buyer, product.id);
      const { clientSecret } = (await intentFor(buyer, order.id)).json();
      const transactionId = (await confirmCard(clientSecret, CARD)).json().paymentIntent.id;
      expect((await recordCall(buyer, transactionId, order.id)).statusCode).toBe(200);
      return { productId: product.id, transactionId };
    }

    beforeAll(async () => {
      postgres = await startArchivedPostgres();
      // The app's migrations run here, on the server that archives.
      const database = await openDatabase({ url: postgres.url });
      t = await buildTestAppOn(database);
      seller = await createAccount(t.app, 'seller');
    }, 60_000);

    afterAll(async () => {
      await t?.close();
      copy?.stop();
      postgres?.remove();
    }, 30_000);

    it('restores to the second before a mistaken delete: the phones and every payment made before it are back', async () => {
      const first = await sale();
      const backedUp = await run('backup', ['--type', 'full']);
      expect(backedUp.code, backedUp.output).toBe(0);
      expect(backedUp.output).toMatch(/full backup \d{8}-\d{6}F/);

      // After the base backup: only the WAL archive has these.
      const second = await sale();
      await sleep(1500);
      // The mistake: an operator's DELETE with too wide a WHERE, every phone of the seller's.
      const [{ at: deletedAt } = { at: new Date() }] = await query<{ at: Date }>(
        postgres.url,
        'select clock_timestamp() as at',
      );
      const deleted = await query(
        postgres.url,
        'delete from products where seller_email = $1 returning id',
        [seller.email],
      );
      expect(deleted).toHaveLength(2);
      // Closes the WAL segment holding the delete and waits until it is in the archive.
      const [{ wal } = { wal: '' }] = await query<{ wal: string }>(
        postgres.url,
        'select pg_walfile_name(pg_switch_wal()) as wal',
      );
      const deadline = Date.now() + 20_000;
      for (;;) {
        const [stat] = await query<{ last: string | null }>(
          postgres.url,
          'select last_archived_wal as last from pg_stat_archiver',
        );
        if (stat?.last && stat.last >= wal) break;
        if (Date.now() > deadline) throw new Error(`WAL ${wal} was not archived within 20 s`);
        await sleep(100);
      }

      const into = path.join(postgres.dir, 'restored');
      const target = new Date(deletedAt.getTime() - 1000);
      const restored = await run('restore', ['--to', target.toISOString(), '--into', into]);
      expect(restored.code, restored.output).toBe(0);
      expect(restored.output).toContain(`Restored the stanza market into ${into}`);

      copy = await postgres.startCopy(into);
      const phones = await query<{ id: string }>(
        copy.url,
        'select id from products where seller_email = $1 order by id',
        [seller.email],
      );
      expect(phones.map((p) => p.id)).toEqual([first.productId, second.productId].sort());
      const paid = await query<{ transaction_id: string }>(
        copy.url,
        'select transaction_id from payments order by transaction_id',
      );
      expect(paid.map((p) => p.transaction_id)).toEqual(
        [first.transactionId, second.transactionId].sort(),
      );
      // The copy is a database of its own: it took the writes since and now takes new ones.
      await query(copy.url, 'create table restored_check (x int)');
      // The live server still has the delete; the restore changed nothing there.
      expect(
        await query(postgres.url, 'select id from products where seller_email = $1', [
          seller.email,
        ]),
      ).toEqual([]);
    }, 60_000);

    it('refuses to restore into a directory that is not empty, and leaves it alone', async () => {
      const into = path.join(postgres.dir, 'not-empty');
      await mkdir(into);
      await writeFile(path.join(into, 'keep-me'), 'x');
      const result = await run('restore', ['--to', new Date().toISOString(), '--into', into]);
      expect(result.code, result.output).toBe(1);
      expect(result.output).toMatch(/is not empty: a restore goes into a new, empty directory/);
      expect(result.output).not.toMatch(/\n\s+at /);
      expect(await readdir(into)).toEqual(['keep-me']);
    });

    it('says what is wrong with a bad time, a future one or a missing --into, never a stack', async () => {
      const into = path.join(postgres.dir, 'never');
      const cases: [string[], number, RegExp][] = [
        [['--to', 'yesterday', '--into', into], 2, /--to "yesterday" is not a time/],
        [['--to', '2999-01-01 00:00:00Z', '--into', into], 1, /is in the future/],
        [['--to', '2026-01-01 00:00:00Z'], 2, /give --into/],
        [['--to', '2000-01-01 00:00:00+00', '--into', into], 1, /before the end of the oldest/],
      ];
      const results = await Promise.all(cases.map(([args]) => run('restore', args)));
      cases.forEach(([, code, message], i) => {
        const result = results[i] as Awaited<ReturnType<typeof run>>;
        expect(result.code, result.output).toBe(code);
        expect(result.output).toMatch(message);
        expect(result.output).not.toMatch(/\n\s+at /);
      });
      expect(await readdir(postgres.dir)).not.toContain('never');
    }, 60_000);
  },
);
