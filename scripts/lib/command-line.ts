/**
 * What the operator's commands (`npm run backup`, `restore`) share: a refusal said in words with
 * its exit code (2 for a command line that does not parse, 1 otherwise), never a stack, and the
 * server's configuration read as the server reads it.
 */
import { type Config, ConfigError, loadConfig } from '../../src/server/config';

export function fail(message: string, code = 1): never {
  console.error(message);
  process.exit(code);
}

/** The command line as `parse` reads it, or its problem and the usage (exit 2). */
export function parsedOrUsage<T>(parse: () => T, usage: string): T {
  try {
    return parse();
  } catch (err) {
    return fail(`${(err as Error).message}\n${usage}`, 2);
  }
}

/** The configuration from the environment, or the message naming what is wrong with it. */
export function configOrFail(): Config {
  try {
    return loadConfig();
  } catch (err) {
    if (err instanceof ConfigError) fail(err.message);
    throw err;
  }
}
