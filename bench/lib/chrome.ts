/** Chromium for the bench's Lighthouse parts: launched headless, its exact version, a busy core. */
import * as chromeLauncher from 'chrome-launcher';
import { spawnOwned, stopChild } from './app-server';

export type Chrome = chromeLauncher.LaunchedChrome;

/** Chromium headless as the Lighthouse parts run it; `flags` add to the defaults. */
export const launchChrome = (chromiumPath: string, flags: readonly string[] = []) =>
  chromeLauncher.launch({
    chromePath: chromiumPath,
    chromeFlags: ['--headless=new', '--no-sandbox', '--disable-gpu', ...flags],
  });

/**
 * The browser's full version from the DevTools endpoint (`HeadlessChrome/142.0.7444.59`): the
 * user agent Lighthouse records (`hostUserAgent`) is frozen to `142.0.0.0`.
 */
export async function browserVersion(port: number): Promise<string> {
  try {
    const res = await fetch(`http://127.0.0.1:${port}/json/version`);
    const { Browser } = (await res.json()) as { Browser?: string };
    return Browser ?? 'unknown';
  } catch {
    return 'unknown';
  }
}

/**
 * Runs `work` with one core kept busy: a Node child spinning `for(;;){}` from before the first
 * run to after the last, killed after (the busy mode, a phone's slower CPU in effect).
 */
export async function withBusyCore<T>(work: () => Promise<T>): Promise<T> {
  const spinner = spawnOwned(process.execPath, ['-e', 'for(;;){}'], { stdio: 'ignore' });
  try {
    // Node's start-up done, the loop spinning, before the first measurement.
    await new Promise((r) => setTimeout(r, 500));
    return await work();
  } finally {
    await stopChild(spinner);
  }
}
