/**
 * The bell and the mail settings (issue 20): each person reads and clears their own
 * notifications, and chooses which kinds are mailed; a mail's unsubscribe link turns its kind off
 * without signing in, by the account's mail key.
 */

import { errorSchema } from '../../shared/api';
import { DomainError } from '../domain/domain-error';
import type { LiveHub } from '../live/live-hub';
import { markRead } from '../notify/notify';
import { callerOf } from '../plugins/auth';
import {
  listNotifications,
  mailSettingsOf,
  saveMailSettings,
  unreadCount,
  unsubscribe,
} from '../repositories/notifications';
import { contractRoutes, pageAnswer } from './contract-routes';

export default contractRoutes<{ live: LiveHub }>((route, app, { live }) => {
  route(
    'liveEvents',
    { responses: { 406: errorSchema, 503: errorSchema } },
    async (request, reply) => {
      if (!/\btext\/event-stream\b/.test(request.headers.accept ?? ''))
        throw new DomainError(406, 'This call streams events: ask for text/event-stream in Accept');
      if (live.closed)
        throw new DomainError(503, 'This server is stopping; the page will ask again on its own');
      if (live.full)
        throw new DomainError(503, 'Too many live pages just now; the page will ask on its own');
      const { id } = callerOf(request);
      const sessionId = request.callerSessionId as string;
      reply.hijack();
      reply.raw.writeHead(200, {
        ...app.securityHeaders,
        'content-type': 'text/event-stream; charset=utf-8',
        'cache-control': 'no-cache, no-transform',
        // nginx and its kin hold a response back to buffer it unless told not to.
        'x-accel-buffering': 'no',
        connection: 'keep-alive',
      });
      live.attach(id, sessionId, reply.raw);
      return reply;
    },
  );

  // A mail program's one-click unsubscribe (RFC 8058) posts `List-Unsubscribe=One-Click` as a
  // form; the link's query says everything, so the body is read (1 KB at most) and set aside.
  app.addContentTypeParser(
    'application/x-www-form-urlencoded',
    { parseAs: 'string', bodyLimit: 1024 },
    (_request, _body, done) => done(null, undefined),
  );

  route('notifications', async (request, reply) =>
    pageAnswer(
      request,
      reply,
      await listNotifications(app.db, callerOf(request).id, request.query),
    ),
  );

  route('unreadNotifications', async (request) => ({
    count: await unreadCount(app.db, callerOf(request).id),
  }));

  route('readNotifications', async (request) => ({
    modifiedCount: await markRead(app.db, callerOf(request).id, request.body.ids),
  }));

  route('mailSettings', async (request) => mailSettingsOf(app.db, callerOf(request).id));

  route('saveMailSettings', async (request) =>
    saveMailSettings(app.db, callerOf(request).id, request.body),
  );

  route('unsubscribe', { limit: { perMinute: 30 } }, async (request) => {
    // The key in the link is the proof; the form a mail program posts carries nothing else.
    const settings = await unsubscribe(app.db, request.query);
    if (!settings) throw DomainError.notFound('This unsubscribe link is not valid');
    return settings;
  });
});
