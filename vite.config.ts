import { fileURLToPath } from 'node:url';
import tailwindcss from '@tailwindcss/vite';
import react from '@vitejs/plugin-react';
import { defineConfig } from 'vite';
import { codeSplitting } from './scripts/vite-chunks.ts';
import { precompress } from './scripts/vite-precompress.ts';

const apiTarget = `http://localhost:${process.env.API_PORT ?? 3000}`;

export default defineConfig({
  root: 'src/client',
  publicDir: '../../public',
  plugins: [react(), tailwindcss(), precompress()],
  resolve: {
    alias: {
      '@shared': fileURLToPath(new URL('./src/shared', import.meta.url)),
      '@client': fileURLToPath(new URL('./src/client', import.meta.url)),
    },
  },
  build: {
    outDir: '../../dist/client',
    emptyOutDir: true,
    target: 'es2022',
    assetsInlineLimit: 0,
    // The bench reads it to weigh what each route loads first (bench/budgets.ts).
    manifest: true,
    // Fewer, shared script files (decision 064).
    rolldownOptions: { output: { codeSplitting } },
  },
  server: {
    // The server makes robots.txt and the sitemap from the database (routes/sitemaps.ts).
    proxy: {
      '/api': apiTarget,
      '/images': apiTarget,
      '/robots.txt': apiTarget,
      '/sitemap.xml': apiTarget,
      '/sitemaps/': apiTarget,
    },
  },
});
