/** Accounts on the product server: role checks, the admin's lists, bans, the user record and access tokens. */

import { NAME_MAX_LENGTH } from '../../shared/constants';
import { DomainError } from '../domain/domain-error';
import { identityOf } from '../plugins/auth';
import { banEmail, liftBan, listBans } from '../repositories/bans';
import { noteSeen } from '../repositories/trust';
import {
  deleteAccount,
  findUserByEmail,
  findUserById,
  isAdminEmail,
  listUsers,
  removeIdentity,
  saveUserRecord,
  unverifySeller,
  verifySeller,
} from '../repositories/users';
import { assessAccount } from '../risk/assess';
import { seenFrom } from '../trust/devices';
import { contractRoutes, pageAnswer } from './contract-routes';

export default contractRoutes((route, app) => {
  const isAdmin = (email: string) => isAdminEmail(app.db, email, app.adminEmails);

  route('adminCheck', async (request) => ({ isAdmin: await isAdmin(request.params.email) }));

  route('sellerCheck', async (request) => ({
    isSeller: (await findUserByEmail(app.db, request.params.email))?.type === 'seller',
  }));

  route('listBuyers', async (request, reply) =>
    pageAnswer(request, reply, await listUsers(app.db, 'user', request.query, app.adminEmails)),
  );

  route('listSellers', async (request, reply) =>
    pageAnswer(request, reply, await listUsers(app.db, 'seller', request.query, app.adminEmails)),
  );

  route('verifySeller', async (request) => {
    const { email } = request.params;
    if ((await findUserByEmail(app.db, email))?.type !== 'seller')
      throw DomainError.notFound('No seller uses this e-mail');
    return { modifiedCount: await verifySeller(app.db, email) };
  });

  route('unverifySeller', async (request) => {
    const { email } = request.params;
    if ((await findUserByEmail(app.db, email))?.type !== 'seller')
      throw DomainError.notFound('No seller uses this e-mail');
    return { modifiedCount: await unverifySeller(app.db, email) };
  });

  route('deleteUser', async (request) => {
    const row = await findUserById(app.db, request.query.id);
    if (!row) throw DomainError.notFound('No such account');
    if (await isAdmin(row.email)) throw DomainError.forbidden('An admin account cannot be deleted');
    return { deletedCount: await deleteAccount(app.db, app.loosePhotos, row) };
  });

  route('listBans', async (request, reply) =>
    pageAnswer(request, reply, await listBans(app.db, request.query)),
  );

  route('banEmail', async (request) => {
    const { email } = request.body;
    const account = await findUserByEmail(app.db, email);
    if (await isAdmin(email)) throw DomainError.forbidden('An admin account cannot be banned');
    // The account goes with the ban (sessions, tokens, listings; paid records stay).
    const deletedCount = account
      ? await deleteAccount(app.db, app.loosePhotos, account, 'banned')
      : 0;
    if (!account) await removeIdentity(app.db, email);
    await banEmail(app.db, email, 'banned');
    return { acknowledged: true, deletedCount };
  });

  route('liftBan', async (request) => {
    if (!(await liftBan(app.db, request.query.email)))
      throw DomainError.notFound('This address is not banned');
    return { deletedCount: 1 };
  });

  route('saveUser', async (request) => {
    // An existing record keeps its type: a seller signing in with Google stays a seller.
    await saveUserRecord(app.db, request.body);
    return { acknowledged: true };
  });

  // Per signed-in identity, counted after the session is proven: per address would throttle
  // every phone behind one carrier address, and per e-mail in the query would let anybody use
  // up somebody else's allowance.
  route('getToken', { limit: { perMinute: 30 } }, async (request, reply) => {
    const identity = identityOf(request);
    // An identity whose record was never saved (a failed sign-up step) becomes a buyer.
    const account = await saveUserRecord(app.db, {
      email: request.query.email,
      name: identity.name.slice(0, NAME_MAX_LENGTH),
      type: 'user',
    });
    // Where and on what the account signed in: a sale to oneself (decision 038), a banned person
    // (decision 052); the browser gets its device cookie here, with the token.
    await noteSeen(app.db, account.id, seenFrom(request, reply));
    // Seen with an address or device of a banned account (issue 34): a signal, its listings held.
    await assessAccount(app.db, account);
    return {
      accessToken: await app.accessTokens.issue({
        userId: account.id,
        sessionId: identity.sessionId,
      }),
    };
  });
});
