/**
 * The client and the page renderer built (or found up to date) once, before any API test file
 * starts: the rendered pages the server answers with exist only with a build (a server without
 * one answers `/` with a 404), and a build written while other files' servers start would hand
 * them a half-written one. CI starts from a clean checkout, with no build yet.
 */
import { ensureClientBuild } from '../../scripts/client-build';

export default async function setup() {
  await ensureClientBuild();
}
