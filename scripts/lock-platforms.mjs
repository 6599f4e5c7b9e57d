// Records in package-lock.json the other platforms' optional packages (e.g. @biomejs/cli-win32-x64)
// that this machine's registry does not serve, so `npm ci` accepts the lock file here and on
// machines that can fetch them. Run after `npm install` changes the lock: `npm run lock:platforms`.
import { readFileSync, writeFileSync } from 'node:fs';

const file = new URL('../package-lock.json', import.meta.url);
const lock = JSON.parse(readFileSync(file, 'utf8'));
const has = (name) =>
  Object.keys(lock.packages).some(
    (k) => k === `node_modules/${name}` || k.endsWith(`/node_modules/${name}`),
  );

let added = 0;
for (const [key, pkg] of Object.entries(lock.packages)) {
  for (const [name, version] of Object.entries(pkg.optionalDependencies ?? {})) {
    if (has(name)) continue;
    const top = `node_modules/${name}`;
    const target = lock.packages[top] ? `${key}/node_modules/${name}` : top;
    lock.packages[target] = { version, optional: true, ...(pkg.dev ? { dev: true } : {}) };
    added++;
  }
}
writeFileSync(file, `${JSON.stringify(lock, null, 2)}\n`);
console.info(`package-lock.json: recorded ${added} optional platform package(s)`);
