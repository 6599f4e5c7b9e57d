/** Finds a Chromium for Playwright; installs one when none is found (Debian's package as root, else Playwright's). */
import { execFileSync, spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';

const CANDIDATES = ['/usr/bin/chromium', '/usr/bin/chromium-browser', '/usr/bin/google-chrome'];

export function findChromium(): string | undefined {
  const fromEnv = process.env.CHROMIUM_PATH;
  if (fromEnv && existsSync(fromEnv)) return fromEnv;
  return CANDIDATES.find((c) => existsSync(c));
}

export function ensureChromium(): string | undefined {
  const found = findChromium();
  if (found) return found;
  const isRoot = process.getuid?.() === 0;
  const hasApt = spawnSync('sh', ['-c', 'command -v apt-get'], { stdio: 'ignore' }).status === 0;
  if (isRoot && hasApt) {
    console.info('No Chromium found: installing Debian\'s "chromium" package with apt-get…');
    execFileSync(
      'sh',
      ['-c', 'apt-get update -q && DEBIAN_FRONTEND=noninteractive apt-get install -y -q chromium'],
      {
        stdio: 'inherit',
      },
    );
    return findChromium();
  }
  console.info("No Chromium found: installing Playwright's Chromium…");
  execFileSync('npx', ['playwright', 'install', 'chromium'], { stdio: 'inherit' });
  // Playwright's own browser: launch without an executablePath.
  return undefined;
}
