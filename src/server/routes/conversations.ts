/** Messages between a buyer and a seller, and the admin's reported ones (issue 20). */
import {
  listConversations,
  listReportedMessages,
  readConversation,
  reportMessage,
  sendMessage,
  startConversation,
} from '../domain/conversations';
import { callerOf } from '../plugins/auth';
import { contractRoutes } from './contract-routes';

/** A person writes at most this many messages a minute: a conversation, not a flood. */
const WRITES = { limit: { perMinute: 20 } };

export default contractRoutes((route, app) => {
  route('conversations', async (request) => listConversations(app.db, callerOf(request)));

  route('startConversation', WRITES, async (request) =>
    startConversation(app.db, callerOf(request), request.body.productId, request.body.body),
  );

  route('conversation', async (request) =>
    readConversation(app.db, callerOf(request), request.params.id),
  );

  route('sendMessage', WRITES, async (request) =>
    sendMessage(app.db, callerOf(request), request.params.id, request.body.body),
  );

  route('reportMessage', { limit: { perMinute: 10 } }, async (request) => {
    await reportMessage(app.db, callerOf(request), request.params.id, request.body.reason);
    return { acknowledged: true };
  });

  route('reportedMessages', async () => listReportedMessages(app.db));
});
