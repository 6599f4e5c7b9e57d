/** `npm run build`: the client and the server's page renderer. */
import { buildClient } from './client-build';

await buildClient();
