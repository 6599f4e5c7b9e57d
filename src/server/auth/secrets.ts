/** A secret from the environment, or one generated once and kept in DATA_DIR, readable by its owner only. */
import { randomBytes } from 'node:crypto';
import { chmod, mkdir, readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';

export async function loadSecret(
  dataDir: string,
  name: string,
  fromEnv?: string,
  generate: () => string = () => randomBytes(48).toString('base64url'),
): Promise<string> {
  if (fromEnv) return fromEnv;
  const dir = path.join(dataDir, 'secrets');
  const file = path.join(dir, name);
  try {
    return (await readFile(file, 'utf8')).trim();
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== 'ENOENT') throw err;
  }
  await mkdir(dir, { recursive: true, mode: 0o700 });
  const secret = generate();
  try {
    await writeFile(file, secret, { mode: 0o600, flag: 'wx' });
  } catch (err) {
    // Another process created it first: use theirs.
    if ((err as NodeJS.ErrnoException).code === 'EEXIST')
      return (await readFile(file, 'utf8')).trim();
    throw err;
  }
  await chmod(file, 0o600);
  return secret;
}
