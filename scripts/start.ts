/** `npm start`: build the client if needed, then run the server. */
import { ensureClientBuild } from './client-build';

await ensureClientBuild();
await import('../src/server/server');
