/**
 * An operator's script (`npm run admin`, `photos:to-s3`, …) as the operator runs it: its own
 * process, with the server's environment and nothing of the test runner's; answers its exit code
 * and everything it printed.
 */
import { spawn } from 'node:child_process';
import { ROOT } from '../../scripts/lib/server-process';

export function runScript(
  script: string,
  args: string[],
  env: Record<string, string>,
): Promise<{ code: number | null; output: string }> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, ['--import', 'tsx', script, ...args], {
      cwd: ROOT,
      env: { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '', ...env },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let output = '';
    const keep = (chunk: Buffer) => {
      output += chunk.toString();
    };
    child.stdout.on('data', keep);
    child.stderr.on('data', keep);
    child.on('exit', (code) => resolve({ code, output }));
  });
}
