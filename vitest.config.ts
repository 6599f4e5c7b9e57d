import { availableParallelism } from 'node:os';
import { fileURLToPath } from 'node:url';
import react from '@vitejs/plugin-react';
import { defineConfig } from 'vitest/config';

/**
 * A worker per core. Vitest keeps one core back for its own process by default, which on the
 * two-core machines we test on means one file at a time: the API files wait on a database most of
 * the time, PGlite's run on the worker's own core, and the main process has little to do.
 */
const maxWorkers = availableParallelism();

const alias = {
  '@shared': fileURLToPath(new URL('./src/shared', import.meta.url)),
  '@client': fileURLToPath(new URL('./src/client', import.meta.url)),
};

export default defineConfig({
  resolve: { alias },
  test: {
    projects: [
      {
        resolve: { alias },
        test: {
          name: 'unit',
          environment: 'node',
          include: ['src/shared/**/*.test.ts', 'src/server/**/*.test.ts', 'scripts/**/*.test.ts'],
          setupFiles: ['tests/helpers/fail-on-console-error.ts'],
        },
      },
      {
        plugins: [react()],
        resolve: { alias },
        test: {
          name: 'component',
          environment: 'jsdom',
          maxWorkers,
          include: ['src/client/**/*.test.{ts,tsx}'],
          setupFiles: ['tests/helpers/fail-on-console-error.ts', 'tests/helpers/dom-setup.ts'],
        },
      },
      {
        resolve: { alias },
        test: {
          name: 'api',
          environment: 'node',
          // One module graph per worker, not per file: every API file imported the whole server
          // (~5 s a file, 320 s a pass on two cores) for tests that each build their own app and
          // database anyway. The files keep no state in modules between them (decision 065).
          isolate: false,
          maxWorkers,
          include: ['tests/api/**/*.test.ts'],
          globalSetup: [
            'tests/helpers/client-build-global-setup.ts',
            'tests/helpers/database-global-setup.ts',
          ],
          setupFiles: ['tests/helpers/fail-on-console-error.ts'],
          testTimeout: 30_000,
          hookTimeout: 60_000,
        },
      },
    ],
  },
});
